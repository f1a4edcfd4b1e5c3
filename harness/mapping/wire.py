"""The intermediate form every provider maps from: ``prepare()`` turns a canonical history
into these provider-neutral wire items, and each ``request.py`` maps them to its JSON.

Also the shared thinking-pairing rule (``pair_thinking``), stated once: a signature pairs
with the nearest preceding unpaired thinking text, except that a ``google`` signature
belongs to the part right before it (Gemini's thought-signature rule, DESIGN).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from pydantic import JsonValue

from harness.contract.rendered import RenderWarning
from harness.contract.thinking import REDACTED_FORMATS, google_signature_carrier
from harness.contract.warning_codes import Code
from harness.mapping.file_support import NO_FILES, FileSupport
from harness.model import (
    AddedTool,
    AssistantMessage,
    CacheBreakpoint,
    FilePart,
    ImageFilePart,
    ImageURLPart,
    ProviderPart,
    ServerToolCallPart,
    ServerToolResultPart,
    SourcePart,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    interleave,
    split_blocks,
)
from harness.params import ToolSpec

__all__ = [
    "AssistantUnit",
    "ContentItem",
    "IdPolicy",
    "PartUnit",
    "Prepared",
    "ProviderUnit",
    "ThinkingUnit",
    "Warnings",
    "WireAssistant",
    "WireItem",
    "WireToolAddition",
    "WireToolResult",
    "WireUser",
    "pair_thinking",
    "same_response",
    "with_additions",
]


class Warnings(list[RenderWarning]):
    """A list of warnings with a terse ``add``; every code comes from the registry (``Code``)."""

    def add(
        self,
        message_index: int | None,
        part_index: int | None,
        part_type: str | None,
        code: Code,
        reason: str,
    ) -> None:
        self.append(RenderWarning(message_index, part_index, part_type, code.value, reason))


@dataclass(frozen=True)
class ContentItem:
    """A user-visible content part with where it came from in the canonical history."""

    message_index: int
    part_index: int | None
    part: TextPart | ImageURLPart | ImageFilePart | FilePart


@dataclass
class WireUser:
    """A user turn. Consecutive user turns are NOT merged here; providers that need it merge."""

    index: int
    items: list[ContentItem]
    from_developer: bool = False


@dataclass(frozen=True)
class ThinkingUnit:
    """One native reasoning unit: a thinking text and/or its signature (either may be absent)."""

    text: ThinkingTextPart | None
    text_index: int | None
    signature: ThinkingSignaturePart | None
    signature_index: int | None

    @property
    def redacted(self) -> bool:
        return self.signature is not None and self.signature.format in REDACTED_FORMATS


@dataclass(frozen=True)
class PartUnit:
    part: TextPart | ImageURLPart | ImageFilePart | FilePart | ToolCallPart
    index: int


@dataclass(frozen=True)
class ProviderUnit:
    """A server tool call or result, or a source: sent natively only to its own provider
    (``prepare`` drops the others, warned, before an adapter sees them)."""

    part: ProviderPart
    index: int


AssistantUnit = ThinkingUnit | PartUnit | ProviderUnit


@dataclass
class WireAssistant:
    index: int
    message: AssistantMessage
    units: list[AssistantUnit]
    # Canonical call_id -> id to send (identical unless the provider's id rules forced a change).
    call_ids: dict[str, str] = field(default_factory=lambda: {})
    # True when this message is a further piece of the same model response as the assistant
    # message right before it (same id or response_id; seed 001's per-block shape).
    continues: bool = False


@dataclass
class WireToolResult:
    """A tool result (real or synthesized for a dangling call) with developer parts appended."""

    index: int | None  # None when synthesized
    call_id: str  # the id to send
    tool_name: str
    status: Literal["success", "error", "aborted"]
    output_text: str
    images: list[ContentItem]  # the result's parts: images and files, in order
    appended: list[ContentItem] = field(default_factory=lambda: [])
    synthesized: bool = False
    # Deferred tools the result loads (client-side tool search), for providers that take them.
    discovered_tools: list[str] = field(default_factory=lambda: [])
    output_json: JsonValue = None  # the structured result, when the tool gave one
    text_blocks: list[int] | None = None  # block lengths within output_text, when several
    #: Per part of the tool message (by part index): the text blocks before it, when interleaved.
    part_positions: list[int] | None = None
    #: The tool message's cache breakpoint: the prompt cache ends after this result.
    cache_breakpoint: CacheBreakpoint | None = None

    @property
    def is_error(self) -> bool:
        return self.status != "success"

    def text_block_list(self) -> list[str]:
        """The text blocks to send: ``output_text`` split where the tool split it (one block without)."""
        return split_blocks(self.output_text, self.text_blocks)

    def content_in_order(self) -> list[str | ContentItem]:
        """The text blocks and the result's images and files in the order the tool gave them (a
        part's place is read by its part index, so a part dropped earlier does not shift the others)."""
        if self.part_positions is None:
            return [*self.text_block_list(), *self.images]
        positions = sorted(self._position(ci) for ci in self.images)
        return interleave(self.text_block_list(), list(self.images), positions)

    def _position(self, item: ContentItem) -> int:
        """How many text blocks come before this image or file (all of them where its place is not known)."""
        positions = self.part_positions
        if positions is not None and item.part_index is not None and item.part_index < len(positions):
            return positions[item.part_index]
        return len(self.text_block_list())

    @property
    def interleaved(self) -> bool:
        """Whether some image or file of the result stands before some of its text."""
        blocks = self.text_block_list()
        return self.part_positions is not None and any(
            any(t for t in blocks[self._position(ci) :]) for ci in self.images
        )


