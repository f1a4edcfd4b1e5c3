"""import-check's accepted differences seen on other clients' recorded traffic (part of the registry).

Each entry is a second valid rendering of one canonical request, shown by a request another
client sent (``traffic/clients2/``: LangChain, OpenLLMetry, OpenInference, simonw/llm; see its
SOURCES.md) and one of the form ours sends, each answered 200. See ``harness.accepted.importcheck``
for the rule of adding one.
"""

from __future__ import annotations

from harness.accepted.predicates import (
    one_output_text_part,
    restructured,
    role_is,
    string_is_one_block,
    type_is,
    value_is,
    values_are,
)
from harness.contract.accepted import Accepted

__all__ = ["IMPORTCHECK_CLIENTS"]

_NEEDED = "tests/test_accepted_needed.py::test_each_import_check_entry_is_needed"
_LC = "traffic/clients2/langchain/libs/partners"
_OI = "traffic/clients2/openinference/python/instrumentation"
_OL = "traffic/clients2/openllmetry/packages"

#: Shared by the two entries of one echoed Chat assistant message (its `annotations` and `refusal`).
_ECHOED_WHY = (
    "a Chat response's assistant message echoed back with its empty `annotations: []` (no "
    "source) and `refusal: null` (no refusal): the importer reads them as absent, our adapter "
    "sends neither (ChatCompletionAssistantMessageParam has no `annotations`)"
)
_ECHOED_EVIDENCE = (
    f"echoed form accepted: {_OL}/opentelemetry-instrumentation-openai/tests/traces/cassettes/"
    "test_chat/test_chat_history_message_pydantic.yaml#1; without them accepted: "
    "traffic/pydantic-ai/models__test_multimodal_tool_returns__test_model_sees_multiple_images"
    "[openai_chat].yaml#1",
)

