"""import-check's allowlist: the accepted differences between a recorded request and our render, and the open ones.

Every entry carries five facts: ``id``, ``provider``, where (a JSON path glob and the
difference kind), why (``reason``) and ``evidence`` (an accepted recorded request showing
each form, as ``cassette#index``, or the provider's docs). ``ALLOWLIST`` entries are two
valid renderings of one canonical request; ``PENDING`` entries (below)
are differences decided as our adapter's to fix (docs/import-check-decisions.md),
reported as open, never allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast, overload

from harness.importcheck import shapes
from harness.importer.gemini import camel
from harness.loop.allowlist import ALLOWLIST as LOOP_ALLOWLIST
from harness.loop.jsondiff import (
    Accepts,
    DiffContext,
    DiffKind,
    JsonAllowance,
    is_null,
    string_is_one_block,
    value_is,
)

__all__ = [
    "ALLOWLIST",
    "DECISIONS",
    "PENDING",
    "ImportAllowance",
    "Pending",
    "allowance",
    "entries",
    "evidence_of",
    "rewritten",
]

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
    "bedrock-tool-result-success",
    "cerebras-stream-false",
    "zai-stream-false",
    "groq-n-one",
    "groq-tool-choice-auto",
    "groq-empty-tool-description",
    "huggingface-null-name",
    "huggingface-null-tool-calls",
    "huggingface-stream-false",
    "huggingface-empty-tools",
    # cohere
    "cohere-stream-false",
}


DECISIONS = "docs/import-check-decisions.md"


@dataclass(frozen=True)
class ImportAllowance(JsonAllowance):
    """An allowance with its evidence: an accepted request showing each form (cassette#index) or docs.

    The five facts of an entry (the ``Accepted`` shape): ``id``, ``provider``, ``where`` (with
    ``kind``), ``why`` and ``evidence``. A structural entry's ``accepts`` is a
    ``shapes.Restructured``, which import-check asks for the differences inside a node it
    accepted, to find those that are open rather than allowed.
    """


@dataclass(frozen=True)
class Pending(ImportAllowance):
    """A difference decided as *our adapter is wrong*: reported as open until the adapter changes.

    ``decision`` is the anchor of its decision in docs/import-check-decisions.md (rule,
    evidence, the intended adapter change and its golden impact). Never counted as allowed.
    """

    decision: str = field(default="", kw_only=True)

    @property
    def see(self) -> str:
        return f"{DECISIONS}#{self.decision}"


@overload
def allowance(
    id: str,
    provider: str,
    where: str,
    kind: DiffKind,
    why: str,
    accepts: Accepts | None = None,
    *,
    evidence: str,
    decision: None = None,
) -> ImportAllowance: ...


@overload
def allowance(
    id: str,
    provider: str,
    where: str,
    kind: DiffKind,
    why: str,
    accepts: Accepts | None = None,
    *,
    evidence: str,
    decision: str,
) -> Pending: ...


def allowance(
    id: str,
    provider: str,
    where: str,
    kind: DiffKind,
    why: str,
    accepts: Accepts | None = None,
    *,
    evidence: str,
    decision: str | None = None,
) -> ImportAllowance:
    """An import-check entry, written in the order a reader states it: where, what kind, why.

    With a ``decision`` (its anchor in docs/import-check-decisions.md) the entry is ``Pending``: open.
    """
    if decision is not None:
        return Pending(id, provider, where, why, (evidence,), kind=kind, accepts=accepts, decision=decision)
    return ImportAllowance(id, provider, where, why, (evidence,), kind=kind, accepts=accepts)


def entries() -> tuple[JsonAllowance, ...]:
    """``ALLOWLIST`` then the open entries (``PENDING``), read at each call (a test may add one)."""
    return (*ALLOWLIST, *PENDING)


def rewritten(rewrite: shapes.Rewrite, wrap: shapes.Wrap) -> shapes.Restructured:
    """The ``accepts`` of a structural entry, up to every other entry (see ``shapes.Restructured``)."""
    return shapes.Restructured(rewrite, wrap, entries)


def _camel_deep(value: Any) -> Any:
    """``camel`` at every level: for objects with no free-form keys inside (thinkingConfig)."""
    if isinstance(value, dict):
        return {k: _camel_deep(v) for k, v in camel(cast(dict[str, Any], value)).items()}
    if isinstance(value, list):
        return [_camel_deep(v) for v in cast(list[Any], value)]
    return value


def _same_in_camel(recorded: Any, ours: Any, ctx: DiffContext) -> bool:
    """The same object once every snake_case key of the recorded one is spelled lowerCamel."""
    return isinstance(recorded, dict) and recorded != ours and _camel_deep(recorded) == ours


ALLOWLIST: tuple[JsonAllowance, ...] = (
    *(a for a in LOOP_ALLOWLIST if a.id in _FROM_LOOP),
    *(
        allowance(
            f"{provider}-stream-false",
            provider,
            "stream",
            "missing",
            "stream: false is the API default; our adapter sends stream only when streaming",
            value_is(False),
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
            (
                "groq",
                "traffic/pydantic-ai-more/models__test_groq__test_groq_model_instructions.yaml#0",
                "Groq API reference (console.groq.com/docs/api-reference, chat create): stream defaults "
                "to false",
            ),
        )
    ),
    allowance(
        "anthropic-system-string",
        "anthropic",
        "system",
        "changed",
        "a string system is shorthand for one text block (system is string | TextBlockParam[]); ours sends "
        "the same text as [{type: text}]",
        string_is_one_block("text"),
        evidence="string form accepted: traffic/pydantic-ai/models__test_anthropic__"
        "test_anthropic_model_empty_message_on_history.yaml#0; block form accepted: "
        "traffic/pydantic-ai/models__test_anthropic__test_anthropic_compaction_usage_with_cache_streaming.yaml#0",
    ),
    allowance(
        "anthropic-consecutive-user-turns-merged",
        "anthropic",
        "messages",
        "changed",
        "consecutive user messages and one user message holding their blocks in order are one turn to the "
        "API (Messages API reference: consecutive user or assistant turns are combined into a single "
        "turn); our adapter merges them",
        rewritten(shapes.merge_anthropic_user_turns, lambda v: {"messages": v}),
        evidence="consecutive user messages accepted: traffic/pydantic-ai/models__test_anthropic_mid_"
        "conversation_system__test_two_mid_conversation_system_prompts_keep_their_order.yaml#0; several "
        "blocks in one user turn accepted: cassettes/anthropic/llmanthropic__haiku35_parallel_tool_use_"
        "roundtrip.yaml#1",
    ),
    allowance(
        "anthropic-inline-system-hoisted",
        "anthropic",
        "$",
        "changed",
        "a system message inside messages (accepted in place by some models) and the same text hoisted "
        "into the top-level system prompt (accepted by every model) are two valid renderings. We hoist on "
        "purpose (docs/import-check-decisions.md#inline-system): one system prompt renders the same for "
        "every provider and model, where the in-place form is model by model (claude-sonnet-4-6 folds it "
        "into the user turn instead). Cost: the instruction applies from the start, and the cached "
        "prefix changes when it is added",
        rewritten(shapes.hoist_anthropic_system_messages, lambda v: v),
        evidence="in place accepted: traffic/pydantic-ai/models__test_anthropic_mid_conversation_system__"
        "test_mid_conversation_system_prompt_kept_mid_history.yaml#0 (claude-opus-4-8); a tool-availability "
        "instruction in the top-level system text blocks accepted: traffic/pydantic-ai/models__test_"
        "anthropic__test_anthropic_lazy_advertisement_live.yaml#0 (claude-opus-4-8; Messages API: system is "
        "string | TextBlockParam[])",
    ),
    allowance(
        "chat-inline-system-hoisted",
        "openai-chat",
        "messages",
        "changed",
        "a system message after another role (accepted in place) and its text joined into the leading "
        "system message (accepted) are two valid renderings. We hoist on purpose "
        "(docs/import-check-decisions.md#inline-system): one system prompt, first, renders the same for "
        "every provider and model. Cost: the instruction applies from the start, and the cached prefix "
        "changes when it is added",
        rewritten(shapes.hoist_chat_system_messages, lambda v: {"messages": v}),
        evidence="system after user accepted: traffic/pydantic-ai/test_tool_availability_portability__test_"
        "tool_availability_portability_matrix[R4-T6-announcement].yaml#0 (gpt-5); a leading system message "
        "before the conversation accepted: traffic/pydantic-ai/models__test_openai__test_openai_instructions_"
        "with_tool_calls_keep_instructions.yaml#0 (gpt-4.1-mini)",
    ),
    allowance(
        "openrouter-tool-choice-auto",
        "openrouter",
        "tool_choice",
        "missing",
        "tool_choice 'auto' is the default when tools are given (OpenRouter follows the Chat Completions "
        "schema); we send none for tool_choice None",
        value_is("auto"),
        evidence="recorded auto accepted: traffic/pydantic-ai/models__test_openrouter__test_openrouter_tool_"
        "calling.yaml#0; absent with tools accepted: cassettes/openrouter/llmopenrouter__gpt41mini_chat_"
        "tool_calls_roundtrip.yaml#1",
    ),
    allowance(
        "openrouter-empty-tool-description",
        "openrouter",
        "tools[*].function.description",
        "missing",
        "an empty description is the same as none; our adapter omits empty descriptions",
        value_is(""),
        evidence="empty description accepted: traffic/pydantic-ai/models__test_openrouter__test_openrouter_"
        "tool_optional_parameters.yaml#0; description is optional in the Chat Completions FunctionObject",
    ),
    allowance(
        "openrouter-reasoning-enabled",
        "openrouter",
        "reasoning.enabled",
        "missing",
        "reasoning.enabled: true is implied by reasoning.effort / max_tokens (OpenRouter reasoning docs); "
        "ours sends the effort alone",
        value_is(True),
        evidence="enabled + effort accepted: traffic/pydantic-ai/models__test_openrouter__test_openrouter_"
        "thinking_true_emits_effort_medium.yaml#0; OpenRouter reasoning-tokens docs (effort alone enables)",
    ),
    allowance(
        "openrouter-leading-system-joined",
        "openrouter",
        "messages",
        "changed",
        "a leading run of system messages and one system message holding their texts joined by a blank "
        "line carry the same instructions; our adapter sends one system message (openai_chat "
        "system_message). The recorded split only matters for per-message cache_control, which the "
        "importer names as unrepresentable",
        rewritten(shapes.join_leading_system, lambda v: {"messages": v}),
        evidence="two leading system messages accepted: traffic/pydantic-ai/models__openrouter__test_"
        "cache__test_openrouter_cache_instructions_gemini_skips_dynamic_e2e.yaml#0; one system message "
        "accepted: traffic/pydantic-ai/models__openrouter__test_cache__test_openrouter_cache_instructions_"
        "dynamic_only_e2e.yaml#0",
    ),
    allowance(
        "chat-n-one",
        "openai-chat",
        "n",
        "missing",
        "n: 1 (one choice) is the API default; CallParams has no n and our adapter never sends it",
        value_is(1),
        evidence="n: 1 accepted: traffic/pydantic-ai/models__test_openai__test_extra_headers.yaml#0;"
        " absent accepted: cassettes/openai-chat/pai__gpt4omini_tool_call_roundtrip.yaml#0; Chat "
        "Completions API reference: n defaults to 1",
    ),
    allowance(
        "responses-include-encrypted",
        "openai-responses",
        "include",
        "extra",
        "with store: false (responses-store-false) our adapter asks for reasoning.encrypted_content so "
        "reasoning can be replayed statelessly; it changes what comes back, not what the request says",
        value_is(["reasoning.encrypted_content"]),
        evidence="include absent accepted: traffic/pydantic-ai/models__test_anthropic__test_anthropic_server_"
        "tool_pass_history_to_another_provider.yaml#1; include encrypted accepted: cassettes/"
        "openai-responses/pai__gpt55_reasoning_function_call_phase_roundtrip.yaml#0",
    ),
    allowance(
        "responses-empty-instructions",
        "openai-responses",
        "instructions",
        "missing",
        "empty instructions are the same as none; our adapter omits them",
        value_is(""),
        evidence="empty accepted: traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_"
        "image_url_input.yaml#0; absent accepted: traffic/pydantic-ai/models__test_anthropic__test_"
        "anthropic_model_thinking_part_from_other_model.yaml#0",
    ),
    allowance(
        "responses-null-item-status",
        "openai-responses",
        "input[*].status",
        "missing",
        "status: null on a replayed item is the same as none",
        is_null,
        evidence="null accepted: traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_"
        "requires_function_call_status_none.yaml#1; status is optional on input items (Responses API "
        "reference)",
    ),
    allowance(
        "responses-text-format-text",
        "openai-responses",
        "text",
        "missing",
        "text: {format: {type: text}} is the API default (plain text output); CallParams has no output "
        "format and our adapter never sends text",
        value_is({"format": {"type": "text"}}),
        evidence="recorded default accepted: traffic/pydantic-ai/models__test_openai_responses__test_openai_"
        "previous_response_id.yaml#0; absent accepted: cassettes/openai-responses/pai__"
        "gpt55_reasoning_function_call_phase_roundtrip.yaml#0",
    ),
    allowance(
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
    allowance(
        "responses-empty-tool-description",
        "openai-responses",
        "tools[*].description",
        "missing",
        "an empty description is the same as none; our adapter omits empty descriptions",
        value_is(""),
        evidence="empty description accepted: traffic/pydantic-ai/models__test_openai_responses__test_"
        "openai_responses_stream.yaml#0; description is optional on FunctionTool (Responses API reference)",
    ),
    allowance(
        "responses-empty-assistant-message",
        "openai-responses",
        "input",
        "changed",
        'an assistant message item with content "" says nothing; our adapter leaves empty text out '
        "(with a warning), so the turn is its function_call items alone",
        rewritten(shapes.drop_empty_assistant_items, lambda v: {"input": v}),
        evidence="empty assistant message accepted: traffic/pydantic-ai/models__test_openai_responses__test_"
        "openai_responses_model_retry.yaml#1; function_call items with no message before them accepted: "
        "traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_model_simple_response_"
        "with_tool_call.yaml#1",
    ),
    allowance(
        "responses-leading-system-as-instructions",
        "openai-responses",
        "$",
        "changed",
        "leading system (or developer) input messages and instructions holding their texts joined by a "
        "blank line put the same text first in the model's context (Responses API reference: "
        "instructions is a system or developer message inserted into the context); our adapter sends "
        "the system prompt as instructions",
        rewritten(shapes.leading_system_to_instructions, lambda v: v),
        evidence="a leading system input message accepted: traffic/pydantic-ai/models__test_openai_"
        "responses__test_prompted_output.yaml#0; instructions accepted: traffic/pydantic-ai/models__test_"
        "openai_responses__test_openai_responses_runs_with_instructions_only.yaml#0",
    ),
    allowance(
        "gemini-empty-generation-config",
        "gemini",
        "generationConfig",
        "missing",
        "an empty generationConfig is the same as none; our adapter omits it",
        value_is({}),
        evidence="empty accepted: traffic/pydantic-ai/models__test_google__test_google_model_instructions."
        "yaml#0; generationConfig is optional (GenerateContentRequest reference)",
    ),
    allowance(
        "gemini-system-instruction-role",
        "gemini",
        "systemInstruction.role",
        "missing",
        "the recording client labels systemInstruction with role 'user'; the role of a system instruction "
        "is not used (ours sends parts only, and our rendered requests are accepted without it)",
        value_is("user"),
        evidence="role user accepted: traffic/pydantic-ai/models__test_google__test_google_model.yaml#0; "
        "Content.role is optional (Gemini API reference, Content)",
    ),
    allowance(
        "gemini-tool-config-auto",
        "gemini",
        "toolConfig",
        "missing",
        "functionCallingConfig mode AUTO is the API default; CallParams has no tool choice and our adapter "
        "never sends toolConfig",
        value_is({"functionCallingConfig": {"mode": "AUTO"}}),
        evidence="AUTO accepted: traffic/pydantic-ai/models__google__test_output__test_google_validated_"
        "accepts_what_auto_accepts[auto].yaml#0; absent with tools accepted: cassettes/gemini/pai__"
        "gemini25pro_thought_parts.yaml#0; FunctionCallingConfig reference: AUTO is the default behaviour",
    ),
    allowance(
        "gemini-unsigned-thought-omitted",
        "gemini",
        "contents[*].parts",
        "changed",
        "a thought: true part without a thoughtSignature is an output-only summary: our adapter leaves "
        "unsigned thinking out (docs/mapping-decisions.md, thinking rule) and keeps every signature on "
        "the part that carried it; pydantic-ai replays the summary",
        rewritten(shapes.drop_unsigned_thoughts, lambda v: {"contents": [{"parts": v}]}),
        evidence="unsigned thought replayed and accepted: traffic/pydantic-ai/models__test_google__test_"
        "google_model_thinking_part.yaml#1; a signed answer part with no thought part accepted: "
        "traffic/pydantic-ai/models__test_google__test_google_model_file_search_grounding_gemini_3"
        "[False].yaml#4",
    ),
    allowance(
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
    # AWS Bedrock Converse: API defaults and empty containers pydantic-ai sends, which our adapter omits.
    allowance(
        "bedrock-tool-choice-auto",
        "bedrock",
        "toolConfig.toolChoice",
        "missing",
        "toolChoice {auto: {}} is the Converse default when tools are given; we send none for auto",
        value_is({"auto": {}}),
        evidence="traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_model_retry.yaml#0 (sent); "
        "traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_model_iter_stream.yaml#0 (absent)",
    ),
    allowance(
        "bedrock-empty-system",
        "bedrock",
        "system",
        "missing",
        "an empty system list says nothing; we omit system when there is no system text",
        value_is([]),
        evidence="traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_model_thinking_part_anthropic.yaml#0",
    ),
    allowance(
        "bedrock-empty-inference-config",
        "bedrock",
        "inferenceConfig",
        "missing",
        "an empty inferenceConfig sets nothing; we omit it when no setting is given",
        value_is({}),
        evidence="traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_model_thinking_part_anthropic.yaml#0",
    ),
    # The OpenAI-compatible dialects (issue 27): API defaults pydantic-ai sends, which our adapters omit.
    *(
        allowance(
            f"{provider}-tool-choice-auto",
            provider,
            "tool_choice",
            "missing",
            "tool_choice 'auto' is the default when tools are given (the dialect follows the Chat "
            "Completions schema); we send none for tool_choice None",
            value_is("auto"),
            evidence=f"recorded auto accepted: {where}; {docs}: tool_choice defaults to auto when tools "
            "are present",
        )
        for provider, where, docs in (
            (
                "cerebras",
                "traffic/pydantic-ai-more/models__test_openai__test_openai_model_cerebras_provider_qwen_3_"
                "coder.yaml#0",
                "Cerebras API reference (inference-docs.cerebras.ai)",
            ),
        )
    ),
    allowance(
        "zai-thinking-type-enabled",
        "zai",
        "thinking.type",
        "extra",
        "a thinking object without type is thinking enabled, the default of GLM-4.7 and the GLM-5 series "
        "(the models of every recorded zai request; GLM-4.6's default is hybrid); the importer reads it "
        "as thinking on and our adapter always states the type: the same request",
        value_is("enabled"),
        evidence="type absent accepted: traffic/pydantic-ai-more/models__test_zai__test_zai_model_simple."
        "yaml#0 (glm-4.7); type enabled accepted: traffic/pydantic-ai-more/models__test_zai__test_zai_"
        "thinking_stream.yaml#0 (glm-4.7); docs.z.ai/guides/capabilities/thinking-mode: thinking is "
        "activated by default in GLM-5.1, GLM-5 and GLM-4.7",
    ),
)


def evidence_of(entry: JsonAllowance) -> str:
    """An entry's evidence; the closed loop's own entries are evidenced by its test suite."""
    return (
        "; ".join(entry.evidence)
        if isinstance(entry, ImportAllowance) or entry.evidence
        else "the closed loop's tests (tests/test_closed_loop.py)"
    )


#: Differences decided as "our adapter is wrong" (docs/import-check-decisions.md): open, never allowed.
#: Each has the five facts of an allowance plus the anchor of its decision (the rule, the intended
#: adapter change and its golden impact). A request whose only differences beyond ``ALLOWLIST``
#: are these is reported as open: adapter change pending.
#: Empty: every such decision so far is fixed in the adapter; a new one adds its entry here until then.
PENDING: tuple[Pending, ...] = ()
