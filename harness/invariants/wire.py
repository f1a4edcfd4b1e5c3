"""Provider-neutral views of a request body, so each invariant is written once for every wire.

The checks read only what the provider's own documentation defines (message lists,
roles, tool call / result units, system carriers, signature fields), never the
reference adapter's internals, so they judge third-party targets the same way. One view
per wire (``VIEWS``), chosen by the provider's wire in the provider table: a provider on
an existing wire is read by that wire's view.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.contract.gemini_contents import media_after_responses
from harness.contract.providers import wire_entry, wire_of
from harness.invariants.base import Json, as_dict, as_list, has_subdict, signature_key
from harness.invariants.memo import same_args
from harness.model import ThinkingSignaturePart

__all__ = [
    "GEMINI_SKIP_SIGNATURE",
    "VIEWS",
    "ToolTurn",
    "WireCall",
    "WireResult",
    "WireView",
    "list_key",
    "signature_fields",
    "system_carriers",
    "tool_turns",
    "view",
    "wire_messages",
    "wire_role",
]


#: Gemini's documented placeholder for a function call without a real thought signature.
GEMINI_SKIP_SIGNATURE = "skip_thought_signature_validator"


@dataclass(frozen=True)
class WireCall:
    id: str | None
    name: str | None
    arguments: Any
    position: int


@dataclass(frozen=True)
class WireResult:
    """A tool result unit. ``container`` is where developer parts appended to it belong."""

    id: str | None
    position: int
    unit: Json
    container: Json
    text: str | None
    is_error: bool | None
    name: str | None = None
    #: Every value that may carry the result's text: Gemini's ``functionResponse.response`` keys are free-form.
    values: tuple[Any, ...] = ()


@dataclass
class ToolTurn:
    """One assistant turn's calls and the results sent before the next assistant turn."""

    position: int
    calls: list[WireCall] = field(default_factory=lambda: [])
    results: list[WireResult] = field(default_factory=lambda: [])


#: Text block types inside a result unit's block list (Anthropic ``text``, Responses
#: ``input_text``; Bedrock's blocks have no type).
_RESULT_TEXT_TYPES = frozenset({None, "text", "input_text"})


def sent_text_blocks(unit: Json) -> list[str]:
    """The text blocks of a tool result unit's block list (Anthropic ``content``, Bedrock
    ``content``, Responses ``output``), in order; a string content is one block."""
    for key in ("content", "output"):
        value = unit.get(key)
        if isinstance(value, str):
            return [value]
        if isinstance(value, list):
            return [
                d["text"]
                for d in map(as_dict, value)  # pyright: ignore[reportUnknownArgumentType]
                if d is not None and d.get("type") in _RESULT_TEXT_TYPES and isinstance(d.get("text"), str)
            ]
    return []


def _first_text(content: Any, text_types: frozenset[str]) -> str | None:
    if isinstance(content, str):
        return content
    for block in as_list(content):
        d = as_dict(block)
        if d is not None and d.get("type") in text_types and isinstance(d.get("text"), str):
            text: str = d["text"]
            return text
    return None


_TEXT = frozenset({"text"})


def _has_text(details: list[Json], text: str, index: object) -> bool:
    """An OpenRouter entry with the unit's text (``text`` or ``summary``) at the unit's ``index``."""
    return any(
        (d.get("text") == text or d.get("summary") == text) and d.get("index") == index for d in details
    )


Signature = tuple[str, str, Json]


