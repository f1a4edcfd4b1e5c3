"""I2 thinking-pairing: native pairs go out as one native unit, byte-exact; nothing foreign is signed.

Rule (DESIGN "Thinking pairing"): a signature pairs with the nearest preceding unpaired
thinking text of its message and the pair maps to one native unit (Anthropic thinking
block; Responses reasoning item; OpenRouter ``reasoning_details``; for Gemini the
``google`` signature rides on the part right before it). A signature of another
provider or model, an empty one (interrupted stream, field lesson 2) or none at all is
never sent as native, and foreign thinking is never re-sent as literal text (lesson 1).
"""

from __future__ import annotations

from harness.contract.kinds import Kind
from harness.contract.providers import provider_entry
from harness.contract.thinking import NATIVE_SIGNATURE_FORMATS, google_signature_carrier
from harness.invariants.base import (
    CheckContext,
    Json,
    Violation,
    as_dict,
    as_list,
    leaves,
    signature_key,
)
from harness.invariants.canonical import (
    ThinkingPair,
    effective_model,
    is_native,
    sendable_strings,
    thinking_pairs,
)
from harness.invariants.memo import TextIndex
from harness.invariants.wire import GEMINI_SKIP_SIGNATURE, signature_fields, view, wire_messages
from harness.model import (
    AssistantMessage,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    UserMessage,
)

__all__ = ["GEMINI_SKIP_SIGNATURE", "check_thinking_pairing"]

ID = "I2"
# A value shorter than this counts as leaked only where a whole string equals it (coincidences).
_LEAK_SUBSTRING_MIN = 24
# Where content, reasoning or reasoning state can travel (not ids, roles, types, model names).
_CONTENT_KEYS = frozenset(
    {"text", "content", "output", "error", "summary", "thinking", "data", "signature"}
    | {"encrypted_content", "thoughtSignature", "arguments", "reasoning", "reasoning_content", "tool_plan"}
)


def check_thinking_pairing(ctx: CheckContext) -> list[Violation]:
    model = effective_model(ctx.provider, ctx.params, ctx.body)
    reader = view(ctx.provider)
    out: list[Violation] = []
    native: set[str] = set()
    native_texts: set[int] = set()  # id() of thinking parts sent inside a native unit
    for index, event in enumerate(ctx.history):
        if not isinstance(event, AssistantMessage):
            continue
        if reader.signature_on_part_before:
            out += _on_part_before(ctx, index, event, model, native, native_texts)
            continue
        for pair in thinking_pairs(index, event):
            if not is_native(pair.signature, pair.text, ctx.provider, model):
                continue
            native.add(pair.signature.signature)
            if pair.text is not None:
                native_texts.add(id(pair.text))
            native_texts.update(id(t) for t in _same_item_texts(ctx.provider, event, pair))
            text = pair.text.text if pair.text is not None else None
            found = reader.native_unit_sent(
                ctx.body, wire_messages(ctx.provider, ctx.body), pair.signature, text
            )
            warned = ctx.warned(index, pair.signature_index, exact=True) or (
                pair.text_index is not None and ctx.warned(index, pair.text_index, exact=True)
            )
            if found is False and not warned:
                out.append(
                    ctx.violation(
                        ID,
                        index,
                        f"native thinking pair (part {pair.text_index}, signature part {pair.signature_index}) "
                        "is not sent as one native unit and no warning names it",
                        {
                            "text": pair.text.text if pair.text else None,
                            "signature": pair.signature.signature,
                        },
                        kind=ctx.unwarned_kind(user_content=False),
                    )
                )
    if provider_entry(ctx.provider).reasoning_as_text:
        native_texts |= _reasoning_content_texts(ctx)
    out += _signature_fields(ctx, native)
    out += _leaks(ctx, model, native_texts)
    return out


