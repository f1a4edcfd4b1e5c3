"""The request oracles' accepted differences seen on other clients' recorded traffic (part of the registry).

Each entry is a shape a real API answered 200 that the vendored spec or the SDK's request
types refuse; the evidence is a recording bundled under ``traffic/clients2/`` (LangChain,
OpenLLMetry, OpenInference, simonw/llm: see its SOURCES.md). See ``harness.accepted.oracle``
for the rule of adding one. The ``absent`` entries come first in the registry: an assistant
item without ``type`` is read as a message before the message entries fill in its id.
"""

from __future__ import annotations

from harness.accepted.predicates import error_says, has_list, openai_host, role_is, type_is, type_on_path
from harness.contract.accepted import Accepted

__all__ = ["ORACLE_CLIENTS"]

_LC_OPENAI = "traffic/clients2/langchain/libs/partners/openai/tests/cassettes"
_LC_ANTHROPIC = "traffic/clients2/langchain/libs/partners/anthropic/tests/cassettes"
_NEEDED = "tests/test_accepted_needed.py::test_each_oracle_entry_is_needed"
_CHAT_EXTRA_WHY = (
    "Chat Completions took these keys (agno's `requires_confirmation`/`external_execution` in function "
    "definitions, crewai's `name` on a tool message, a response's `annotations` sent back on an assistant "
    "message), answered 200 with gpt-4o-mini and gpt-4.1-nano; any other unknown key in a message (another "
    "provider's `reasoning_content`, a typo) stays a reject for want of evidence. Older models "
    "(gpt-3.5-turbo, gpt-4) were reported to refuse such keys (openai/openai-node#1161: 'It works if I "
    "use gpt-4o'), and the Responses API refuses them ('Unknown parameter: input[1].metadata', "
    "microsoft/agent-framework#2203), so this holds for Chat only"
)
_CHAT_EXTRA_EVIDENCE = (
    "traffic/clients2/openinference/python/instrumentation/openinference-instrumentation-agno/tests/"
    "openinference/instrumentation/agno/fixtures/team_coordinate_run.yaml#1",
    "traffic/clients2/openinference/python/instrumentation/openinference-instrumentation-crewai/tests/"
    "cassettes/test_instrumentor/test_crewai_instrumentation_context_attributes.yaml#1",
    "traffic/clients2/openllmetry/packages/opentelemetry-instrumentation-openai/tests/traces/cassettes/"
    "test_chat/test_chat_history_message_pydantic.yaml#1",
    "https://github.com/microsoft/agent-framework/pull/2344 (Chat Completions did not complain, Responses did)",
)