class WireView:
    """How one wire's request body says things; this base reads Chat Completions' message shape
    (roles, ``tool_calls`` in the OpenAI function shape, ``tool`` messages with ``tool_call_id``),
    which Cohere v2 Chat keeps too (cohere SDK ChatMessageV2)."""

    #: A run of consecutive assistant-side items is one turn (Responses' items), not one each.
    turn_is_a_run = False
    #: The conversation strictly alternates user and assistant and holds no other role, the
    #: system prompt living only in its top-level carrier (Anthropic, Gemini user/model).
    alternates = False
    #: A system message, when sent, is the first message (Chat Completions).
    system_first = False
    #: Tool results come right after their calls, nothing between (Chat Completions).
    results_follow_calls = False
    #: Call ids are optional: results answer call parts by position and name, so a broken
    #: pairing answers the wrong call (Gemini: "the number of function response parts is equal
    #: to the number of function call parts", google-gemini/gemini-cli#4217).
    pairs_by_position = False
    #: A tool result says whether it failed (``WireResult.is_error``: Anthropic's ``is_error``,
    #: Gemini's ``error`` key, Bedrock's ``status``); on other wires only its text can.
    error_flag = False

    #: A signature rides on the part right before it, whatever that part is (Gemini's
    #: ``thoughtSignature``, ``harness.contract.thinking.google_signature_carrier``).
    signature_on_part_before = False
    #: Every summary text of a signed reasoning item (same id) is sent with it (Responses).
    signed_items = False
    #: A signature of this provider's format from another model is refused (Anthropic's and
    #: Responses' are model-bound); where no evidence says so, sending it is only ``policy``.
    model_bound_signatures = True

    def placeholder_signature(self, value: str) -> bool:
        """Whether ``value`` is the provider's documented stand-in for a missing signature."""
        return False

    def native_unit_sent(
        self, body: Json, items: list[Json], signature: ThinkingSignaturePart, text: str | None
    ) -> bool | None:
        """Whether the native reasoning unit of a signature (and its thinking ``text``) is in the
        body; None when the design expects no unit. Chat: OpenRouter's ``reasoning_details``
        entry at the unit's index (the only Chat provider with signature formats of its own)."""
        sig = signature.signature
        for item in items:
            details = [d for d in (as_dict(x) for x in as_list(item.get("reasoning_details"))) if d]
            for entry in details:
                signed = entry.get("signature") == sig or (
                    entry.get("type") == "reasoning.encrypted" and entry.get("data") == sig
                )
                if signed and (not text or _has_text(details, text, entry.get("index"))):
                    return True
        return False

    def blank(self, text: str) -> bool:
        """Whether a text block holds nothing."""
        return not text

    def empty_part(self, block: Json) -> bool:
        """Whether a content part is empty in a way ``blank`` does not see (Gemini's ``{"text": ""}``)."""
        return False

    def paired_contents(self, previous: Json, item: Json) -> bool:
        """Whether two messages of one role in a row are one turn by the provider's own rule."""
        return False

    def nothing_to_send(self, items: list[Json]) -> bool:
        """Whether ``items`` is the wire's accepted stand-in for a request with no conversation."""
        return False

    def role(self, item: Json) -> str:
        """``user`` / ``assistant`` / ``tool`` / ``system`` / ``developer`` (or the raw value)."""
        return str(item.get("role", ""))

    def calls(self, pos: int, item: Json) -> list[WireCall]:
        out: list[WireCall] = []
        for call in as_list(item.get("tool_calls")):
            d = as_dict(call) or {}
            function = as_dict(d.get("function")) or {}
            out.append(WireCall(d.get("id"), function.get("name"), function.get("arguments"), pos))
        return out

    def results(self, pos: int, item: Json) -> list[WireResult]:
        if item.get("role") != "tool":
            return []
        text = _first_text(item.get("content"), _TEXT)
        return [WireResult(item.get("tool_call_id"), pos, item, item, text, None)]

    def signatures(self, pos: int, item: Json) -> list[Signature]:
        """OpenRouter's ``reasoning_details`` on an assistant message."""
        out: list[Signature] = []
        for detail in as_list(item.get("reasoning_details")):
            d = as_dict(detail) or {}
            if "signature" in d:
                out.append((f"messages[{pos}].reasoning_details.signature", str(d["signature"]), d))
            if d.get("type") == "reasoning.encrypted":
                out.append((f"messages[{pos}].reasoning_details.data", str(d.get("data", "")), d))
        return out