def _reasoning_content_texts(ctx: CheckContext) -> set[int]:
    """The dialects' native reasoning is unsigned text: a thinking part whose text an assistant
    message's ``reasoning_content`` carries is sent as native reasoning, not leaked."""
    assistant = [m for m in wire_messages(ctx.provider, ctx.body) if m.get("role") == "assistant"]
    sent = [m["reasoning_content"] for m in assistant if isinstance(m.get("reasoning_content"), str)]
    # Cohere v2: ``{"type": "thinking", "thinking": text}`` content items (unsigned text too).
    items = [as_dict(item) for m in assistant for item in as_list(m.get("content"))]
    sent += [
        str(d["thinking"])
        for d in items
        if d and d.get("type") == "thinking" and isinstance(d.get("thinking"), str)
    ]
    return {
        id(part)
        for event in ctx.history
        if isinstance(event, AssistantMessage)
        for part in event.parts
        if isinstance(part, ThinkingTextPart) and part.text and any(part.text in text for text in sent)
    }


def _same_item_texts(provider: str, message: AssistantMessage, pair: ThinkingPair) -> list[ThinkingTextPart]:
    """Responses: every summary text of the signed reasoning item (same ``rs_`` id) is native too."""
    if not view(provider).signed_items:
        return []
    item_id = pair.signature.id or (pair.text.id if pair.text else None)
    if not item_id:
        return []
    return [p for p in message.parts if isinstance(p, ThinkingTextPart) and p.id == item_id]


def _on_part_before(
    ctx: CheckContext,
    index: int,
    message: AssistantMessage,
    model: str,
    native: set[str],
    native_texts: set[int],
) -> list[Violation]:
    """Gemini: a ``google`` signature belongs to the part right before it, whatever that part is."""
    out: list[Violation] = []
    parts = message.parts
    for idx, sig in enumerate(parts):
        carrier_index = (
            google_signature_carrier(parts, idx) if isinstance(sig, ThinkingSignaturePart) else None
        )
        if carrier_index is None:
            continue
        assert isinstance(sig, ThinkingSignaturePart)
        carrier = parts[carrier_index]
        text = carrier if isinstance(carrier, ThinkingTextPart) else None
        if not is_native(sig, text, ctx.provider, model):
            continue
        native.add(sig.signature)
        needle: Json = {}
        if isinstance(carrier, ThinkingTextPart):
            native_texts.add(id(carrier))
            needle = {"text": carrier.text, "thought": True}
        elif isinstance(carrier, TextPart):
            needle = {"text": carrier.text}
        carriers = _parts_with(
            ctx.provider, ctx.body, sig.signature
        )  # the same bytes, whatever the base64 alphabet
        if isinstance(carrier, ToolCallPart):
            found = any(
                (as_dict(d.get("functionCall")) or {}).get("name") == carrier.tool_name for d in carriers
            )
        else:
            found = any(all(d.get(k) == v for k, v in needle.items()) for d in carriers)
        if (
            not found
            and not ctx.warned(index, idx, exact=True)
            and not ctx.warned(index, idx - 1, exact=True)
        ):
            out.append(
                ctx.violation(
                    ID,
                    index,
                    f"google signature (part {idx}) is not sent on the part before it ({carrier.type}) "
                    "and no warning names it",
                    {"carrier": carrier.type, "signature": sig.signature},
                    kind=_gemini_kind(ctx, index, carrier, model),
                )
            )
    return out


def _gemini_kind(ctx: CheckContext, index: int, carrier: object, model: str) -> Kind:
    """Gemini 3 validates the signatures of function calls in the current turn (a 400 without them).

    https://ai.google.dev/gemini-api/docs/thought-signatures: "function calls in the current
    turn ... must include their thought signature"; elsewhere a lost signature only costs
    the model its reasoning context.
    """
    if isinstance(carrier, ToolCallPart) and model.startswith("gemini-3") and _in_current_turn(ctx, index):
        return "reject"
    return ctx.unwarned_kind(user_content=False)


def _in_current_turn(ctx: CheckContext, index: int) -> bool:
    """No user message with text after ``index``: the turn is still running (tool results only)."""
    return not any(
        isinstance(e, UserMessage) and any(isinstance(p, TextPart) for p in e.parts)
        for e in ctx.history[index + 1 :]
    )


