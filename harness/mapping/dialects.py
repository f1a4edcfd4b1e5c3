"""What the OpenAI-compatible Chat Completions dialects (Mistral, Groq, DeepSeek, Cerebras,
Z.ai, Hugging Face's router) share beyond the Chat Completions core: a fixed-shape tool-call
id policy, the ``reasoning_content`` round trip and the token-limit field's name.

Each dialect's ``request.py`` picks from here; the rules and their evidence are in
``docs/field-rules.md`` and each provider's ``DECISIONS.md``. No provider is imported.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from harness.contract.providers import chat_dialect, provider_entry
from harness.contract.rendered import Rendered
from harness.contract.warning_codes import Code
from harness.mapping.cache import warn_by_profile
from harness.mapping.call_controls import ControlNames, apply_controls
from harness.mapping.chat_completions import JSON, ReasoningMapper, base_body, warn_thinking
from harness.mapping.file_support import NO_FILES, FileSupport
from harness.mapping.prepare import prepare
from harness.mapping.toolbox import thinking_text_problem, warn_signature_dropped
from harness.mapping.toolnames import NameRule
from harness.mapping.wire import IdPolicy, PartUnit, Prepared, ThinkingUnit, Warnings, WireAssistant, WireUser
from harness.model import HistoryEvent, ToolCallPart
from harness.params import CallParams

__all__ = [
    "AlnumIdPolicy",
    "Dialect",
    "DialectAdapter",
    "calls_a_tool",
    "drop_reasoning",
    "kimi_or_drop",
    "kimi_thinks",
    "rename_max_tokens",
    "send_reasoning_content",
    "tool_loop_turns",
]

_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class AlnumIdPolicy(IdPolicy):
    """Ids of exactly ``length`` characters from ``[a-zA-Z0-9]`` (Mistral: 9).

    An id that does not fit is replaced by the base-62 digits of its SHA-256, so the
    same id maps the same way in its call and its result, and in every request of a loop.
    """

    length: int = 9

    def ok(self, call_id: str) -> bool:
        return re.fullmatch(f"[A-Za-z0-9]{{{self.length}}}", call_id) is not None

    def map(self, call_id: str) -> str:
        if self.ok(call_id):
            return call_id
        number = int.from_bytes(hashlib.sha256(call_id.encode("utf-8", "surrogatepass")).digest(), "big")
        digits: list[str] = []
        for _ in range(self.length):
            number, rest = divmod(number, len(_ALPHABET))
            digits.append(_ALPHABET[rest])
        return "".join(digits)


def rename_max_tokens(body: JSON, field: str) -> None:
    """The core sends ``max_completion_tokens``; dialects that only know ``max_tokens`` get that."""
    if field != "max_completion_tokens" and "max_completion_tokens" in body:
        body[field] = body.pop("max_completion_tokens")


def drop_reasoning(why: str) -> ReasoningMapper:
    """A dialect that takes no reasoning back: every thinking part is warned and left out."""

    def mapper(item: WireAssistant, units: list[ThinkingUnit], warnings: Warnings) -> JSON:
        warn_thinking(item.index, units, warnings, Code.THINKING_UNSUPPORTED, why)
        return {}

    return mapper


#: Kimi models that think by default: K2 Thinking (always), K2.5 and later K2s (unless the body
#: says ``thinking: {"type": "disabled"}``). Moonshot's "Using thinking models" guide
#: (platform.moonshot.ai/docs/guide/use-kimi-k2-thinking-model); the same pattern as the rule
#: ``harness.rules.dialects.KIMI_TOOL_CALL_REASONING``, which tests/test_rules_dialects.py keeps in step.
_KIMI_THINKING = re.compile(r"kimi-k2(-thinking|[.-]?[5-9])", re.IGNORECASE)


def kimi_thinks(model: str) -> bool:
    """A Kimi thinking model, behind any OpenAI-compatible host (Groq, Hugging Face's router, ...)."""
    return _KIMI_THINKING.search(model) is not None


def calls_a_tool(item: WireAssistant) -> bool:
    """An assistant message that calls a tool (Kimi: where ``reasoning_content`` is required)."""
    return any(isinstance(u, PartUnit) and isinstance(u.part, ToolCallPart) for u in item.units)


def tool_loop_turns(prepared: Prepared) -> set[int]:
    """Canonical indexes of the assistant messages inside a tool loop: between two user
    messages, every assistant message of a span in which the model called a tool
    (DeepSeek thinking mode: "between two user messages, if the model called tools, the
    intermediate assistant reasoning_content must be passed back in all later turns")."""
    loops: set[int] = set()
    span: list[WireAssistant] = []
    called = False
    for item in [*prepared.items, None]:
        if item is None or (isinstance(item, WireUser) and not item.from_developer):
            if called:
                loops |= {a.index for a in span}
            span, called = [], False
        elif isinstance(item, WireAssistant):
            span.append(item)
            called = called or calls_a_tool(item)
    return loops


def kimi_or_drop(model: str, why_not: str, *, field: str = "reasoning_content") -> ReasoningMapper:
    """A host that takes no reasoning back, except for a Kimi thinking model's tool calls.

    With thinking on, Kimi answers 400 "thinking is enabled but reasoning_content is missing in
    assistant tool call message at index N" (the rule ``kimi-tool-call-reasoning`` and its
    sources): each assistant tool-call message carries its reasoning in the host's input field
    (``field``: ``reasoning_content``, Groq's documented ``reasoning``), ``""`` when the history
    kept none (``reasoning-content-empty``); no other message does.
    """
    if not kimi_thinks(model):
        return drop_reasoning(why_not)
    return send_reasoning_content(
        model,
        calls_a_tool,
        field=field,
        fill_empty=True,
        why_not="Kimi requires its reasoning on assistant tool-call messages only",
    )


def send_reasoning_content(
    model: str,
    required: Callable[[WireAssistant], bool],
    *,
    field: str = "reasoning_content",
    fill_empty: bool = False,
    why_not: str,
) -> ReasoningMapper:
    """``reasoning_content`` on exactly the assistant messages ``required`` names.

    The turn's own thinking texts (this model's, or of no named model) are joined; a
    signature is never native to these dialects and is dropped with a warning. A required
    turn with no thinking text left gets an empty string when ``fill_empty`` (the API
    refuses the turn without the field), with ``reasoning-content-empty``. Every other
    turn's thinking is warned (``why_not``) and left out.
    """

    def mapper(item: WireAssistant, units: list[ThinkingUnit], warnings: Warnings) -> JSON:
        if not required(item):
            warn_thinking(item.index, units, warnings, Code.REASONING_NOT_SENT, why_not)
            return {}
        texts: list[str] = []
        for unit in units:
            warn_signature_dropped(warnings, item.index, unit, field)
            if unit.text is None:
                continue
            problem = thinking_text_problem(unit.text, model)
            if problem is not None:
                warnings.add(
                    item.index,
                    unit.text_index,
                    "thinking_text",
                    Code.THINKING_MODEL_MISMATCH,
                    f"{problem}; thinking text dropped",
                )
                continue
            texts.append(unit.text.text)
        if texts:
            return {field: "".join(texts)}
        if fill_empty:
            warnings.add(
                item.index,
                None,
                None,
                Code.REASONING_CONTENT_EMPTY,
                f"a thinking model's tool-loop turn needs {field} and none is in the history; sent empty",
            )
            return {field: ""}
        return {}

    return mapper


#: Builds the reasoning mapper of one request from the prepared history and the model sent.
ReasoningPlan = Callable[[Prepared, str, CallParams], ReasoningMapper]
#: Adds the dialect's own request parameters (reasoning switches) to the body.
Controls = Callable[[JSON, CallParams, Warnings, str], None]


@dataclass(frozen=True)
class Dialect:
    """One OpenAI-compatible dialect: what differs from Chat Completions, each field a rule
    with its evidence in the provider's ``profile.py``."""

    provider: str
    ids: IdPolicy
    names: NameRule
    reasoning: ReasoningPlan
    controls: Controls
    #: Where the dialect reads each call control (its profile's ``CONTROLS``); None: it has
    #: none, and every control set is warned ``control-not-sent``.
    call_controls: ControlNames | None = None
    #: ``max_completion_tokens`` (the core's) or ``max_tokens``.
    max_tokens_field: str = "max_completion_tokens"
    #: Send the tool's name on each tool message (Mistral's documented tool message).
    tool_message_name: bool = False
    #: Ask for the final usage chunk (``stream_options.include_usage``).
    stream_usage: bool = False
    #: What the dialect takes as files (its profile's ``FILES``).
    files: FileSupport = NO_FILES


class DialectAdapter:
    """The input adapter of a dialect: the Chat Completions core, then the dialect's rules."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        self.provider: str = dialect.provider

    def render(self, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        d = self.dialect
        prepared = prepare(history, params, d.provider, d.ids, d.names, files=d.files)
        model = params.model or provider_entry(d.provider).default_model
        body = base_body(prepared, params, model, d.reasoning(prepared, model, params), provider=d.provider)
        rename_max_tokens(body, d.max_tokens_field)
        if body.get("tool_choice") == "required":
            body["tool_choice"] = chat_dialect(d.provider).required_choice  # Mistral: ``any``
        if d.tool_message_name:
            names = _tool_names(body)
            for message in body["messages"]:
                if message["role"] == "tool" and message["tool_call_id"] in names:
                    message["name"] = names[message["tool_call_id"]]
        if params.stream and d.stream_usage:
            body["stream_options"] = {"include_usage": True}
        d.controls(body, params, prepared.warnings, model)
        names = d.call_controls or ControlNames(d.provider)
        apply_controls(body, params, names, prepared.warnings)
        warn_by_profile(history, params, prepared.warnings, names)
        return Rendered(body, list(prepared.warnings))


def _tool_names(body: JSON) -> dict[str, str]:
    """Tool call id (as sent) -> the function name it calls."""
    names: dict[str, str] = {}
    for message in body["messages"]:
        for call in message.get("tool_calls", []):
            names[call["id"]] = call["function"]["name"]
    return names