class ChatView(WireView):
    system_first = True
    results_follow_calls = True


class AnthropicView(WireView):
    alternates = True
    error_flag = True

    def native_unit_sent(
        self, body: Json, items: list[Json], signature: ThinkingSignaturePart, text: str | None
    ) -> bool | None:
        sig = signature.signature
        if signature.format == "anthropic-redacted":
            return has_subdict(body, {"type": "redacted_thinking", "data": sig})
        if text is None:
            return None  # a signature with nothing to pair is kept in history, not sent
        return has_subdict(body, {"type": "thinking", "thinking": text, "signature": sig})

    def blank(self, text: str) -> bool:
        """Whitespace-only too: "text content blocks must contain non-whitespace text"."""
        return not text.strip()

    def calls(self, pos: int, item: Json) -> list[WireCall]:
        blocks = [b for b in (as_dict(x) for x in as_list(item.get("content"))) if b]
        return [
            WireCall(b.get("id"), b.get("name"), b.get("input"), pos)
            for b in blocks
            if b.get("type") == "tool_use"
        ]

    def results(self, pos: int, item: Json) -> list[WireResult]:
        out: list[WireResult] = []
        for block in as_list(item.get("content")):
            b = as_dict(block)
            if b is not None and b.get("type") == "tool_result":
                text = _first_text(b.get("content"), _TEXT)
                out.append(WireResult(b.get("tool_use_id"), pos, b, item, text, b.get("is_error") is True))
        return out

    def signatures(self, pos: int, item: Json) -> list[Signature]:
        out: list[Signature] = []
        for block in as_list(item.get("content")):
            b = as_dict(block) or {}
            if b.get("type") == "thinking":
                out.append((f"messages[{pos}].thinking.signature", str(b.get("signature", "")), b))
            elif b.get("type") == "redacted_thinking":
                out.append((f"messages[{pos}].redacted_thinking.data", str(b.get("data", "")), b))
        return out


def _bedrock_blocks(item: Json, key: str) -> list[Json]:
    """Bedrock Converse content blocks are unions keyed by kind (``{"toolUse": {...}}``)."""
    return [b for b in (as_dict((as_dict(x) or {}).get(key)) for x in as_list(item.get("content"))) if b]


class BedrockView(WireView):
    error_flag = True

    def native_unit_sent(
        self, body: Json, items: list[Json], signature: ThinkingSignaturePart, text: str | None
    ) -> bool | None:
        """reasoningContent: reasoningText {text, signature} or redactedContent."""
        sig = signature.signature
        if signature.format == "bedrock-redacted":
            return has_subdict(body, {"redactedContent": sig})
        if text is None:
            return None
        return has_subdict(body, {"reasoningText": {"text": text, "signature": sig}})

    def calls(self, pos: int, item: Json) -> list[WireCall]:
        """Client tools only: a server tool's result rides in the same message."""
        return [
            WireCall(b.get("toolUseId"), b.get("name"), b.get("input"), pos)
            for b in _bedrock_blocks(item, "toolUse")
            if b.get("type") != "server_tool_use"
        ]

    def results(self, pos: int, item: Json) -> list[WireResult]:
        out: list[WireResult] = []
        for b in _bedrock_blocks(item, "toolResult"):
            texts = [(as_dict(c) or {}).get("text") for c in as_list(b.get("content"))]
            text = next((t for t in texts if isinstance(t, str)), None)
            out.append(WireResult(b.get("toolUseId"), pos, b, item, text, b.get("status") == "error"))
        return out

    def signatures(self, pos: int, item: Json) -> list[Signature]:
        out: list[Signature] = []
        for reasoning in _bedrock_blocks(item, "reasoningContent"):
            text = as_dict(reasoning.get("reasoningText")) or {}
            if "signature" in text:
                out.append((f"messages[{pos}].reasoningText.signature", str(text["signature"]), text))
            if "redactedContent" in reasoning:
                out.append((f"messages[{pos}].redactedContent", str(reasoning["redactedContent"]), reasoning))
        return out


