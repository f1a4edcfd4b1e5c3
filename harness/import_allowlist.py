"""import-check's allowlist: the accepted differences between a recorded request and our render, and the open ones.

Every entry carries five facts: ``id``, ``provider``, where (a JSON path glob and the
difference kind), why (``reason``) and ``evidence`` (an accepted recorded request showing
each form, as ``cassette#index``, or the provider's docs). ``ALLOWLIST`` entries are two
valid renderings of one canonical request; ``PENDING`` entries are differences decided as
our adapter's to fix (docs/import-check-decisions.md), reported as open, never allowed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, cast

from harness import import_shapes as shapes
from harness.closed_loop import ALLOWLIST as LOOP_ALLOWLIST
from harness.closed_loop import Accepts, Allowance, Kind, LoopContext

__all__ = ["ALLOWLIST", "DECISIONS", "PENDING", "PENDING_BY_ID", "ImportAllowance", "Pending", "evidence_of"]

#: Closed-loop allowances that hold for a single request too (defaults, shorthands, recorder
#: spellings); the loop's evidence is its own test suite (tests/test_closed_loop.py).
_FROM_LOOP = {
    "anthropic-tool-choice-auto",
    "anthropic-empty-tool-description",
    "anthropic-is-error-false",
    "anthropic-tool-result-string-content",
    "chat-tool-choice-auto",
    "chat-empty-tool-description",
    "chat-assistant-null-content",
    "responses-tool-choice-auto",
    "responses-null-tool-description",
    "responses-store-false",
    "responses-message-type",
    "responses-user-content-string",
    "responses-output-text-logprobs",
    "gemini-response-modalities-text",
    "gemini-snake-case-field",
    "gemini-signature-base64url",
    "gemini-function-response-key",
    "openrouter-stream-options",
    "openrouter-stream-false",
}


DECISIONS = "docs/import-check-decisions.md"


@dataclass(frozen=True)
class ImportAllowance(Allowance):
    """An allowance with its evidence: an accepted request showing each form (cassette#index) or docs.

    The five facts of an entry: ``id``, ``provider``, where (``path`` and ``kind``), why
    (``reason``) and ``evidence``. A structural entry also keeps its ``rewrite`` of the
    recorded node and the ``wrap`` that puts a node back at its place, so import-check can
    look inside a node it accepted for differences that are open rather than allowed.
    """

    evidence: str = ""
    rewrite: shapes.Rewrite | None = None
    wrap: shapes.Wrap | None = None


@dataclass(frozen=True)
class Pending(ImportAllowance):
    """A difference decided as *our adapter is wrong*: reported as open until the adapter changes.

    ``decision`` is the anchor of its decision in docs/import-check-decisions.md (rule,
    evidence, the intended adapter change and its golden impact). Never counted as allowed.
    """

    decision: str = ""

    @property
    def see(self) -> str:
        return f"{DECISIONS}#{self.decision}"


def _everything() -> tuple[Allowance, ...]:
    return (*ALLOWLIST, *PENDING)


def _rewritten(rewrite: shapes.Rewrite, wrap: shapes.Wrap) -> dict[str, Any]:
    """The ``accepts``, ``rewrite`` and ``wrap`` of a structural entry (see ``shapes.restructured``)."""
    return {"accepts": shapes.restructured(rewrite, wrap, _everything), "rewrite": rewrite, "wrap": wrap}


def _is(expected: Any) -> Accepts:
    """The one-sided value must be exactly ``expected`` (a default the other side left implicit)."""

    def accepts(recorded: Any, ours: Any, ctx: LoopContext) -> bool:
        value = recorded if recorded is not None else ours
        return type(value) is type(expected) and value == expected

    return accepts


def _is_null(recorded: Any, ours: Any, ctx: LoopContext) -> bool:
    return recorded is None and ours is None


def _camel_deep(value: Any) -> Any:
    if isinstance(value, dict):
        items = cast(dict[str, Any], value).items()
        return {re.sub(r"_([a-z])", lambda m: m.group(1).upper(), k): _camel_deep(v) for k, v in items}
    if isinstance(value, list):
        return [_camel_deep(v) for v in cast(list[Any], value)]
    return value


def _same_in_camel(recorded: Any, ours: Any, ctx: LoopContext) -> bool:
    """The same object once every snake_case key of the recorded one is spelled lowerCamel."""
    return isinstance(recorded, dict) and recorded != ours and _camel_deep(recorded) == ours


def _one_text_block(recorded: Any, ours: Any, ctx: LoopContext) -> bool:
    return isinstance(recorded, str) and ours == [{"type": "text", "text": recorded}]


ALLOWLIST: tuple[Allowance, ...] = (
    *(a for a in LOOP_ALLOWLIST if a.id in _FROM_LOOP),
    *(
        ImportAllowance(
            f"{provider}-stream-false",
            provider,
            "stream",
            "missing",
            "stream: false is the API default; our adapter sends stream only when streaming",
            _is(False),
            evidence=f"recorded stream: false accepted ({where}); stream absent accepted ({absent})",
        )
        for provider, where, absent in (
            (
                "anthropic",
                "traffic/pydantic-ai/models__anthropic__test_output__test_no_tools_no_output.yaml#0",
                "traffic/pydantic-ai/test_native_tool_search_vcr__test_anthropic_native_tool_search.yaml#0",
            ),
            (
                "openai-chat",
                "traffic/pydantic-ai/models__test_multimodal_tool_returns__test_model_sees_multiple_images"
                "[openai_chat].yaml#0",
                "Chat Completions API reference: stream defaults to false",
            ),
            (
                "openai-responses",
                "traffic/pydantic-ai/models__test_google__test_thinking_with_tool_calls_from_other_model.yaml#0",
                "traffic/pydantic-ai/models__test_openai_responses__test_openai_previous_response_id.yaml#0",
            ),
        )
    ),
    ImportAllowance(
        "anthropic-system-string",
        "anthropic",
        "system",
        "changed",
        "a string system is shorthand for one text block (system is string | TextBlockParam[]); ours sends "
        "the same text as [{type: text}]",
        _one_text_block,
        evidence="string form accepted: traffic/pydantic-ai/models__test_anthropic__"
        "test_anthropic_model_empty_message_on_history.yaml#0; block form accepted: "
        "traffic/pydantic-ai/models__test_anthropic__test_anthropic_compaction_usage_with_cache_streaming.yaml#0",
    ),
    ImportAllowance(
        "anthropic-consecutive-user-turns-merged",
        "anthropic",
        "messages",
        "changed",
        "consecutive user messages and one user message holding their blocks in order are one turn to the "
        "API (Messages API reference: consecutive user or assistant turns are combined into a single "
        "turn); our adapter merges them",
        **_rewritten(shapes.merge_anthropic_user_turns, lambda v: {"messages": v}),
        evidence="consecutive user messages accepted: traffic/pydantic-ai/models__test_anthropic_mid_"
        "conversation_system__test_two_mid_conversation_system_prompts_keep_their_order.yaml#0; several "
        "blocks in one user turn accepted: cassettes/anthropic/llmanthropic__haiku35_parallel_tool_use_"
        "roundtrip.yaml#1",
    ),
    ImportAllowance(
        "openrouter-tool-choice-auto",
        "openrouter",
        "tool_choice",
        "missing",
        "tool_choice 'auto' is the default when tools are given (OpenRouter follows the Chat Completions "
        "schema); CallParams has no tool_choice",
        _is("auto"),
        evidence="recorded auto accepted: traffic/pydantic-ai/models__test_openrouter__test_openrouter_tool_"
        "calling.yaml#0; absent with tools accepted: cassettes/openrouter/llmopenrouter__gpt41mini_chat_"
        "tool_calls_roundtrip.yaml#1",
    ),
    ImportAllowance(
        "openrouter-empty-tool-description",
        "openrouter",
        "tools[*].function.description",
        "missing",
        "an empty description is the same as none; our adapter omits empty descriptions",
        _is(""),
        evidence="empty description accepted: traffic/pydantic-ai/models__test_openrouter__test_openrouter_"
        "tool_optional_parameters.yaml#0; description is optional in the Chat Completions FunctionObject",
    ),
    ImportAllowance(
        "openrouter-reasoning-enabled",
        "openrouter",
        "reasoning.enabled",
        "missing",
        "reasoning.enabled: true is implied by reasoning.effort / max_tokens (OpenRouter reasoning docs); "
        "ours sends the effort alone",
        _is(True),
        evidence="enabled + effort accepted: traffic/pydantic-ai/models__test_openrouter__test_openrouter_"
        "thinking_true_emits_effort_medium.yaml#0; OpenRouter reasoning-tokens docs (effort alone enables)",
    ),
    ImportAllowance(
        "openrouter-leading-system-joined",
        "openrouter",
        "messages",
        "changed",
        "a leading run of system messages and one system message holding their texts joined by a blank "
        "line carry the same instructions; our adapter sends one system message (openai_chat "
        "system_message). The recorded split only matters for per-message cache_control, which the "
        "importer names as unrepresentable",
        **_rewritten(shapes.join_leading_system, lambda v: {"messages": v}),
        evidence="two leading system messages accepted: traffic/pydantic-ai/models__openrouter__test_"
        "cache__test_openrouter_cache_instructions_gemini_skips_dynamic_e2e.yaml#0; one system message "
        "accepted: traffic/pydantic-ai/models__openrouter__test_cache__test_openrouter_cache_instructions_"
        "dynamic_only_e2e.yaml#0",
    ),
    ImportAllowance(
        "chat-n-one",
        "openai-chat",
        "n",
        "missing",
        "n: 1 (one choice) is the API default; CallParams has no n and our adapter never sends it",
        _is(1),
        evidence="n: 1 accepted: traffic/pydantic-ai/models__test_openai__test_extra_headers.yaml#0;"
        " absent accepted: cassettes/openai-chat/pai__gpt4omini_tool_call_roundtrip.yaml#0; Chat "
        "Completions API reference: n defaults to 1",
    ),
    ImportAllowance(
        "responses-include-encrypted",
        "openai-responses",
        "include",
        "extra",
        "with store: false (responses-store-false) our adapter asks for reasoning.encrypted_content so "
        "reasoning can be replayed statelessly; it changes what comes back, not what the request says",
        _is(["reasoning.encrypted_content"]),
        evidence="include absent accepted: traffic/pydantic-ai/models__test_anthropic__test_anthropic_server_"
        "tool_pass_history_to_another_provider.yaml#1; include encrypted accepted: cassettes/"
        "openai-responses/pai__gpt55_reasoning_function_call_phase_roundtrip.yaml#0",
    ),
    ImportAllowance(
        "responses-empty-instructions",
        "openai-responses",
        "instructions",
        "missing",
        "empty instructions are the same as none; our adapter omits them",
        _is(""),
        evidence="empty accepted: traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_"
        "image_url_input.yaml#0; absent accepted: traffic/pydantic-ai/models__test_anthropic__test_"
        "anthropic_model_thinking_part_from_other_model.yaml#0",
    ),
    ImportAllowance(
        "responses-null-item-status",
        "openai-responses",
        "input[*].status",
        "missing",
        "status: null on a replayed item is the same as none",
        _is_null,
        evidence="null accepted: traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_"
        "requires_function_call_status_none.yaml#1; status is optional on input items (Responses API "
        "reference)",
    ),
    ImportAllowance(
        "responses-text-format-text",
        "openai-responses",
        "text",
        "missing",
        "text: {format: {type: text}} is the API default (plain text output); CallParams has no output "
        "format and our adapter never sends text",
        _is({"format": {"type": "text"}}),
        evidence="recorded default accepted: traffic/pydantic-ai/models__test_openai_responses__test_openai_"
        "previous_response_id.yaml#0; absent accepted: cassettes/openai-responses/pai__"
        "gpt55_reasoning_function_call_phase_roundtrip.yaml#0",
    ),
    ImportAllowance(
        "chat-user-content-one-text-part",
        "openai-chat",
        "messages[*].content",
        "changed",
        "string content is shorthand for one text part (content is string | ContentPart[]); our adapter "
        "sends a lone text as the string",
        lambda recorded, ours, ctx: isinstance(ours, str) and recorded == [{"type": "text", "text": ours}],
        evidence="one text part accepted: traffic/pydantic-ai/models__test_openai__test_image_url_tool_"
        "response.yaml#0; string accepted: cassettes/openai-chat/pai__gpt4omini_tool_call_roundtrip.yaml#0",
    ),
    ImportAllowance(
        "responses-empty-tool-description",
        "openai-responses",
        "tools[*].description",
        "missing",
        "an empty description is the same as none; our adapter omits empty descriptions",
        _is(""),
        evidence="empty description accepted: traffic/pydantic-ai/models__test_openai_responses__test_"
        "openai_responses_stream.yaml#0; description is optional on FunctionTool (Responses API reference)",
    ),
    ImportAllowance(
        "responses-empty-assistant-message",
        "openai-responses",
        "input",
        "changed",
        'an assistant message item with content "" says nothing; our adapter leaves empty text out '
        "(with a warning), so the turn is its function_call items alone",
        **_rewritten(shapes.drop_empty_assistant_items, lambda v: {"input": v}),
        evidence="empty assistant message accepted: traffic/pydantic-ai/models__test_openai_responses__test_"
        "openai_responses_model_retry.yaml#1; function_call items with no message before them accepted: "
        "traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_model_simple_response_"
        "with_tool_call.yaml#1",
    ),
    ImportAllowance(
        "responses-leading-system-as-instructions",
        "openai-responses",
        "$",
        "changed",
        "leading system (or developer) input messages and instructions holding their texts joined by a "
        "blank line put the same text first in the model's context (Responses API reference: "
        "instructions is a system or developer message inserted into the context); our adapter sends "
        "the system prompt as instructions",
        **_rewritten(shapes.leading_system_to_instructions, lambda v: v),
        evidence="a leading system input message accepted: traffic/pydantic-ai/models__test_openai_"
        "responses__test_prompted_output.yaml#0; instructions accepted: traffic/pydantic-ai/models__test_"
        "openai_responses__test_openai_responses_runs_with_instructions_only.yaml#0",
    ),
    ImportAllowance(
        "gemini-empty-generation-config",
        "gemini",
        "generationConfig",
        "missing",
        "an empty generationConfig is the same as none; our adapter omits it",
        _is({}),
        evidence="empty accepted: traffic/pydantic-ai/models__test_google__test_google_model_instructions."
        "yaml#0; generationConfig is optional (GenerateContentRequest reference)",
    ),
    ImportAllowance(
        "gemini-system-instruction-role",
        "gemini",
        "systemInstruction.role",
        "missing",
        "the recording client labels systemInstruction with role 'user'; the role of a system instruction "
        "is not used (ours sends parts only, and our rendered requests are accepted without it)",
        _is("user"),
        evidence="role user accepted: traffic/pydantic-ai/models__test_google__test_google_model.yaml#0; "
        "Content.role is optional (Gemini API reference, Content)",
    ),
    ImportAllowance(
        "gemini-tool-config-auto",
        "gemini",
        "toolConfig",
        "missing",
        "functionCallingConfig mode AUTO is the API default; CallParams has no tool choice and our adapter "
        "never sends toolConfig",
        _is({"functionCallingConfig": {"mode": "AUTO"}}),
        evidence="AUTO accepted: traffic/pydantic-ai/models__google__test_output__test_google_validated_"
        "accepts_what_auto_accepts[auto].yaml#0; absent with tools accepted: cassettes/gemini/pai__"
        "gemini25pro_thought_parts.yaml#0; FunctionCallingConfig reference: AUTO is the default behaviour",
    ),
    ImportAllowance(
        "gemini-unsigned-thought-omitted",
        "gemini",
        "contents[*].parts",
        "changed",
        "a thought: true part without a thoughtSignature is an output-only summary: our adapter leaves "
        "unsigned thinking out (docs/mapping-decisions.md, thinking rule) and keeps every signature on "
        "the part that carried it; pydantic-ai replays the summary",
        **_rewritten(shapes.drop_unsigned_thoughts, lambda v: {"contents": [{"parts": v}]}),
        evidence="unsigned thought replayed and accepted: traffic/pydantic-ai/models__test_google__test_"
        "google_model_thinking_part.yaml#1; a signed answer part with no thought part accepted: "
        "traffic/pydantic-ai/models__test_google__test_google_model_file_search_grounding_gemini_3"
        "[False].yaml#4",
    ),
    ImportAllowance(
        "gemini-snake-case-thinking-config",
        "gemini",
        "generationConfig.thinkingConfig",
        "changed",
        "the recording client (google-genai) spelled proto fields snake_case; Gemini's JSON accepts "
        "snake_case and lowerCamel alike and ours sends lowerCamel; accepted only when the object is "
        "otherwise identical",
        _same_in_camel,
        evidence="snake_case include_thoughts accepted: traffic/pydantic-ai/models__test_google__test_google_"
        "model_thinking_part.yaml#0; lowerCamel thinkingConfig accepted: cassettes/gemini/pai__gemini25pro_"
        "thought_parts.yaml#0; the proto3 JSON mapping accepts both spellings",
    ),
)


def _placeholder_for_empty(recorded: Any, ours: Any, ctx: LoopContext) -> bool:
    return recorded == "" and ours == [{"type": "input_text", "text": shapes.PLACEHOLDER_TEXT}]


def _a_declaration(recorded: Any, ours: Any, ctx: LoopContext) -> bool:
    return recorded is None and isinstance(ours, dict) and "name" in ours


def _sent_false(recorded: Any, ours: Any, ctx: LoopContext) -> bool:
    return recorded is True and ours is False


_STRICT: tuple[tuple[str, str, Kind, str], ...] = (
    (
        "openai-chat",
        "tools[*].function.strict",
        "missing",
        "strict: true accepted: cassettes/openai-chat/pai__gpt4omini_tool_call_roundtrip.yaml#0",
    ),
    (
        "openrouter",
        "tools[*].function.strict",
        "missing",
        "strict: true accepted: traffic/pydantic-ai/models__openrouter__test_cache__test_openrouter_cache_"
        "tool_definitions_gemini_e2e.yaml#0",
    ),
    (
        "openai-responses",
        "tools[*].strict",
        "changed",
        "strict: true accepted: cassettes/openai-responses/pai__gpt55_reasoning_function_call_phase_"
        "roundtrip.yaml#0",
    ),
    (
        "anthropic",
        "tools[*].strict",
        "missing",
        "strict: true accepted: traffic/pydantic-ai/models__anthropic__test_output__test_strict_true_tool_"
        "no_output.yaml#0",
    ),
)

_TOOL_CHOICE: tuple[tuple[str, str, Any, str], ...] = (
    (
        "openai-chat",
        "tool_choice",
        "auto",
        "required accepted: traffic/pydantic-ai/models__test_tool_choice_matrix__test_tool_choice_matrix"
        "[required-openai].yaml#0; "
        "none: traffic/pydantic-ai/models__test_tool_choice_matrix__test_tool_choice_matrix"
        "[none-openai].yaml#0",
    ),
    (
        "openrouter",
        "tool_choice",
        "auto",
        "required accepted: traffic/pydantic-ai/test_ref_sibling_wire_contract__test_ref_sibling_wire_"
        "contract[qwen-nested-model].yaml#0",
    ),
    (
        "openai-responses",
        "tool_choice",
        "auto",
        "required accepted: traffic/pydantic-ai/models__test_tool_choice_matrix__test_tool_choice_matrix"
        "[required-openai_responses].yaml#0",
    ),
    (
        "anthropic",
        "tool_choice",
        {"type": "auto"},
        "any accepted: traffic/pydantic-ai/models__test_tool_choice_matrix__test_tool_choice_matrix"
        "[required-anthropic].yaml#0; "
        "a named tool: traffic/pydantic-ai/models__test_tool_choice_matrix__test_tool_choice_matrix"
        "[list_single-anthropic].yaml#0",
    ),
    (
        "gemini",
        "toolConfig",
        {"functionCallingConfig": {"mode": "AUTO"}},
        "ANY accepted: traffic/pydantic-ai/models__test_tool_choice_matrix__test_tool_choice_matrix"
        "[required-google].yaml#0; "
        "ANY with one allowed name: traffic/pydantic-ai/models__test_tool_choice_matrix__test_tool_choice_matrix"
        "[list_single-google].yaml#0",
    ),
)


_OUTPUT_FORMAT: tuple[tuple[str, str, Any, str], ...] = (
    (
        "openai-chat",
        "response_format",
        {"type": "text"},
        "json_schema accepted: traffic/pydantic-ai/models__test_openai__test_openai_native_output.yaml#0; "
        "json_object: traffic/pydantic-ai/models__test_openai__test_openai_prompted_output.yaml#0",
    ),
    (
        "openai-responses",
        "text",
        {"format": {"type": "text"}},
        "json_schema accepted: traffic/pydantic-ai/models__test_openai_responses__test_native_output.yaml#0; "
        "json_object: traffic/pydantic-ai/models__test_openai_responses__test_prompted_output.yaml#0",
    ),
    (
        "anthropic",
        "output_config",
        {},
        "format json_schema accepted: traffic/pydantic-ai/models__anthropic__test_output__test_no_tools_"
        "native_output_strict_true.yaml#0",
    ),
    (
        "gemini",
        "generationConfig.{responseMimeType,responseJsonSchema}",
        "text/plain",
        "application/json with a schema accepted: traffic/pydantic-ai/models__test_google__test_google_native_"
        "output.yaml#0; without: traffic/pydantic-ai/models__test_google__test_google_prompted_output.yaml#0",
    ),
)


def _not(default: Any) -> Accepts:
    """The recorded value is present and is not the API default (ours sent nothing)."""

    def accepts(recorded: Any, ours: Any, ctx: LoopContext) -> bool:
        return recorded is not None and ours is None and recorded != default

    return accepts


#: Differences decided as "our adapter is wrong" (docs/import-check-decisions.md): open, never allowed.
PENDING: tuple[Pending, ...] = (
    Pending(
        "anthropic-inline-system-hoisted",
        "anthropic",
        "$",
        "changed",
        "a system message inside messages is hoisted into the top-level system prompt, which moves the "
        "instruction to the start and changes the cached prefix; the traffic shows the model accepts it "
        "in place",
        **_rewritten(shapes.hoist_anthropic_system_messages, lambda v: v),
        evidence="in place accepted: traffic/pydantic-ai/models__test_anthropic_mid_conversation_system__"
        "test_mid_conversation_system_prompt_kept_mid_history.yaml#0 (claude-opus-4-8)",
        decision="inline-system",
    ),
    Pending(
        "chat-inline-system-hoisted",
        "openai-chat",
        "messages",
        "changed",
        "a system message after another role is hoisted into the leading system message, which moves the "
        "instruction to the start; the traffic shows it accepted in place",
        **_rewritten(shapes.hoist_chat_system_messages, lambda v: {"messages": v}),
        evidence="system after user accepted: traffic/pydantic-ai/test_tool_availability_portability__test_"
        "tool_availability_portability_matrix[R4-T6-announcement].yaml#0",
        decision="inline-system",
    ),
    Pending(
        "chat-system-only-placeholder",
        "openai-chat",
        "messages[*]",
        "extra",
        "a placeholder user message is added after a system-only history; the traffic shows a system-only "
        "request accepted",
        lambda recorded, ours, ctx: ours == {"role": "user", "content": shapes.PLACEHOLDER_TEXT},
        evidence="system-only accepted: traffic/pydantic-ai/models__test_openai__test_openai_model_without_"
        "system_prompt.yaml#0 (o3-mini)",
        decision="placeholder-turns",
    ),
    Pending(
        "anthropic-assistant-first-placeholder",
        "anthropic",
        "messages",
        "changed",
        "a placeholder user turn is invented before an assistant-first history; the traffic shows "
        "Anthropic accepts a history that starts with an assistant message",
        **_rewritten(shapes.prepend_placeholder_user, lambda v: {"messages": v}),
        evidence="assistant-first accepted: traffic/pydantic-ai/models__test_anthropic__test_anthropic_"
        "model_empty_message_on_history.yaml#0",
        decision="placeholder-turns",
    ),
    Pending(
        "responses-empty-user-placeholder",
        "openai-responses",
        "input[*].content",
        "changed",
        'an empty user message is replaced by the placeholder text; the traffic shows content "" accepted',
        _placeholder_for_empty,
        evidence="empty user content accepted: traffic/pydantic-ai/models__test_openai_responses__test_"
        "openai_responses_runs_with_instructions_only.yaml#0",
        decision="placeholder-turns",
    ),
    Pending(
        "gemini-tool-result-media-merged",
        "gemini",
        "contents",
        "changed",
        "a user content that follows a functionResponse content is merged into it (functionResponse and "
        "inlineData parts in one content); the traffic shows the separate contents accepted and reports "
        "show the merged form rejected",
        **_rewritten(shapes.merge_gemini_user_contents, lambda v: {"contents": v}),
        evidence="separate contents accepted: traffic/pydantic-ai/models__test_multimodal_tool_returns__"
        "test_multimodal_tool_return_matrix[tool_return_content-binary-image-google_2_5].yaml#1; merged "
        "form reported rejected: github.com/vellum-ai/vellum-assistant/pull/1901",
        decision="gemini-tool-result-media",
    ),
    Pending(
        "gemini-derived-declaration",
        "gemini",
        "tools[*].functionDeclarations[*]",
        "extra",
        "a declaration is derived for a tool the history calls but the request does not declare, offering "
        "the model a tool the caller did not; the traffic shows Gemini accepts the undeclared call",
        _a_declaration,
        evidence="undeclared call in history accepted: traffic/pydantic-ai/models__test_multimodal_tool_"
        "returns__test_multimodal_tool_return_matrix[direct-binary-image-google_gemini3].yaml#1",
        decision="gemini-derived-declarations",
    ),
    *(
        Pending(
            f"{provider}-tool-strict-not-sent",
            provider,
            path,
            kind,
            "ToolSpec.strict carries the tool's strict flag; our adapter does not send it"
            + (" (it always sends strict: false)" if kind == "changed" else ""),
            _sent_false if kind == "changed" else _is(True),
            evidence=evidence,
            decision="tool-strict",
        )
        for provider, path, kind, evidence in _STRICT
    ),
    *(
        Pending(
            f"{provider}-tool-choice-not-sent",
            provider,
            path,
            "missing",
            "CallParams.tool_choice carries a tool choice other than auto (none, required, one named tool); "
            "our adapter does not send it",
            _not(default),
            evidence=evidence,
            decision="tool-choice",
        )
        for provider, path, default, evidence in _TOOL_CHOICE
    ),
    *(
        Pending(
            f"{provider}-output-format-not-sent",
            provider,
            path,
            "missing",
            "CallParams.output_format carries structured output (any JSON object, or a JSON Schema); our "
            "adapter does not send it",
            _not(default),
            evidence=evidence,
            decision="output-format",
        )
        for provider, path, default, evidence in _OUTPUT_FORMAT
    ),
)


PENDING_BY_ID = {p.id: p for p in PENDING}


def evidence_of(entry: Allowance) -> str:
    """An entry's evidence; the closed loop's own entries are evidenced by its test suite."""
    return (
        entry.evidence
        if isinstance(entry, ImportAllowance)
        else "the closed loop's tests (tests/test_closed_loop.py)"
    )