@dataclass
class WireToolAddition:
    """Tools added at this point of the conversation (a system message's ``added_tools``), for the
    providers with a place for them (``prepare`` declares them up front elsewhere, warned). Kept
    beside the items (``Prepared.additions``), not among them: an adapter that takes them sends
    each before the first item of a later history index (``with_additions``)."""

    index: int
    tools: list[AddedTool]


WireItem = WireUser | WireAssistant | WireToolResult


def with_additions(
    items: list[WireItem], additions: list[WireToolAddition]
) -> list[WireItem | WireToolAddition]:
    """The items with each tool addition before the first item that comes later in the history."""
    out: list[WireItem | WireToolAddition] = []
    pending = sorted(additions, key=lambda a: a.index)
    for item in items:
        while pending and item.index is not None and pending[0].index < item.index:
            out.append(pending.pop(0))
        out.append(item)
    return out + pending


#: A part kind that a content item holds (what ``map_content`` rewrites in an assistant message).
_ContentPart = TypeVar("_ContentPart", bound=TextPart | ImageURLPart | ImageFilePart | FilePart)


def map_content(
    items: list[WireItem], part_type: type[_ContentPart], fix: Callable[[ContentItem], ContentItem]
) -> None:
    """Apply ``fix`` to every content item of the wire items, in place: a user's items, a tool
    result's images and what follows it, and an assistant's parts of ``part_type`` (one walk for
    every rule that rewrites a part where it stands)."""
    for item in items:
        if isinstance(item, WireUser):
            item.items = [fix(ci) for ci in item.items]
        elif isinstance(item, WireToolResult):
            item.images = [fix(ci) for ci in item.images]
            item.appended = [fix(ci) for ci in item.appended]
        else:
            units: list[AssistantUnit] = []
            for unit in item.units:
                if isinstance(unit, PartUnit) and isinstance(unit.part, part_type):
                    fixed = fix(ContentItem(item.index, unit.index, unit.part))
                    assert isinstance(fixed.part, part_type)
                    unit = PartUnit(fixed.part, unit.index)
                units.append(unit)
            item.units = units


@dataclass
class Prepared:
    system: list[tuple[int | None, str]]  # (canonical index or None for params.system, text)
    items: list[WireItem]
    tools: list[ToolSpec]
    warnings: Warnings
    # Canonical tool name -> the name to send (see harness.mapping.toolnames).
    names: dict[str, str] = field(default_factory=lambda: {})
    # What the provider and model take as files (harness.mapping.files).
    files: FileSupport = NO_FILES
    # Tools added mid-conversation, for an adapter that takes them (``with_additions``).
    additions: list[WireToolAddition] = field(default_factory=lambda: [])

    def name(self, canonical: str) -> str:
        return self.names.get(canonical, canonical)


@dataclass(frozen=True)
class IdPolicy:
    """What a provider accepts as a tool-call id. Ids that fail are mapped, consistently."""

    pattern: str | None = None
    max_length: int | None = None

    def ok(self, call_id: str) -> bool:
        if not call_id:
            return False
        if self.max_length is not None and len(call_id) > self.max_length:
            return False
        return self.pattern is None or re.fullmatch(self.pattern, call_id) is not None

    def map(self, call_id: str) -> str:
        if self.ok(call_id):
            return call_id
        digest = hashlib.sha256(call_id.encode("utf-8", "surrogatepass")).hexdigest()[:10]
        stem = re.sub(r"[^A-Za-z0-9_-]", "_", call_id) or "call"
        limit = (self.max_length or 64) - len(digest) - 1
        return f"{stem[:limit]}_{digest}"


def pair_thinking(message: AssistantMessage) -> list[AssistantUnit]:
    """Group an assistant message's parts into native units, keeping order.

    A signature pairs with the nearest preceding unpaired thinking text; the unit sits
    at the text's position. Redacted thinking never pairs, and a ``google`` signature
    pairs only with a thinking text right before it (it belongs to the part it follows). A signature with nothing
    to pair becomes a signature-only unit at its own position.
    """
    slots: list[AssistantUnit | None] = []
    open_texts: list[int] = []  # slot positions of unpaired thinking texts
    for idx, part in enumerate(message.parts):
        if isinstance(part, ThinkingTextPart):
            open_texts.append(len(slots))
            slots.append(ThinkingUnit(part, idx, None, None))
        elif isinstance(part, ThinkingSignaturePart):
            # A google signature belongs to the part right before it (DESIGN); it pairs with a
            # thinking text only when that text is that part.
            carrier = google_signature_carrier(message.parts, idx)
            google_unpaired = part.format == "google" and not (
                carrier is not None
                and isinstance(message.parts[carrier], ThinkingTextPart)
                and open_texts
                and open_texts[-1] == len(slots) - 1
            )
            if part.format not in REDACTED_FORMATS and not google_unpaired and open_texts:
                pos = open_texts.pop()
                prev = slots[pos]
                assert isinstance(prev, ThinkingUnit)
                slots[pos] = ThinkingUnit(prev.text, prev.text_index, part, idx)
            else:
                slots.append(ThinkingUnit(None, None, part, idx))
        elif isinstance(part, ServerToolCallPart | ServerToolResultPart | SourcePart):
            slots.append(ProviderUnit(part, idx))
        else:
            slots.append(PartUnit(part, idx))
    return [s for s in slots if s is not None]


def same_response(a: tuple[str | None, str | None], b: tuple[str | None, str | None]) -> bool:
    """Pieces of one model response share a message id or a response id (seed 001); each side is
    ``(message id, response id)``."""
    return (a[0] is not None and a[0] == b[0]) or (a[1] is not None and a[1] == b[1])
