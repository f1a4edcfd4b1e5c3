"""import-check's own accepted differences (part of the registry): a recorded request against our
render of its import; two valid renderings of one canonical request.

Each entry's evidence is an accepted request showing each form (``cassette#index``) or the
provider's docs. A ``restructured`` entry accepts a whole node when the named rewrite of
``harness.importcheck.shapes`` turns the recorded value into ours (up to the other entries).
An entry with ``open`` set is a difference decided as our adapter's to fix
(docs/import-check-decisions.md): reported open, never allowed (none today).
"""

from __future__ import annotations

from harness.accepted.predicates import (
    is_null,
    one_text_part,
    renumbered,
    restructured,
    same_in_camel,
    same_part_in_camel,
    string_is_one_block,
    value_is,
    values_are,
)
from harness.contract.accepted import Accepted

__all__ = ["IMPORTCHECK"]

IMPORTCHECK: tuple[Accepted, ...] = (
    Accepted(
        "anthropic-tool-type-custom",
        judges=("import-check",),
        provider="anthropic",
        where="tools[*].type",
        diff="missing",
        when=(value_is("custom"),),
        kind="equivalent",
        why=(
            "`type: custom` names a client tool, as its absence does (anthropic ToolParam.type is "
            "Optional[Literal['custom']]); our adapter sends a client tool without it"
        ),
        evidence=(
            "type custom accepted beside a tool search tool and deferred tools: "
            "traffic/pydantic-ai/test_native_tool_search_vcr__test_anthropic_native_tool_search.yaml#0; "
            "absent accepted beside the same: "
            "traffic/pydantic-ai/models__test_anthropic__test_anthropic_lazy_advertisement_live.yaml#0",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "anthropic-stream-false",
        judges=("import-check",),
        provider="anthropic",
        where="stream",
        diff="missing",
        when=(value_is(False),),
        kind="equivalent",
        why="stream: false is the API default; our adapter sends stream only when streaming",
        evidence=(
            (
                "recorded stream: false accepted "
                "(traffic/pydantic-ai/models__anthropic__test_output__test_no_tools_no_output.yaml#0); "
                "stream absent accepted "
                "(traffic/pydantic-ai/test_native_tool_search_vcr__test_anthropic_native_tool_search.yaml#0)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "openai-chat-stream-false",
        judges=("import-check",),
        provider="openai-chat",
        where="stream",
        diff="missing",
        when=(value_is(False),),
        kind="equivalent",
        why="stream: false is the API default; our adapter sends stream only when streaming",
        evidence=(
            (
                "recorded stream: false accepted "
                "(traffic/pydantic-ai/models__test_multimodal_tool_returns__test_model_sees_multiple_images[openai_chat].yaml#0); "
                "stream absent accepted (Chat Completions API reference: stream defaults to false)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "openai-responses-stream-false",
        judges=("import-check",),
        provider="openai-responses",
        where="stream",
        diff="missing",
        when=(value_is(False),),
        kind="equivalent",
        why="stream: false is the API default; our adapter sends stream only when streaming",
        evidence=(
            (
                "recorded stream: false accepted "
                "(traffic/pydantic-ai/models__test_google__test_thinking_with_tool_calls_from_other_model.yaml#0); "
                "stream absent accepted "
                "(traffic/pydantic-ai/models__test_openai_responses__test_openai_previous_response_id.yaml#0)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "groq-stream-false",
        judges=("import-check",),
        provider="groq",
        where="stream",
        diff="missing",
        when=(value_is(False),),
        kind="equivalent",
        why="stream: false is the API default; our adapter sends stream only when streaming",
        evidence=(
            (
                "recorded stream: false accepted "
                "(traffic/pydantic-ai-more/models__test_groq__test_groq_model_instructions.yaml#0); stream "
                "absent accepted (Groq API reference (console.groq.com/docs/api-reference, chat create): "
                "stream defaults to false)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "anthropic-system-string",
        judges=("import-check",),
        provider="anthropic",
        where="system",
        diff="changed",
        when=(string_is_one_block("text"),),
        kind="equivalent",
        why=(
            "a string system is shorthand for one text block (system is string | TextBlockParam[]); ours "
            "sends the same text as [{type: text}]"
        ),
        evidence=(
            (
                "string form accepted: "
                "traffic/pydantic-ai/models__test_anthropic__test_anthropic_model_empty_message_on_history.yaml#0; "
                "block form accepted: "
                "traffic/pydantic-ai/models__test_anthropic__test_anthropic_compaction_usage_with_cache_streaming.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "anthropic-consecutive-user-turns-merged",
        judges=("import-check",),
        provider="anthropic",
        where="messages",
        diff="changed",
        when=(restructured("merge_anthropic_user_turns"),),
        kind="equivalent",
        why=(
            "consecutive user messages and one user message holding their blocks in order are one turn to "
            "the API (Messages API reference: consecutive user or assistant turns are combined into a "
            "single turn); our adapter merges them"
        ),
        evidence=(
            (
                "consecutive user messages accepted: "
                "traffic/pydantic-ai/models__test_anthropic_mid_conversation_system__test_two_mid_conversation_system_prompts_keep_their_order.yaml#0; "
                "several blocks in one user turn accepted: "
                "cassettes/anthropic/llmanthropic__haiku35_parallel_tool_use_roundtrip.yaml#1"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "anthropic-results-after-their-calls",
        judges=("import-check",),
        provider="anthropic",
        where="messages",
        diff="changed",
        when=(restructured("anthropic_results_after_calls"),),
        kind="equivalent",
        why=(
            "consecutive assistant messages are one turn to the API, so results after the second answer "
            "calls of both; ours sends each result right after the message of its call (prepare's "
            "tool-result-after-text rule), which the API takes as well"
        ),
        evidence=(
            (
                "two assistant messages then both results accepted: "
                "traffic/pydantic-ai/test_tool_search__test_cross_provider_capability_replay"
                "[anthropic-claude-sonnet-4-5-openai-responses-gpt-5.4].yaml#1; each result after its "
                "call accepted: traffic/pydantic-ai/test_tool_search__test_live_tool_search_handoff_openai_to_anthropic.yaml#2"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "anthropic-reused-tool-id-renumbered",
        judges=("import-check",),
        provider="anthropic",
        where="messages[*].content[*].{id,tool_use_id}",
        diff="changed",
        when=(renumbered(),),
        kind="equivalent",
        why=(
            "a tool_use id reused by a later turn, after the first call was answered, is accepted; ours "
            "renumbers the later one (tool-id-renumbered) in call and result, ids being the client's"
        ),
        evidence=(
            (
                "a reused id accepted: traffic/pydantic-ai/test_tool_search__test_cross_provider_capability_replay"
                "[google-gemini-3-flash-preview-anthropic-claude-sonnet-4-5].yaml#3; unique ids are the "
                "documented form (Messages API reference: tool_use.id)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "anthropic-inline-system-hoisted",
        judges=("import-check",),
        provider="anthropic",
        where="$",
        diff="changed",
        when=(restructured("hoist_anthropic_system_messages"),),
        kind="policy",
        why=(
            "a system message inside messages (accepted in place by some models) and the same text hoisted "
            "into the top-level system prompt (accepted by every model) are two valid renderings. We hoist "
            "on purpose (docs/import-check-decisions.md#inline-system): one system prompt renders the same "
            "for every provider and model, where the in-place form is model by model (claude-sonnet-4-6 "
            "folds it into the user turn instead). Cost: the instruction applies from the start, and the "
            "cached prefix changes when it is added"
        ),
        evidence=(
            (
                "in place accepted: "
                "traffic/pydantic-ai/models__test_anthropic_mid_conversation_system__test_mid_conversation_system_prompt_kept_mid_history.yaml#0 "
                "(claude-opus-4-8); a tool-availability instruction in the top-level system text blocks "
                "accepted: "
                "traffic/pydantic-ai/models__test_anthropic__test_anthropic_lazy_advertisement_live.yaml#0 "
                "(claude-opus-4-8; Messages API: system is string | TextBlockParam[])"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "chat-inline-system-hoisted",
        judges=("import-check",),
        provider="openai-chat",
        where="messages",
        diff="changed",
        when=(restructured("hoist_chat_system_messages"),),
        kind="policy",
        why=(
            "a system message after another role (accepted in place) and its text joined into the leading "
            "system message (accepted) are two valid renderings. We hoist on purpose "
            "(docs/import-check-decisions.md#inline-system): one system prompt, first, renders the same "
            "for every provider and model. Cost: the instruction applies from the start, and the cached "
            "prefix changes when it is added"
        ),
        evidence=(
            (
                "system after user accepted: "
                "traffic/pydantic-ai/test_tool_availability_portability__test_tool_availability_portability_matrix[R4-T6-announcement].yaml#0 "
                "(gpt-5); a leading system message before the conversation accepted: "
                "traffic/pydantic-ai/models__test_openai__test_openai_instructions_with_tool_calls_keep_instructions.yaml#0 "
                "(gpt-4.1-mini)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "openrouter-tool-choice-auto",
        judges=("import-check",),
        provider="openrouter",
        where="tool_choice",
        diff="missing",
        when=(value_is("auto"),),
        kind="equivalent",
        why=(
            "tool_choice 'auto' is the default when tools are given (OpenRouter follows the Chat "
            "Completions schema); we send none for tool_choice None"
        ),
        evidence=(
            (
                "recorded auto accepted: "
                "traffic/pydantic-ai/models__test_openrouter__test_openrouter_tool_calling.yaml#0; absent "
                "with tools accepted: "
                "cassettes/openrouter/llmopenrouter__gpt41mini_chat_tool_calls_roundtrip.yaml#1"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "openrouter-empty-tool-description",
        judges=("import-check",),
        provider="openrouter",
        where="tools[*].function.description",
        diff="missing",
        when=(value_is(""),),
        kind="equivalent",
        why="an empty description is the same as none; our adapter omits empty descriptions",
        evidence=(
            (
                "empty description accepted: "
                "traffic/pydantic-ai/models__test_openrouter__test_openrouter_tool_optional_parameters.yaml#0; "
                "description is optional in the Chat Completions FunctionObject"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "openrouter-reasoning-enabled",
        judges=("import-check",),
        provider="openrouter",
        where="reasoning.enabled",
        diff="missing",
        when=(value_is(True),),
        kind="equivalent",
        why=(
            "reasoning.enabled: true is implied by reasoning.effort / max_tokens (OpenRouter reasoning "
            "docs); ours sends the effort alone"
        ),
        evidence=(
            (
                "enabled + effort accepted: "
                "traffic/pydantic-ai/models__test_openrouter__test_openrouter_thinking_true_emits_effort_medium.yaml#0; "
                "OpenRouter reasoning-tokens docs (effort alone enables)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "openrouter-leading-system-joined",
        judges=("import-check",),
        provider="openrouter",
        where="messages",
        diff="changed",
        when=(restructured("join_leading_system"),),
        kind="equivalent",
        why=(
            "a leading run of system messages and one system message holding their texts joined by a blank "
            "line carry the same instructions; our adapter sends one system message (openai_chat "
            "system_message). The recorded split only matters for per-message cache_control, which the "
            "importer names as unrepresentable"
        ),
        evidence=(
            (
                "two leading system messages accepted: "
                "traffic/pydantic-ai/models__openrouter__test_cache__test_openrouter_cache_instructions_gemini_skips_dynamic_e2e.yaml#0; "
                "one system message accepted: "
                "traffic/pydantic-ai/models__openrouter__test_cache__test_openrouter_cache_instructions_dynamic_only_e2e.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "chat-n-one",
        judges=("import-check",),
        provider="openai-chat",
        where="n",
        diff="missing",
        when=(value_is(1),),
        kind="equivalent",
        why="n: 1 (one choice) is the API default; CallParams has no n and our adapter never sends it",
        evidence=(
            (
                "n: 1 accepted: traffic/pydantic-ai/models__test_openai__test_extra_headers.yaml#0; absent "
                "accepted: cassettes/openai-chat/pai__gpt4omini_tool_call_roundtrip.yaml#0; Chat "
                "Completions API reference: n defaults to 1"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "responses-include-encrypted",
        judges=("import-check",),
        provider="openai-responses",
        where="include",
        diff="extra",
        when=(value_is(["reasoning.encrypted_content"]),),
        kind="policy",
        why=(
            "with store: false (responses-store-false) our adapter asks for reasoning.encrypted_content so "
            "reasoning can be replayed statelessly; it changes what comes back, not what the request says"
        ),
        evidence=(
            (
                "include absent accepted: "
                "traffic/pydantic-ai/models__test_anthropic__test_anthropic_server_tool_pass_history_to_another_provider.yaml#1; "
                "include encrypted accepted: "
                "cassettes/openai-responses/pai__gpt55_reasoning_function_call_phase_roundtrip.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "responses-empty-instructions",
        judges=("import-check",),
        provider="openai-responses",
        where="instructions",
        diff="missing",
        when=(value_is(""),),
        kind="equivalent",
        why="empty instructions are the same as none; our adapter omits them",
        evidence=(
            (
                "empty accepted: "
                "traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_image_url_input.yaml#0; "
                "absent accepted: "
                "traffic/pydantic-ai/models__test_anthropic__test_anthropic_model_thinking_part_from_other_model.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "responses-null-controls",
        judges=("import-check",),
        provider="openai-responses",
        where="{previous_response_id,top_p,service_tier,prompt_cache_key,reasoning.summary}",
        diff="missing",
        when=(is_null(),),
        kind="equivalent",
        why="a null control is its default (ResponseCreateParams: Optional); our adapter sends a control only when set",
        evidence=(
            (
                "null accepted: "
                "traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_streaming_usage.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "responses-null-item-status",
        judges=("import-check",),
        provider="openai-responses",
        where="input[*].status",
        diff="missing",
        when=(is_null(),),
        kind="equivalent",
        why="status: null on a replayed item is the same as none",
        evidence=(
            (
                "null accepted: "
                "traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_requires_function_call_status_none.yaml#1; "
                "status is optional on input items (Responses API reference)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "responses-text-format-text",
        judges=("import-check",),
        provider="openai-responses",
        where="text",
        diff="missing",
        when=(value_is({"format": {"type": "text"}}),),
        kind="equivalent",
        why=(
            "text: {format: {type: text}} is the API default (plain text output); CallParams has no output "
            "format and our adapter never sends text"
        ),
        evidence=(
            (
                "recorded default accepted: "
                "traffic/pydantic-ai/models__test_openai_responses__test_openai_previous_response_id.yaml#0; "
                "absent accepted: "
                "cassettes/openai-responses/pai__gpt55_reasoning_function_call_phase_roundtrip.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "chat-user-content-one-text-part",
        judges=("import-check",),
        provider="openai-chat",
        where="messages[*].content",
        diff="changed",
        when=(one_text_part(),),
        kind="equivalent",
        why=(
            "string content is shorthand for one text part (content is string | ContentPart[]); our "
            "adapter sends a lone text as the string"
        ),
        evidence=(
            (
                "one text part accepted: "
                "traffic/pydantic-ai/models__test_openai__test_image_url_tool_response.yaml#0; string "
                "accepted: cassettes/openai-chat/pai__gpt4omini_tool_call_roundtrip.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "responses-empty-tool-description",
        judges=("import-check",),
        provider="openai-responses",
        where="tools[*].description",
        diff="missing",
        when=(value_is(""),),
        kind="equivalent",
        why="an empty description is the same as none; our adapter omits empty descriptions",
        evidence=(
            (
                "empty description accepted: "
                "traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_stream.yaml#0; "
                "description is optional on FunctionTool (Responses API reference)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "responses-empty-assistant-message",
        judges=("import-check",),
        provider="openai-responses",
        where="input",
        diff="changed",
        when=(restructured("drop_empty_assistant_items"),),
        kind="equivalent",
        why=(
            'an assistant message item with content "" says nothing; our adapter leaves empty text out '
            "(with a warning), so the turn is its function_call items alone"
        ),
        evidence=(
            (
                "empty assistant message accepted: "
                "traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_model_retry.yaml#1; "
                "function_call items with no message before them accepted: "
                "traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_model_simple_response_with_tool_call.yaml#1"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "responses-leading-system-as-instructions",
        judges=("import-check",),
        provider="openai-responses",
        where="$",
        diff="changed",
        when=(restructured("leading_system_to_instructions"),),
        kind="equivalent",
        why=(
            "leading system (or developer) input messages and instructions holding their texts joined by a "
            "blank line put the same text first in the model's context (Responses API reference: "
            "instructions is a system or developer message inserted into the context); our adapter sends "
            "the system prompt as instructions"
        ),
        evidence=(
            (
                "a leading system input message accepted: "
                "traffic/pydantic-ai/models__test_openai_responses__test_prompted_output.yaml#0; "
                "instructions accepted: "
                "traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_runs_with_instructions_only.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "gemini-consecutive-user-turns-merged",
        judges=("import-check",),
        provider="gemini",
        where="contents",
        diff="changed",
        when=(restructured("merge_gemini_user_turns"),),
        kind="equivalent",
        why=(
            "consecutive user contents and one user content holding their parts in order are one turn; "
            "our adapter merges turns of one role"
        ),
        evidence=(
            (
                "consecutive user contents accepted: "
                "traffic/pydantic-ai/test_tool_availability_portability__test_tool_availability_portability_matrix[R5-T5-local-search].yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "gemini-results-after-their-calls",
        judges=("import-check",),
        provider="gemini",
        where="contents",
        diff="changed",
        when=(restructured("gemini_results_after_calls"),),
        kind="equivalent",
        why=(
            "consecutive model contents are one turn to the API, so one user content after the second "
            "answers the calls of both; ours sends each response right after the content of its call "
            "(prepare's tool-result-after-text rule), which the API takes as well"
        ),
        evidence=(
            (
                "two model contents then both responses accepted: "
                "traffic/pydantic-ai/test_tool_search__test_cross_provider_capability_replay"
                "[google-gemini-3-flash-preview-openai-responses-gpt-5.4].yaml#1; each response after its "
                "call accepted: the same file's #2 (contents[4] and [5])"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "gemini-parameters-schema-form",
        judges=("import-check",),
        provider="gemini",
        where="tools[*].functionDeclarations[*]",
        diff="changed",
        when=(restructured("gemini_parameters_as_json_schema"),),
        kind="equivalent",
        why=(
            "a function's parameters as Gemini's own Schema (`parameters`: OpenAPI subset, type "
            "`OBJECT`, `nullable`, `propertyOrdering`) and as the JSON Schema it equals "
            "(`parametersJsonSchema`, which the FunctionDeclaration reference makes the alternative: "
            "'mutually exclusive with parameters'); the importer reads the first as the second "
            "(harness/importer/gemini_schema.py) and ours sends the second"
        ),
        evidence=(
            (
                "Schema form accepted: traffic/clients2/openinference/python/instrumentation/"
                "openinference-instrumentation-google-adk/tests/cassettes/test_instrumentor/"
                "test_google_adk_instrumentor_multi_agent.yaml#0; JSON Schema form accepted: every Gemini "
                "request with tools in cassettes/gemini"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "gemini-response-schema-form",
        judges=("import-check",),
        provider="gemini",
        where="generationConfig",
        diff="changed",
        when=(restructured("gemini_response_schema_as_json_schema"),),
        kind="equivalent",
        why=(
            "structured output's schema as Gemini's own Schema (`responseSchema`) and as the JSON "
            "Schema it equals (`responseJsonSchema`, GenerationConfig's alternative to it); the importer "
            "reads the first as the second and ours sends the second"
        ),
        evidence=(
            (
                "Schema form accepted: traffic/pydantic-ai/models__test_google__test_google_native_output_multiple.yaml#0; "
                "JSON Schema form accepted: traffic/pydantic-ai/models__test_google__test_google_native_output.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "gemini-empty-user-text-placeholder",
        judges=("import-check",),
        provider="gemini",
        where="contents[0].parts[0].text",
        diff="changed",
        when=(values_are("", "(conversation start)"),),
        kind="policy",
        why=(
            "a conversation that opens with an empty user text: our adapter drops the empty text and "
            "opens with a placeholder user turn (Gemini requires a user turn first, empty parts are "
            "refused elsewhere); the recorded empty text was accepted too"
        ),
        evidence=(
            (
                "empty text accepted: "
                "traffic/pydantic-ai/models__test_google__test_google_instructions_only_with_tool_calls.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "gemini-empty-generation-config",
        judges=("import-check",),
        provider="gemini",
        where="generationConfig",
        diff="missing",
        when=(value_is({}),),
        kind="equivalent",
        why="an empty generationConfig is the same as none; our adapter omits it",
        evidence=(
            (
                "empty accepted: "
                "traffic/pydantic-ai/models__test_google__test_google_model_instructions.yaml#0; "
                "generationConfig is optional (GenerateContentRequest reference)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "gemini-system-instruction-role",
        judges=("import-check",),
        provider="gemini",
        where="systemInstruction.role",
        diff="missing",
        when=(value_is("user"),),
        kind="equivalent",
        why=(
            "the recording client labels systemInstruction with role 'user'; the role of a system "
            "instruction is not used (ours sends parts only, and our rendered requests are accepted "
            "without it)"
        ),
        evidence=(
            (
                "role user accepted: traffic/pydantic-ai/models__test_google__test_google_model.yaml#0; "
                "Content.role is optional (Gemini API reference, Content)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "gemini-function-calling-auto",
        judges=("import-check",),
        provider="gemini",
        where="toolConfig.functionCallingConfig",
        diff="missing",
        when=(value_is({"mode": "AUTO"}),),
        kind="equivalent",
        why=(
            "functionCallingConfig mode AUTO is the API default; ours leaves it out (and toolConfig "
            "with it when nothing else is in it, such as includeServerSideToolInvocations)"
        ),
        evidence=(
            (
                "AUTO accepted: "
                "traffic/pydantic-ai/models__google__test_output__test_google_validated_accepts_what_auto_accepts[auto].yaml#0; "
                "absent with tools accepted: cassettes/gemini/pai__gemini25pro_thought_parts.yaml#0; "
                "FunctionCallingConfig reference: AUTO is the default behaviour; "
                "AUTO beside includeServerSideToolInvocations accepted: "
                "traffic/pydantic-ai/test_thinking_native_tools__test_thinking_with_native_tool_wire_contract[google].yaml#0; "
                "absent accepted: traffic/pydantic-ai/models__google__test_structured_output__test_native_output_with_builtin_tools.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "gemini-unsigned-thought-omitted",
        judges=("import-check",),
        provider="gemini",
        where="contents[*].parts",
        diff="changed",
        when=(restructured("drop_unsigned_thoughts"),),
        kind="policy",
        why=(
            "a thought: true part without a thoughtSignature is an output-only summary: our adapter leaves "
            "unsigned thinking out (docs/mapping-decisions.md, thinking rule) and keeps every signature on "
            "the part that carried it; pydantic-ai replays the summary"
        ),
        evidence=(
            (
                "unsigned thought replayed and accepted: "
                "traffic/pydantic-ai/models__test_google__test_google_model_thinking_part.yaml#1; a signed "
                "answer part with no thought part accepted: "
                "traffic/pydantic-ai/models__test_google__test_google_model_file_search_grounding_gemini_3[False].yaml#4"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "gemini-snake-case-thinking-config",
        judges=("import-check",),
        provider="gemini",
        where="generationConfig.thinkingConfig",
        diff="changed",
        when=(same_in_camel(),),
        kind="equivalent",
        why=(
            "the recording client (google-genai) spelled proto fields snake_case; Gemini's JSON accepts "
            "snake_case and lowerCamel alike and ours sends lowerCamel; accepted only when the object is "
            "otherwise identical"
        ),
        evidence=(
            (
                "snake_case include_thoughts accepted: "
                "traffic/pydantic-ai/models__test_google__test_google_model_thinking_part.yaml#0; "
                "lowerCamel thinkingConfig accepted: "
                "cassettes/gemini/pai__gemini25pro_thought_parts.yaml#0; the proto3 JSON mapping accepts "
                "both spellings"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "gemini-snake-case-media-part",
        judges=("import-check",),
        provider="gemini",
        where="contents[*].parts[*]",
        diff="changed",
        when=(same_part_in_camel(),),
        kind="equivalent",
        why=(
            "the recording client (google-genai) spelled a media part's proto fields snake_case "
            "(inline_data, file_data, file_uri, mime_type); Gemini's JSON accepts snake_case and lowerCamel "
            "alike and ours sends lowerCamel; accepted only when the part is otherwise identical"
        ),
        evidence=(
            (
                "snake_case file_data inside functionResponse.parts accepted: "
                "traffic/pydantic-ai/models__test_multimodal_tool_returns__test_multimodal_tool_return_matrix"
                "[direct-uploaded_file-document-google_gemini3].yaml#2; lowerCamel fileData accepted: "
                "traffic/pydantic-ai/models__test_google__test_google_model_youtube_video_url_input.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "gemini-snake-case-function-response-part",
        judges=("import-check",),
        provider="gemini",
        where="contents[*].parts[*].functionResponse.parts[*]",
        diff="changed",
        when=(same_in_camel(),),
        kind="equivalent",
        why=(
            "the recording client (google-genai) spelled a FunctionResponsePart's proto fields snake_case "
            "(inline_data, mime_type); Gemini's JSON accepts snake_case and lowerCamel alike and ours sends "
            "lowerCamel; accepted only when the part is otherwise identical"
        ),
        evidence=(
            (
                "snake_case inline_data inside functionResponse.parts accepted: "
                "traffic/pydantic-ai/models__test_multimodal_tool_returns__test_mixed_content_ordering"
                "[google_gemini3].yaml#1"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "bedrock-video-format-media-type",
        judges=("import-check",),
        provider="bedrock",
        where="messages[*].content[*].video.format",
        diff="changed",
        when=(values_are("video/mp4", "mp4"),),
        kind="equivalent",
        why=(
            "the recording client sent the media type where VideoFormat's enum value belongs and Bedrock "
            "accepted it; ours sends the documented enum value (mkv, mov, mp4, webm, flv, mpeg, mpg, wmv, "
            "three_gp) for the same video"
        ),
        evidence=(
            (
                "format 'video/mp4' accepted: traffic/pydantic-ai-more/models__test_bedrock__test_video_url_input"
                ".yaml#1; format 'mp4' accepted: traffic/pydantic-ai-more/models__test_multimodal_tool_returns__"
                "test_multimodal_tool_return_matrix[tool_return_content-uploaded_file-video-bedrock_nova].yaml#1"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
)