_RESPONSES_ASSISTANT_ITEMS = frozenset({"function_call", "reasoning"})


class ResponsesView(WireView):
    turn_is_a_run = True
    signed_items = True

    def native_unit_sent(
        self, body: Json, items: list[Json], signature: ThinkingSignaturePart, text: str | None
    ) -> bool | None:
        """The same signature may recur: any reasoning item that carries the pair."""
        return any(
            not text or has_subdict(item.get("summary"), {"type": "summary_text", "text": text})
            for item in items
            if item.get("type") == "reasoning" and item.get("encrypted_content") == signature.signature
        )

    def nothing_to_send(self, items: list[Json]) -> bool:
        """The only input item is a user message with content ``""``, the turn a request with
        nothing else to send carries (accepted beside instructions: traffic/pydantic-ai/models__test_openai_
        responses__test_openai_responses_runs_with_instructions_only.yaml#0)."""
        return len(items) == 1 and self.role(items[0]) == "user" and items[0].get("content") == ""

    def role(self, item: Json) -> str:
        kind = item.get("type", "message")
        if kind in _RESPONSES_ASSISTANT_ITEMS:
            return "assistant"
        if kind == "function_call_output":
            return "tool"
        return str(item.get("role", kind))

    def calls(self, pos: int, item: Json) -> list[WireCall]:
        if item.get("type") == "function_call":
            return [WireCall(item.get("call_id"), item.get("name"), item.get("arguments"), pos)]
        return []

    def results(self, pos: int, item: Json) -> list[WireResult]:
        if item.get("type") != "function_call_output":
            return []
        text = _first_text(item.get("output"), frozenset({"input_text"}))
        return [WireResult(item.get("call_id"), pos, item, item, text, None)]

    def signatures(self, pos: int, item: Json) -> list[Signature]:
        if item.get("type") != "reasoning":
            return []
        return [(f"input[{pos}].encrypted_content", str(item.get("encrypted_content", "")), item)]


class GeminiView(WireView):
    alternates = True
    error_flag = True
    pairs_by_position = True
    signature_on_part_before = True
    #: No recording or report shows Gemini refusing another Gemini model's signature.
    model_bound_signatures = False

    def placeholder_signature(self, value: str) -> bool:
        """Gemini's placeholder, sent as the string itself or as the base64 of its bytes.

        google-genai (so pydantic-ai) holds ``thought_signature`` as bytes and writes
        ``b"skip_thought_signature_validator"`` base64-encoded; the API accepted that form
        (traffic/pydantic-ai/models__test_google__test_google_model_structured_output.yaml#1).
        Signatures are compared as decoded bytes, so both spellings are the placeholder.
        """
        return (
            value.strip() == GEMINI_SKIP_SIGNATURE or signature_key(value) == GEMINI_SKIP_SIGNATURE.encode()
        )

    def native_unit_sent(
        self, body: Json, items: list[Json], signature: ThinkingSignaturePart, text: str | None
    ) -> bool | None:
        return None  # the rule is the part before the signature (``signature_on_part_before``)

    def empty_part(self, block: Json) -> bool:
        return "text" in block and not str(block["text"]) and len(block) == 1

    def paired_contents(self, previous: Json, item: Json) -> bool:
        """Media after function responses keeps a content of its own (``harness.contract.gemini_contents``)."""
        return media_after_responses(as_list(previous.get("parts")), as_list(item.get("parts")))

    def role(self, item: Json) -> str:
        role = str(item.get("role", "user"))
        return "assistant" if role == "model" else role

    def calls(self, pos: int, item: Json) -> list[WireCall]:
        out: list[WireCall] = []
        for part in as_list(item.get("parts")):
            call = as_dict((as_dict(part) or {}).get("functionCall"))
            if call is not None:
                out.append(WireCall(call.get("id"), call.get("name"), call.get("args"), pos))
        return out

    def results(self, pos: int, item: Json) -> list[WireResult]:
        out: list[WireResult] = []
        for part in as_list(item.get("parts")):
            response = as_dict((as_dict(part) or {}).get("functionResponse"))
            if response is None:
                continue
            payload = as_dict(response.get("response")) or {}
            value = payload.get("output", payload.get("error"))
            text = value if isinstance(value, str) else None
            is_error = "error" in payload
            out.append(
                WireResult(
                    response.get("id"),
                    pos,
                    response,
                    item,
                    text,
                    is_error,
                    response.get("name"),
                    tuple(payload.values()),
                )
            )
        return out

    def signatures(self, pos: int, item: Json) -> list[Signature]:
        out: list[Signature] = []
        for part in as_list(item.get("parts")):
            p = as_dict(part) or {}
            if "thoughtSignature" in p:
                out.append((f"contents[{pos}].thoughtSignature", str(p["thoughtSignature"]), p))
        return out


