"""import-check's accepted differences for Bedrock and the OpenAI-compatible dialects (part of the registry).

See ``harness.accepted.importcheck``.
"""

from __future__ import annotations

from harness.accepted.predicates import is_null, one_text_part, restructured, role_is, value_is
from harness.contract.accepted import Accepted

__all__ = ["IMPORTCHECK_DIALECTS"]

IMPORTCHECK_DIALECTS: tuple[Accepted, ...] = (
    Accepted(
        "bedrock-blank-text-beside-content-dropped",
        judges=("import-check",),
        provider="bedrock",
        where="messages[*].content",
        diff="changed",
        when=(restructured("drop_blank_converse_texts"),),
        kind="policy",
        why=(
            "a whitespace-only text block beside other content carries nothing; our adapter drops it "
            "(a cache point after it then ends the cache after the block before it)"
        ),
        evidence=(
            (
                "blank text accepted: traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_cache_write_and_read.yaml#0; "
                "content without it accepted: cassettes/bedrock/models__test_bedrock__test_bedrock_model_iter_stream.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "mistral-assistant-one-text-part",
        judges=("import-check",),
        provider="mistral",
        where="messages[*].content",
        diff="changed",
        when=(one_text_part(),),
        kind="equivalent",
        why="one text chunk and the same text as a string are one assistant content (mistralai AssistantMessage.content: str | chunks)",
        evidence=(
            "recorded accepted: traffic/pydantic-ai-more/models__test_mistral__test_mistral_history_uses_prompt_cache.yaml#1; our form accepted: cassettes/mistral/models__test_tool_choice_matrix__test_tool_choice_matrix[required-mistral].yaml#0",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "mistral-tool-call-index-default",
        judges=("import-check",),
        provider="mistral",
        where="messages[*].tool_calls[*].index",
        diff="missing",
        when=(value_is(0),),
        kind="equivalent",
        why=(
            "a history tool call's index 0 is mistralai's default (ToolCall.index: Optional[int] = 0, "
            "which the SDK serialises, so every call it replays carries it); it orders stream deltas and "
            "says nothing about the call; ours sends none"
        ),
        evidence=(
            "recorded accepted: traffic/pydantic-ai-more/models__test_multimodal_tool_returns__test_mixed_content_ordering[mistral].yaml#1; "
            "our form accepted: cassettes/mistral/models__test_tool_choice_matrix__test_tool_choice_matrix[required-mistral].yaml#0",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "mistral-empty-tool-calls",
        judges=("import-check",),
        provider="mistral",
        where="messages[*].tool_calls",
        diff="missing",
        when=(value_is([]),),
        kind="equivalent",
        why="an empty tool_calls list calls nothing; our adapter sends tool_calls only when there are calls",
        evidence=(
            "recorded accepted: traffic/pydantic-ai-more/models__test_mistral__test_mistral_history_uses_prompt_cache.yaml#1; our form accepted: cassettes/mistral/models__test_tool_choice_matrix__test_tool_choice_matrix[required-mistral].yaml#0",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "mistral-empty-assistant-content",
        judges=("import-check",),
        provider="mistral",
        where="messages[*].content",
        diff="missing",
        when=(role_is("assistant"), value_is([])),
        kind="equivalent",
        why=(
            "an assistant turn's empty content list beside its tool calls says nothing; our adapter "
            "sends content only when there is text"
        ),
        evidence=(
            "recorded accepted: traffic/pydantic-ai-more/models__test_multimodal_tool_returns__test_mixed_content_ordering[mistral].yaml#1; "
            "our form (tool calls, no content): the mistralai SDK's AssistantMessage, whose content is optional (no recording of ours yet)",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "mistral-tool-message-name",
        judges=("import-check",),
        provider="mistral",
        where="messages[*].name",
        diff="extra",
        when=(role_is("tool"),),
        kind="policy",
        why=(
            "ours names the tool on its result message, as Mistral's function-calling guide does "
            "(mistralai ToolMessage.name); the recorded client leaves it out, which the API accepts"
        ),
        evidence=(
            "recorded accepted without it: traffic/pydantic-ai-more/models__test_multimodal_tool_returns__test_mixed_content_ordering[mistral].yaml#1; "
            "with it: Mistral's function-calling guide and the mistralai SDK's ToolMessage (no recording of ours yet)",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "mistral-prefix-false",
        judges=("import-check",),
        provider="mistral",
        where="messages[*].prefix",
        diff="missing",
        when=(value_is(False),),
        kind="equivalent",
        why=(
            "prefix: false on an assistant turn is the default (mistralai AssistantMessage.prefix: "
            "'Set this to true when adding an assistant message as prefix to condition the model "
            "response'); our adapter sends none"
        ),
        evidence=(
            (
                "prefix false accepted: traffic/pydantic-ai-more/models__test_mistral__test_mistral_history_uses_prompt_cache.yaml#0; "
                "absent accepted: cassettes/mistral/models__test_tool_choice_matrix__test_tool_choice_matrix[required-mistral].yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "bedrock-consecutive-user-turns-merged",
        judges=("import-check",),
        provider="bedrock",
        where="messages",
        diff="changed",
        when=(restructured("merge_bedrock_user_turns"),),
        kind="equivalent",
        why=(
            "consecutive user messages and one user message holding their blocks in order are one turn; "
            "our adapter merges them (Converse requires alternation for most models)"
        ),
        evidence=(
            (
                "consecutive user messages accepted: traffic/clients2/openllmetry/packages/"
                "opentelemetry-instrumentation-bedrock/tests/traces/cassettes/test_guardrails/"
                "test_guardrail_converse.yaml#0 (with a guardrailConfig)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "mistral-n-one",
        judges=("import-check",),
        provider="mistral",
        where="n",
        diff="missing",
        when=(value_is(1),),
        kind="equivalent",
        why="n: 1 (one choice) is the default; our adapter never asks for more than one",
        evidence=(
            "n: 1 accepted: traffic/pydantic-ai-more/models__test_multimodal_tool_returns__test_mixed_content_ordering[mistral].yaml#0; n absent accepted: cassettes/mistral/cassettes__test_thinking_wire_contract__test_reasoning_wire_contract[mistral-magistral-always-on-no-effort].yaml#0 (mistralai ChatCompletionStreamRequest.n is optional)",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "mistral-stream-false",
        judges=("import-check",),
        provider="mistral",
        where="stream",
        diff="missing",
        when=(value_is(False),),
        kind="equivalent",
        why="stream: false is the API default; our adapter sends stream only when streaming",
        evidence=(
            "stream: false accepted: traffic/pydantic-ai-more/models__test_multimodal_tool_returns__test_mixed_content_ordering[mistral].yaml#0; stream is optional (mistralai ChatCompletionRequest.stream defaults to false)",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "mistral-tool-choice-auto",
        judges=("import-check",),
        provider="mistral",
        where="tool_choice",
        diff="missing",
        when=(value_is("auto"),),
        kind="equivalent",
        why="tool_choice auto is the default when tools are given; we send none for tool_choice None",
        evidence=(
            "auto accepted: traffic/pydantic-ai-more/models__test_multimodal_tool_returns__test_mixed_content_ordering[mistral].yaml#0; absent accepted: cassettes/mistral/models__test_tool_choice_matrix__test_tool_choice_matrix[required-mistral].yaml#0 has a choice, mistralai's ChatCompletionRequest.tool_choice defaults to auto",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "mistral-empty-tool-description",
        judges=("import-check",),
        provider="mistral",
        where="tools[*].function.description",
        diff="missing",
        when=(value_is(""),),
        kind="equivalent",
        why="an empty description is the same as none; our adapter omits empty descriptions",
        evidence=(
            "empty accepted: traffic/pydantic-ai-more/models__test_multimodal_tool_returns__test_mixed_content_ordering[mistral].yaml#0; mistralai Function.description is optional",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "mistral-tool-type-function",
        judges=("import-check",),
        provider="mistral",
        where="tools[*].type",
        diff="extra",
        when=(value_is("function"),),
        kind="equivalent",
        why="a tool's type defaults to function (mistralai Tool.type); we send it, the recording's client did not",
        evidence=(
            "type absent accepted: traffic/pydantic-ai-more/models__test_multimodal_tool_returns__test_mixed_content_ordering[mistral].yaml#0; type function accepted: cassettes/mistral/cassettes__test_thinking_wire_contract__test_reasoning_wire_contract[mistral-magistral-always-on-no-effort].yaml#0",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "mistral-null-controls",
        judges=("import-check",),
        provider="mistral",
        where="{stop,presence_penalty,frequency_penalty,top_p,random_seed}",
        diff="missing",
        when=(is_null(),),
        kind="equivalent",
        why="a null sampling control is its default (mistralai: Nullable, unset); our adapter sends a control only when set",
        evidence=(
            "null accepted: traffic/pydantic-ai-more/models__test_mistral__test_mistral_history_uses_prompt_cache.yaml#0",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "bedrock-tool-choice-auto",
        judges=("import-check",),
        provider="bedrock",
        where="toolConfig.toolChoice",
        diff="missing",
        when=(value_is({"auto": {}}),),
        kind="equivalent",
        why="toolChoice {auto: {}} is the Converse default when tools are given; we send none for auto",
        evidence=(
            (
                "traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_model_retry.yaml#0 (sent); "
                "traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_model_iter_stream.yaml#0 "
                "(absent)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "bedrock-empty-system",
        judges=("import-check",),
        provider="bedrock",
        where="system",
        diff="missing",
        when=(value_is([]),),
        kind="equivalent",
        why="an empty system list says nothing; we omit system when there is no system text",
        evidence=(
            (
                "traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_model_thinking_part_anthropic.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "bedrock-empty-inference-config",
        judges=("import-check",),
        provider="bedrock",
        where="inferenceConfig",
        diff="missing",
        when=(value_is({}),),
        kind="equivalent",
        why="an empty inferenceConfig sets nothing; we omit it when no setting is given",
        evidence=(
            (
                "traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_model_thinking_part_anthropic.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "cerebras-tool-choice-auto",
        judges=("import-check",),
        provider="cerebras",
        where="tool_choice",
        diff="missing",
        when=(value_is("auto"),),
        kind="equivalent",
        why=(
            "tool_choice 'auto' is the default when tools are given (the dialect follows the Chat "
            "Completions schema); we send none for tool_choice None"
        ),
        evidence=(
            (
                "recorded auto accepted: "
                "traffic/pydantic-ai-more/models__test_openai__test_openai_model_cerebras_provider_qwen_3_coder.yaml#0; "
                "Cerebras API reference (inference-docs.cerebras.ai): tool_choice defaults to auto when "
                "tools are present"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
    Accepted(
        "zai-thinking-type-enabled",
        judges=("import-check",),
        provider="zai",
        where="thinking.type",
        diff="extra",
        when=(value_is("enabled"),),
        kind="equivalent",
        why=(
            "a thinking object without type is thinking enabled, the default of GLM-4.7 and the GLM-5 "
            "series (the models of every recorded zai request; GLM-4.6's default is hybrid); the importer "
            "reads it as thinking on and our adapter always states the type: the same request"
        ),
        evidence=(
            (
                "type absent accepted: "
                "traffic/pydantic-ai-more/models__test_zai__test_zai_model_simple.yaml#0 (glm-4.7); type "
                "enabled accepted: "
                "traffic/pydantic-ai-more/models__test_zai__test_zai_thinking_stream.yaml#0 (glm-4.7); "
                "docs.z.ai/guides/capabilities/thinking-mode: thinking is activated by default in GLM-5.1, "
                "GLM-5 and GLM-4.7"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_import_check_entry_is_needed",
    ),
)
