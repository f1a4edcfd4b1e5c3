"""OpenAI Responses reasoning items: thinking units -> ``reasoning`` input items (summary texts plus
``encrypted_content``), and the per-render context the item mapping shares (ids already sent).

The decisions are in DECISIONS.md (Reasoning, item ids only beside their reasoning)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.contract.warning_codes import Code
from harness.mapping.toolbox import (
    signature_problem,
    thinking_text_problem,
)
from harness.mapping.wire import (
    ThinkingUnit,
    Warnings,
)
from harness.model import ThinkingTextPart
from harness.providers.openai_responses.profile import PROVIDER_ID, accepts_reasoning

__all__ = ["Ctx", "reasoning_item", "reasoning_items", "same_item", "warn_signature", "warn_text"]

JSON = dict[str, Any]


@dataclass
class Ctx:
    """Per-render state: warnings, the model sent, and item ids already used (the API rejects duplicates)."""

    warnings: Warnings
    model: str
    used_ids: set[str] = field(default_factory=lambda: set())
    # id() of each reasoning item built -> the canonical parts it carries (for later warnings).
    origins: dict[int, list[tuple[int, int | None, str]]] = field(default_factory=lambda: {})

    def claim(self, item_id: str) -> bool:
        """Reserve an item id; False if an earlier item already sent it."""
        if item_id in self.used_ids:
            return False
        self.used_ids.add(item_id)
        return True


def reasoning_items(index: int, run: list[ThinkingUnit], ctx: Ctx) -> tuple[list[JSON], bool]:
    """ReasoningItem per signed unit of a run of consecutive thinking units (docs: guides/reasoning).

    Texts waiting before an ``openai-responses`` signature join its summary when their
    id matches (another format's signature pairs with one text only, as canonical
    pairing says); texts that end up with no native signature cannot be replayed
    (field lesson 5). Also returns whether every part of the run was sent.
    """
    items: list[JSON] = []
    complete = True
    pending: list[ThinkingUnit] = []
    for unit in run:
        if unit.signature is None:
            pending.append(unit)
            continue
        item_id = unit.signature.id or (unit.text.id if unit.text else None)
        groups = unit.signature.format == "openai-responses"
        members = [u for u in pending if groups and same_item(u.text, item_id)]
        for u in pending:
            if not any(u is m for m in members):
                complete = False
                warn_text(
                    index, u, Code.THINKING_UNSIGNED, "reasoning text without encrypted content; dropped", ctx
                )
        pending = []
        if same_item(unit.text, item_id):
            members.append(unit)
        elif unit.text is not None:
            complete = False
            warn_text(index, unit, Code.THINKING_UNSIGNED, "reasoning text of another item id; dropped", ctx)
        item = reasoning_item(index, unit, members, item_id, ctx)
        if item is None:
            complete = False
        else:
            items.append(item)
    for u in pending:
        complete = False
        warn_text(index, u, Code.THINKING_UNSIGNED, "reasoning text without encrypted content; dropped", ctx)
    return items, complete


def same_item(text: ThinkingTextPart | None, item_id: str | None) -> bool:
    return text is not None and (text.id is None or text.id == item_id)


def reasoning_item(
    index: int, signed: ThinkingUnit, members: list[ThinkingUnit], item_id: str | None, ctx: Ctx
) -> JSON | None:
    """One ReasoningItem with encrypted_content, or None (every part warned) when it cannot be sent.

    An item without a Responses ``rs_`` id is sent without ``id`` (the API takes it with
    its encrypted_content: openai/codex never serialises a reasoning item's id, see
    DECISIONS.md); a non-``rs_`` id is not sent, with a ``reasoning-no-id`` warning.
    """
    assert signed.signature is not None
    problem = signature_problem(signed.signature, PROVIDER_ID, ctx.model)
    code = Code.THINKING_FOREIGN
    if problem is None and not accepts_reasoning(ctx.model):
        problem = f"model '{ctx.model}' is not a reasoning model and accepts no reasoning items"
        code = Code.THINKING_UNSUPPORTED
    if problem is None and item_id and not item_id.startswith("rs_"):
        # Sent without the id, never dropped: the encrypted content is what the model needs.
        ctx.warnings.add(
            index,
            signed.signature_index,
            "thinking_signature",
            Code.REASONING_NO_ID,
            f"reasoning item id '{item_id}' is not a Responses rs_ id; the item is sent without an id",
        )
        item_id = None
    if problem is None and item_id and not ctx.claim(item_id):
        problem = f"reasoning item '{item_id}' already sent in this request"
        code = Code.REASONING_DUPLICATE_ID
    if problem is not None:
        for u in members:
            warn_text(index, u, code, f"{problem}; reasoning item dropped", ctx)
        warn_signature(index, signed, code, f"{problem}; reasoning item dropped", ctx)
        return None
    summary: list[JSON] = []
    for u in members:
        assert u.text is not None
        text_problem = thinking_text_problem(u.text, ctx.model)
        if text_problem is not None:
            warn_text(index, u, Code.THINKING_MODEL_MISMATCH, f"{text_problem}; left out of the summary", ctx)
        elif u.text.text:
            summary.append({"type": "summary_text", "text": u.text.text})
    item: JSON = {"type": "reasoning"}
    if item_id:
        item["id"] = item_id
    item["summary"] = summary
    item["encrypted_content"] = signed.signature.signature
    ctx.origins[id(item)] = [
        *((index, u.text_index, "thinking_text") for u in members),
        (index, signed.signature_index, "thinking_signature"),
    ]
    return item


def warn_text(index: int, unit: ThinkingUnit, code: Code, reason: str, ctx: Ctx) -> None:
    ctx.warnings.add(index, unit.text_index, "thinking_text", code, reason)


def warn_signature(index: int, unit: ThinkingUnit, code: Code, reason: str, ctx: Ctx) -> None:
    ctx.warnings.add(index, unit.signature_index, "thinking_signature", code, reason)