def _parts_with(provider: str, body: Json, signature: str) -> list[Json]:
    found: list[Json] = []
    for item in wire_messages(provider, body):
        for part in as_list(item.get("parts")):
            p = as_dict(part)
            if p is not None and signature_key(str(p.get("thoughtSignature", ""))) == signature_key(
                signature
            ):
                found.append(p)
    return found


def _foreign_kind(ctx: CheckContext, value: str) -> Kind:
    """How the provider treats a signature that is not native to this call's provider and model.

    - Another provider's signature, or one that no history part carries (altered): reject.
      Anthropic answers an altered signature with a 400 (field lesson 11,
      NousResearch/hermes-agent PR 24107; openclaw/openclaw issue 91205 for another provider's).
    - This provider's signature from another model: Anthropic's are model-bound (400 "Invalid
      signature in thinking block" after a model switch: vybestack/llxprt-code issue 2335,
      openclaw/openclaw issue 107221) and so is Responses' ``encrypted_content``
      (``invalid_encrypted_content`` after a model switch: openai/codex issue 17541): reject.
      No recording or report shows Gemini rejecting another Gemini model's signature: sending
      it only differs from the policy of dropping it, so ``policy``.
    """
    key = signature_key(value)
    for event in ctx.history:
        if not isinstance(event, AssistantMessage):
            continue
        for part in event.parts:
            if not isinstance(part, ThinkingSignaturePart) or signature_key(part.signature) != key:
                continue
            own_format = part.format in NATIVE_SIGNATURE_FORMATS.get(ctx.provider, frozenset[str]())
            return "policy" if own_format and not view(ctx.provider).model_bound_signatures else "reject"
    return "reject"


def _signature_fields(ctx: CheckContext, native: set[str]) -> list[Violation]:
    out: list[Violation] = []
    native_keys = {signature_key(s) for s in native}
    for where, value, unit in signature_fields(ctx.provider, ctx.body):
        if not value:
            out.append(
                ctx.violation(ID, None, f"empty or missing signature sent at {where}", unit, kind="reject")
            )
        elif signature_key(value) not in native_keys and not view(ctx.provider).placeholder_signature(value):
            out.append(
                ctx.violation(
                    ID,
                    None,
                    f"signature at {where} is not a native signature of this provider and model",
                    unit,
                    kind=_foreign_kind(ctx, value),
                )
            )
    return out


def _leaks(ctx: CheckContext, model: str, native_texts: set[int]) -> list[Violation]:
    """Foreign signatures and unsent thinking must not reappear anywhere (e.g. as literal text)."""
    sendable = sendable_strings(ctx.history, ctx.params, ctx.provider, model)
    body_leaves = [leaf for key, leaf in leaves(ctx.body) if key in _CONTENT_KEYS]
    # Indexed once: a pass over the body (and the sendable strings) per part is quadratic.
    sendable_index, leaf_index = TextIndex(list(sendable)), TextIndex(body_leaves)
    stripped_leaves = {leaf.strip() for leaf in body_leaves}
    out: list[Violation] = []
    for index, event in enumerate(ctx.history):
        if not isinstance(event, AssistantMessage):
            continue
        for pidx, part in enumerate(event.parts):
            if isinstance(part, ThinkingTextPart) and id(part) not in native_texts:
                value, what = part.text.strip(), "thinking text that is not sent as native reasoning"
            elif isinstance(part, ThinkingSignaturePart) and part.signature not in sendable_index.exact:
                value, what = (
                    part.signature.strip(),
                    "a signature that is not native to this provider and model",
                )
            else:
                continue
            if not value or sendable_index.contains(value):  # ``explained``
                continue
            if value in stripped_leaves or (len(value) >= _LEAK_SUBSTRING_MIN and leaf_index.contains(value)):
                out.append(
                    ctx.violation(
                        ID,
                        index,
                        f"part {pidx}: {what} appears in the request",
                        {"value": value},
                        kind="policy",
                    )
                )
    return out