ORACLE_CLIENTS: tuple[Accepted, ...] = (
    Accepted(
        "responses-assistant-item-type-optional",
        judges=("oracle",),
        provider="openai-responses",
        where="input[*].type",
        diff="absent",
        when=(role_is("assistant"), has_list("content")),
        default="message",
        kind="oracle-lag",
        why=(
            "an assistant item without `type`, its content `output_text` parts (a response's output sent "
            "back as `{role, content}`), is read as an output message and accepted; the SDK's easy input "
            "message takes input parts only and the output message requires `type`"
        ),
        evidence=(
            "traffic/clients2/openllmetry/packages/opentelemetry-instrumentation-openai/tests/traces/"
            "cassettes/test_responses/test_responses_with_input_history.yaml#1",
        ),
        still_needed=_NEEDED,
    ),
    Accepted(
        "responses-input-image-detail-optional",
        judges=("oracle",),
        provider="openai-responses",
        where="input[*].content[*].detail",
        diff="absent",
        when=(type_is("input_image"),),
        default="auto",
        kind="oracle-lag",
        why=(
            "an `input_image` part without `detail` is accepted: the SDK documents it 'Defaults to `auto`' "
            "(openai-python ResponseInputImageParam) while the spec and the SDK's TypedDict mark it required"
        ),
        evidence=(
            "traffic/clients2/simonw-llm/llm-openrouter/tests/cassettes/test_llm_openrouter/test_image_prompt.yaml#1",
            "langchain-openai 1.8.1 tests/cassettes/TestChatOpenAICodexStandard.test_image_inputs.yaml.gz#1-3 and "
            "test_anthropic_inputs.yaml.gz#1 (OpenAI's API, answered 200; not bundled: the scanner's generic rule "
            "fires on their image payloads)",
            "openai-python src/openai/types/responses/response_input_image_param.py: detail, 'Defaults to `auto`'",
        ),
        still_needed=_NEEDED,
    ),
    Accepted(
        "responses-stored-image-result",
        judges=("oracle",),
        provider="openai-responses",
        where="input[*].result",
        diff="absent",
        when=(type_is("image_generation_call"),),
        default="",
        kind="oracle-lag",
        why=(
            "a hosted tool's call item sent back without its output (`result` of an image generation, "
            "`outputs` of a code interpreter call, or its `status`) is accepted: the API holds the item "
            "under its id; the spec and SDK mark the output fields required"
        ),
        evidence=(f"{_LC_OPENAI}/test_image_generation_multi_turn.yaml.gz#1",),
        still_needed=_NEEDED,
    ),
    Accepted(
        "responses-stored-call-status",
        judges=("oracle",),
        provider="openai-responses",
        where="input[*].status",
        diff="absent",
        when=(type_is("image_generation_call|code_interpreter_call"),),
        default="completed",
        kind="oracle-lag",
        why=(
            "a hosted tool's call item sent back without its output (`result` of an image generation, "
            "`outputs` of a code interpreter call, or its `status`) is accepted: the API holds the item "
            "under its id; the spec and SDK mark the output fields required"
        ),
        evidence=(f"{_LC_OPENAI}/test_image_generation_multi_turn.yaml.gz#1",),
        still_needed=_NEEDED,
    ),
    Accepted(
        "responses-stored-code-outputs",
        judges=("oracle",),
        provider="openai-responses",
        where="input[*].outputs",
        diff="absent",
        when=(type_is("code_interpreter_call"),),
        default=[],
        kind="oracle-lag",
        why=(
            "a hosted tool's call item sent back without its output (`result` of an image generation, "
            "`outputs` of a code interpreter call, or its `status`) is accepted: the API holds the item "
            "under its id; the spec and SDK mark the output fields required"
        ),
        evidence=(f"{_LC_OPENAI}/test_code_interpreter.yaml.gz#2",),
        still_needed=_NEEDED,
    ),
    Accepted(
        "chat-function-extra-keys-ignored",
        judges=("oracle",),
        provider="openai-chat",
        where="tools[*].function",
        diff="spec-error",
        when=(error_says("Unevaluated properties are not allowed"),),
        kind="oracle-lag",
        why=_CHAT_EXTRA_WHY,
        evidence=_CHAT_EXTRA_EVIDENCE[:1],
        still_needed=_NEEDED,
    ),
    Accepted(
        "chat-function-extra-keys-ignored",
        judges=("oracle",),
        provider="openai-chat",
        where="tools[*].function.*",
        diff="sdk-error",
        when=(error_says("\\[extra_forbidden\\]"),),
        kind="oracle-lag",
        why=_CHAT_EXTRA_WHY,
        evidence=_CHAT_EXTRA_EVIDENCE[:1],
        still_needed=_NEEDED,
    ),
    Accepted(
        "chat-message-echo-keys",
        judges=("oracle",),
        provider="openai-chat",
        where="messages[*]",
        diff="spec-error",
        when=(
            error_says("^Unevaluated properties are not allowed \\('(annotations|name)' was unexpected\\)"),
        ),
        kind="oracle-lag",
        why=(
            "a message sent back with a field of its own kind's response or legacy form is accepted: an "
            "assistant message with the `annotations` its response carried, a tool message with the `name` "
            "of the legacy function message it replaced. " + _CHAT_EXTRA_WHY
        ),
        evidence=_CHAT_EXTRA_EVIDENCE[1:],
        still_needed=_NEEDED,
    ),
    Accepted(
        "chat-message-echo-keys",
        judges=("oracle",),
        provider="openai-chat",
        where="messages[*].{annotations,name}",
        diff="sdk-error",
        when=(error_says("\\[extra_forbidden\\]"),),
        kind="oracle-lag",
        why=(
            "a message sent back with a field of its own kind's response or legacy form is accepted: an "
            "assistant message with the `annotations` its response carried, a tool message with the `name` "
            "of the legacy function message it replaced. " + _CHAT_EXTRA_WHY
        ),
        evidence=_CHAT_EXTRA_EVIDENCE[1:],
        still_needed=_NEEDED,
    ),
    Accepted(
        "responses-custom-tool-call-status",
        judges=("oracle",),
        provider="openai-responses",
        where="{input[*],input[*].status}",
        diff="spec-error",
        when=(type_on_path("custom_tool_call"), error_says("'status' was unexpected")),
        kind="oracle-lag",
        why=(
            "a `custom_tool_call` item sent back with the `status` its response carried is accepted; the "
            "input item's schema has no `status`"
        ),
        evidence=(
            "langchain-openai 1.8.1 tests/cassettes/test_codex_custom_tool.yaml.gz#1 (answered 200; not bundled: "
            "the scanner's generic rule fires on its encrypted reasoning; the item is the valid case "
            "openai-responses-custom-tool-call-status of tests/test_oracles.py)",
        ),
        still_needed=_NEEDED,
    ),
    Accepted(
        "responses-custom-tool-call-status",
        judges=("oracle",),
        provider="openai-responses",
        where="input[*].status",
        diff="sdk-error",
        when=(type_on_path("custom_tool_call"), error_says("\\[extra_forbidden\\]")),
        kind="oracle-lag",
        why=(
            "a `custom_tool_call` item sent back with the `status` its response carried is accepted; the "
            "input item's schema has no `status`"
        ),
        evidence=(
            "langchain-openai 1.8.1 tests/cassettes/test_codex_custom_tool.yaml.gz#1 (answered 200; not bundled: "
            "the scanner's generic rule fires on its encrypted reasoning; the item is the valid case "
            "openai-responses-custom-tool-call-status of tests/test_oracles.py)",
        ),
        still_needed=_NEEDED,
    ),
    Accepted(
        "responses-configuration-update-item",
        judges=("oracle",),
        provider="openai-responses",
        where="input[*].type",
        diff="spec-error",
        when=(error_says('"configuration_update" is not one of'),),
        kind="oracle-lag",
        why=(
            "a `configuration_update` input item (a change of reasoning effort between turns) is newer "
            "than the vendored spec and was accepted"
        ),
        evidence=(f"{_LC_OPENAI}/test_configuration_update_block.yaml.gz#2",),
        still_needed=_NEEDED,
    ),
    Accepted(
        "responses-mcp-items",
        judges=("oracle",),
        provider="openai-responses",
        where="input[*]",
        diff="spec-error",
        when=(
            type_on_path("mcp_approval_response|mcp_list_tools|mcp_call"),
            error_says('"request_id" is a required'),
        ),
        kind="oracle-lag",
        why=(
            "an `mcp_approval_response` item names the request it answers by `approval_request_id`, as the "
            "SDK's type does; the vendored spec's union also demands a `request_id` no client sends"
        ),
        evidence=(f"{_LC_OPENAI}/test_mcp_builtin.yaml.gz#1",),
        still_needed=_NEEDED,
    ),
    Accepted(
        "responses-mcp-list-tools-annotations",
        judges=("oracle",),
        provider="openai-responses",
        where="input[*].tools[*].annotations",
        diff="spec-error",
        when=(type_on_path("mcp_list_tools"), error_says("'read_only' was unexpected")),
        kind="oracle-lag",
        why=(
            "an `mcp_list_tools` item sent back with the tool annotations its server listed (`read_only`) "
            "is accepted; the vendored spec's annotations object is closed"
        ),
        evidence=(f"{_LC_OPENAI}/test_mcp_builtin_zdr.yaml.gz#1",),
        still_needed=_NEEDED,
    ),
    Accepted(
        "anthropic-structured-outputs-beta",
        judges=("oracle",),
        provider="anthropic",
        where="{$,output_format}",
        diff="spec-error",
        when=(error_says("'output_format' was unexpected"),),
        kind="oracle-lag",
        why=(
            "structured outputs (beta structured-outputs-2025-11-13) take a top-level `output_format` "
            "(`{type: json_schema, schema}`), newer than the vendored spec and the SDK's non-beta params"
        ),
        evidence=(
            "traffic/clients2/openllmetry/packages/opentelemetry-instrumentation-anthropic/tests/cassettes/"
            "test_structured_outputs/test_anthropic_structured_outputs_with_events_with_content.yaml#0",
            "https://docs.claude.com/en/docs/build-with-claude/structured-outputs",
        ),
        still_needed=_NEEDED,
    ),
    Accepted(
        "anthropic-structured-outputs-beta",
        judges=("oracle",),
        provider="anthropic",
        where="output_format",
        diff="sdk-error",
        when=(error_says("\\[extra_forbidden\\]"),),
        kind="oracle-lag",
        why=(
            "structured outputs (beta structured-outputs-2025-11-13) take a top-level `output_format` "
            "(`{type: json_schema, schema}`), newer than the vendored spec and the SDK's non-beta params"
        ),
        evidence=(
            "traffic/clients2/openllmetry/packages/opentelemetry-instrumentation-anthropic/tests/cassettes/"
            "test_structured_outputs/test_anthropic_structured_outputs_with_events_with_content.yaml#0",
        ),
        still_needed=_NEEDED,
    ),
    Accepted(
        "anthropic-mcp-toolset",
        judges=("oracle",),
        provider="anthropic",
        where="tools[*].type",
        diff="spec-error",
        when=(error_says('"mcp_toolset" is not one of'),),
        kind="oracle-lag",
        why=(
            "an `mcp_toolset` tool (MCP connector beta mcp-client-2025-11-20: the server's tools offered by "
            "`mcp_server_name`) is newer than the vendored spec"
        ),
        evidence=(f"{_LC_ANTHROPIC}/test_remote_mcp.yaml.gz#0",),
        still_needed=_NEEDED,
    ),
    Accepted(
        "chat-empty-content-array",
        judges=("oracle",),
        provider="openai-chat",
        where="messages[*].content",
        diff="spec-error",
        when=(error_says("has less than 1 item"), openai_host()),
        kind="oracle-lag",
        why=(
            "OpenAI's API answers 200 to a message whose content is an empty list (`content: []`, what a "
            "client leaves after dropping a turn's only thinking block); the spec's minItems 1 is not what "
            "the API enforces. Compatible servers refuse it (vLLM, xAI, Bedrock's Mantle), so this holds "
            "for api.openai.com only"
        ),
        evidence=(
            "https://github.com/openai/openai-python/issues/1812 (gpt-4o-mini, a system message with "
            "`content: []`: '200 but not 400'; 'other ArrayOfContent have this issue too')",
            "https://github.com/AstrBotDevs/AstrBot/pull/6551 (Grok: 'Each message must have at least one "
            "content element') and https://github.com/strands-agents/harness-sdk/pull/1562 (Bedrock Mantle) "
            "for the compatible servers that refuse it",
        ),
        still_needed=_NEEDED,
    ),
    Accepted(
        "anthropic-container-skills",
        judges=("oracle",),
        provider="anthropic",
        where="container",
        diff="spec-error",
        when=(error_says('is not of type "(null|string)"'),),
        kind="oracle-lag",
        why=(
            "`container` as an object (`{id?, skills: [...]}`, Agent Skills beta skills-2025-10-02) is newer "
            "than the vendored spec, which has a container id string only"
        ),
        evidence=(f"{_LC_ANTHROPIC}/test_skills.yaml.gz#0",),
        still_needed=_NEEDED,
    ),
)