IMPORTCHECK_CLIENTS: tuple[Accepted, ...] = (
    Accepted(
        "chat-echoed-empty-annotations",
        judges=("import-check",),
        provider="openai-chat",
        where="messages[*].annotations",
        diff="missing",
        when=(value_is([]),),
        kind="equivalent",
        why=_ECHOED_WHY,
        evidence=_ECHOED_EVIDENCE,
        still_needed=_NEEDED,
    ),
    Accepted(
        "chat-echoed-null-refusal",
        judges=("import-check",),
        provider="openai-chat",
        where="messages[*].refusal",
        diff="missing",
        when=(value_is(None),),
        kind="equivalent",
        why=_ECHOED_WHY,
        evidence=_ECHOED_EVIDENCE,
        still_needed=_NEEDED,
    ),
    Accepted(
        "responses-empty-summary-text-dropped",
        judges=("import-check",),
        provider="openai-responses",
        where="input[*].summary[*]",
        diff="missing",
        when=(value_is({"type": "summary_text", "text": ""}),),
        kind="equivalent",
        why=(
            "an empty reasoning summary text carries nothing: our adapter drops the empty thinking text "
            "(warning empty-text) and sends the reasoning item with `summary: []`; the API takes the "
            "same item both ways"
        ),
        evidence=(
            f"summary [{{text: ''}}] accepted: {_LC}/openai/tests/cassettes/test_mcp_builtin_zdr.yaml.gz#3; "
            f"the same item rs_0cebfa5c... with summary [] accepted: {_LC}/openai/tests/cassettes/"
            "test_mcp_builtin_zdr.yaml.gz#1",
        ),
        still_needed=_NEEDED,
    ),
    Accepted(
        "chat-legacy-functions",
        judges=("import-check",),
        provider="openai-chat",
        where="$",
        diff="changed",
        when=(restructured("legacy_functions_as_tools"),),
        kind="equivalent",
        why=(
            "legacy: Chat's deprecated functions / function_call (CreateChatCompletionRequest marks both "
            "deprecated in favour of tools / tool_choice) carry the same definitions and choice; the "
            "importer reads them as tools and our adapter sends the current form"
        ),
        evidence=(
            f"legacy form accepted: {_OL}/opentelemetry-instrumentation-openai/tests/traces/cassettes/"
            "test_functions/test_open_ai_function_calls_with_events_with_content.yaml#0; tools form "
            "accepted: every Chat request with tools in cassettes/openai-chat",
        ),
        still_needed=_NEEDED,
    ),
    Accepted(
        "anthropic-message-content-string",
        judges=("import-check",),
        provider="anthropic",
        where="messages[*].content",
        diff="changed",
        when=(string_is_one_block("text"),),
        kind="equivalent",
        why=(
            "a message's string content is shorthand for one text block (MessageParam.content is string | "
            "block[]); ours sends the same text as [{type: text}]"
        ),
        evidence=(
            f"string form accepted: {_LC}/anthropic/tests/cassettes/test_thinking.yaml.gz#0; block form "
            "accepted: traffic/pydantic-ai/models__anthropic__test_output__test_mixed_tools_basemodel_output.yaml#0",
        ),
        still_needed=_NEEDED,
    ),
    Accepted(
        "anthropic-blank-text-beside-content-dropped",
        judges=("import-check",),
        provider="anthropic",
        where="messages[*].content",
        diff="changed",
        when=(restructured("drop_blank_text_blocks"),),
        kind="policy",
        why=(
            "our adapter drops a whitespace-only text block (warning empty-text): the API refuses one with "
            "nothing beside it and it carries nothing the model reads; beside other blocks the API takes it"
        ),
        evidence=(
            "' ' beside two tool_use blocks accepted: "
            "traffic/clients2/simonw-llm/llm-anthropic/tests/cassettes/test_anthropic/test_tools.yaml#1; "
            "tool_use blocks alone accepted: "
            "traffic/pydantic-ai/models__anthropic__test_output__test_mixed_tools_basemodel_output.yaml#1; "
            "https://github.com/LibreChat-AI/agents/pull/124 (' ' alone refused)",
        ),
        still_needed=_NEEDED,
    ),
    Accepted(
        "chat-developer-role-for-system",
        judges=("import-check",),
        provider="openai-chat",
        where="messages[*].role",
        diff="changed",
        when=(values_are("developer", "system"),),
        kind="equivalent",
        why=(
            "the developer role is the system role's newer name: the API converts system to developer for "
            "o-series models and developer to system for the others; ours sends system"
        ),
        evidence=(
            f"developer accepted (gpt-4o-mini): {_OI}/openinference-instrumentation-agno/tests/openinference/"
            "instrumentation/agno/fixtures/team_coordinate_run.yaml#0; system accepted (o3-mini): "
            "traffic/pydantic-ai/models__test_openai__test_openai_model_without_system_prompt.yaml#0",
            "https://community.openai.com/t/how-is-developer-message-better-than-system-prompt/1062784/2 "
            "(OpenAI staff: 'For o1, system messages will auto-convert to developer messages. For GPT-4o, "
            "if you happen to use developer messages, they will auto-convert to system messages')",
        ),
        still_needed=_NEEDED,
    ),
    Accepted(
        "chat-assistant-empty-content",
        judges=("import-check",),
        provider="openai-chat",
        where="messages[*].content",
        diff="missing",
        when=(value_is(""), role_is("assistant")),
        kind="equivalent",
        why=(
            "content: '' on an assistant turn is no text; content is optional there when tool_calls are "
            "given, and our adapter sends no empty text"
        ),
        evidence=(
            f"'' beside tool_calls accepted: {_OI}/openinference-instrumentation-agno/tests/openinference/"
            "instrumentation/agno/fixtures/team_coordinate_run.yaml#7; no content beside tool_calls "
            "accepted: traffic/pydantic-ai/models__test_openai__test_image_url_tool_response.yaml#1",
        ),
        still_needed=_NEEDED,
    ),
    Accepted(
        "chat-tool-message-name",
        judges=("import-check",),
        provider="openai-chat",
        where="messages[*].name",
        diff="missing",
        when=(role_is("tool"),),
        kind="policy",
        why=(
            "a tool message's name repeats the name of the call its tool_call_id answers (the importer "
            "reads it as the result's tool_name); the API takes it but defines no name on a tool message, "
            "so our adapter sends none"
        ),
        evidence=(
            f"name on a tool message accepted: {_OI}/openinference-instrumentation-crewai/tests/cassettes/"
            "test_instrumentor/test_crewai_instrumentation_context_attributes.yaml#1; without it accepted: "
            "traffic/pydantic-ai/models__test_openai__test_image_url_tool_response.yaml#1",
        ),
        still_needed=_NEEDED,
    ),
    Accepted(
        "chat-max-tokens-as-max-completion-tokens",
        judges=("import-check",),
        provider="openai-chat",
        where="$",
        diff="changed",
        when=(restructured("max_tokens_as_max_completion_tokens"),),
        kind="equivalent",
        why=(
            "max_tokens is the deprecated name of max_completion_tokens (the API reference: 'deprecated in "
            "favor of max_completion_tokens'); both cap the completion of a non-reasoning model, and only "
            "max_completion_tokens is taken by o-series models, so ours sends it"
        ),
        evidence=(
            f"max_tokens accepted (gpt-4o): {_OI}/openinference-instrumentation-beeai/tests/openinference/"
            "instrumentation/beeai/cassettes/test_instrumentor/test_instrumentor.yaml#0; (vLLM) "
            f"{_OL}/opentelemetry-instrumentation-langchain/tests/cassettes/test_llms/"
            "test_trace_propagation_async[ChatOpenAI].yaml#0; max_completion_tokens accepted: "
            "cassettes/openai-chat/pai__gpt4omini_tool_call_roundtrip.yaml#0",
        ),
        still_needed=_NEEDED,
    ),
    Accepted(
        "responses-input-string",
        judges=("import-check",),
        provider="openai-responses",
        where="input",
        diff="changed",
        when=(restructured("input_string_as_message"),),
        kind="equivalent",
        why=(
            "a string input is 'equivalent to a text input with the user role' (Responses API reference, "
            "input); ours sends that one user message"
        ),
        evidence=(
            f"string input accepted: {_OL}/opentelemetry-instrumentation-openai/tests/traces/cassettes/"
            "test_responses/test_responses_with_input_history.yaml#0; one user message accepted: "
            "traffic/pydantic-ai/models__test_cohere__test_cohere_model_thinking_part.yaml#0",
        ),
        still_needed=_NEEDED,
    ),
    Accepted(
        "responses-assistant-output-text-part",
        judges=("import-check",),
        provider="openai-responses",
        where="input[*].content",
        diff="changed",
        when=(role_is("assistant"), one_output_text_part()),
        kind="equivalent",
        why=(
            "an assistant message's one output_text part (no annotations) and the string content of an "
            "assistant EasyInputMessage are the same text; ours sends the string when the item id is unknown"
        ),
        evidence=(
            f"one output_text part accepted: {_OL}/opentelemetry-instrumentation-openai/tests/traces/"
            "cassettes/test_responses/test_responses_with_input_history.yaml#1; the string accepted: "
            "traffic/pydantic-ai/models__test_openai_responses__test_native_output.yaml#1",
        ),
        still_needed=_NEEDED,
    ),
    Accepted(
        "responses-output-message-status",
        judges=("import-check",),
        provider="openai-responses",
        where="input[*].status",
        diff="extra",
        when=(value_is("completed"), role_is("assistant")),
        kind="equivalent",
        why=(
            "status is optional on an input item (the API fills it in); ours sends status: completed on a "
            "replayed assistant message with its id, as the SDK's ResponseOutputMessageParam asks"
        ),
        evidence=(
            f"without status accepted: {_LC}/openai/tests/cassettes/test_configuration_update_block.yaml.gz#1; "
            "with it accepted: traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_phase_live.yaml#1",
        ),
        still_needed=_NEEDED,
    ),
    Accepted(
        "responses-function-call-status-completed",
        judges=("import-check",),
        provider="openai-responses",
        where="input[*].status",
        diff="missing",
        when=(value_is("completed"), type_is("function_call")),
        kind="equivalent",
        why=(
            "a replayed function_call's status completed is the API's own echo of a finished call "
            "(ResponseFunctionToolCallParam.status: optional, 'populated when items are returned via API'); "
            "ours sends none, which is the same finished call"
        ),
        evidence=(
            f"with it accepted: {_LC}/openai/tests/cassettes/test_client_executed_tool_search.yaml.gz#2; without it "
            "accepted: traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_requires_function_call_status_none.yaml#1",
        ),
        still_needed=_NEEDED,
    ),
)