#: The view of each wire (``harness.contract.providers.WIRE_TABLE``).
VIEWS: dict[str, WireView] = {
    "anthropic": AnthropicView(),
    "gemini": GeminiView(),
    "openai-chat": ChatView(),
    "openai-responses": ResponsesView(),
    "bedrock-converse": BedrockView(),
    "cohere-v2": WireView(),
}


def view(provider: str) -> WireView:
    """The view of the wire ``provider``'s requests are in."""
    return VIEWS[wire_of(provider)]


def list_key(provider: str) -> str:
    """Where the provider's request keeps the conversation (the list prefix stability is judged on)."""
    return wire_entry(wire_of(provider)).list_key


def wire_messages(provider: str, body: Json) -> list[Json]:
    """The conversation list (non-object entries are skipped; I12 reports those)."""
    return [d for d in (as_dict(m) for m in as_list(body.get(list_key(provider)))) if d]


def wire_role(provider: str, item: Json) -> str:
    """``user`` / ``assistant`` / ``tool`` / ``system`` / ``developer`` (or the raw value)."""
    return view(provider).role(item)


@same_args
def tool_turns(provider: str, body: Json) -> tuple[list[ToolTurn], list[WireResult]]:
    """Assistant turns with their calls and following results, plus results before any turn.

    A Responses turn is a run of consecutive assistant-side items (reasoning, message,
    function_call); every other wire has one assistant message per turn.
    """
    reader = view(provider)
    turns: list[ToolTurn] = []
    orphans: list[WireResult] = []
    previous_role = ""
    for pos, item in enumerate(wire_messages(provider, body)):
        role = reader.role(item)
        if role == "assistant":
            if not (reader.turn_is_a_run and previous_role == "assistant" and turns):
                turns.append(ToolTurn(pos))
            turns[-1].calls.extend(reader.calls(pos, item))
        else:
            results = reader.results(pos, item)
            (turns[-1].results if turns else orphans).extend(results)
        previous_role = role
    return turns, orphans


def system_carriers(provider: str, body: Json) -> list[str]:
    """Each place the body carries a system prompt (``top-level`` field or a message position)."""
    found: list[str] = []
    wire = wire_entry(wire_of(provider))
    top = wire.system_field
    if top is not None and body.get(top) not in (None, "", []):
        found.append(top)
    reader = view(provider)
    for pos, item in enumerate(wire_messages(provider, body)):
        if reader.role(item) in ("system", "developer") and item.get("type", "message") == "message":
            found.append(f"{wire.list_key}[{pos}]")
    return found


def signature_fields(provider: str, body: Json) -> list[tuple[str, str, Json]]:
    """(field, value, the unit holding it) for every field that carries opaque reasoning state."""
    reader = view(provider)
    return [
        found
        for pos, item in enumerate(wire_messages(provider, body))
        for found in reader.signatures(pos, item)
    ]
