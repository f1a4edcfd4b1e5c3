"""I14 files: files are counted as images are. Every file part of the history reaches the request
(its bytes, URL, file id or cloud URI; a text document as its text), in the order the history
gives them, or a warning names it; a tool result's files reach the request; a tool result's
structured value reaches it (as a JSON object, or as text on a text-only wire); a tool result
given as several text blocks (``text_blocks``) is sent as those blocks, in order, on the wires
whose tool result is a block list (Anthropic, Bedrock Converse, Responses); a wire that takes one
string gets ``output_text``, the blocks' concatenation, which is every character the model reads;
a result whose text follows an image or file (``part_positions``) is sent in that order on those
wires (elsewhere ``tool-result-order-lost`` names it); a document given as its own text blocks
(``text_chunks``) counts as sent when each block is.

A file counts as sent when its source is in the body: the base64 bytes inside some string (a
data URL holds them), the URL, the file id (a Gemini ``files/<id>`` inside its URI), the cloud
URI; a text document also when its decoded text is. Order: the first position each sent file's
source has in the body follows the history's order, among files sent without a warning.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable

from harness.contract.providers import wire_of
from harness.invariants.base import CheckContext, Json, Violation, as_dict, as_list, dicts, leaves
from harness.invariants.canonical import CanonicalCall, answered_results, result_sent_ids, sent_call_ids
from harness.invariants.wire import WireResult, sent_text_blocks, tool_turns
from harness.model import DeveloperMessage, FilePart, ToolResultMessage, UserMessage

__all__ = ["check_files", "file_sent", "structured_text_sent"]

ID = "I14"


def _text_of(part: FilePart) -> str | None:
    if part.data is None or not part.media_type.lower().startswith("text/"):
        return None
    try:
        return base64.b64decode(part.data, validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return None


def _source(part: FilePart) -> str:
    return part.data or part.url or part.file_id or part.uri or ""


def _chunks(part: FilePart) -> list[str]:
    """A document given as its own text blocks (``text_chunks``): the non-blank ones."""
    return [c for c in part.chunk_texts() if c.strip()] if part.text_chunks is not None else []


def file_sent(part: FilePart, found: Callable[[str], bool]) -> bool:
    """Whether the file's source (or a text document's text, or each of its text blocks) is in
    the body, by ``found`` (text search)."""
    if found(_source(part)):
        return True
    text = _text_of(part)
    if text is not None and bool(text.strip()) and found(text):
        return True
    chunks = _chunks(part)
    return bool(chunks) and all(found(c) for c in chunks)


def _position(part: FilePart, strings: list[str], start: int = 0) -> int | None:
    """The index of the first body string from ``start`` holding the file's source (or its text,
    or its first text block)."""
    needles = [n for n in (_source(part), (_text_of(part) or "").strip(), *_chunks(part)[:1]) if n]
    for pos in range(start, len(strings)):
        if any(n in strings[pos] for n in needles):
            return pos
    return None


def _structured_sent(value: object, body: Json, strings: list[str]) -> bool:
    """The structured value is in the body: an equal JSON value, or its JSON text in some string."""
    if any(d == value or value in d.values() for d in dicts(body)):
        return True
    text = json.dumps(value, ensure_ascii=False)
    compact = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return any(text in s or compact in s for s in strings) or any(_parses_to(s, value) for s in strings)


def _parses_to(text: str, value: object) -> bool:
    if text[:1] not in ("{", "["):
        return False
    try:
        return json.loads(text) == value
    except (json.JSONDecodeError, RecursionError):
        return False


def structured_text_sent(output_text: str, output_json: object, body: Json) -> bool:
    """A result's text that is the JSON of its structured value, sent as that value (Gemini's
    response object, Bedrock's json block): the model reads the same result."""
    if output_json is None or not _parses_to(output_text.strip(), output_json):
        return False
    return any(d == output_json or output_json in d.values() for d in dicts(body))


#: Wires whose tool result holds a list of text blocks.
_BLOCK_WIRES = frozenset({"anthropic", "bedrock-converse", "openai-responses"})


def _sent_results(
    ctx: CheckContext,
) -> tuple[dict[str, str], dict[int, str], dict[object, list[WireResult]], dict[int, CanonicalCall]]:
    """Where each tool result went: the sent id of each call and of each result message, the wire
    results by sent id, and the history's answered result messages (one lookup for both checks)."""
    ids = sent_call_ids(ctx.history, ctx.provider, ctx.body)
    per_result = result_sent_ids(ctx.history, ctx.provider, ctx.body)
    turns, orphans = tool_turns(ctx.provider, ctx.body)
    by_id: dict[object, list[WireResult]] = {}
    for result in [r for t in turns for r in t.results] + orphans:
        by_id.setdefault(result.id, []).append(result)
    return ids, per_result, by_id, answered_results(ctx.history)


def _block_violations(ctx: CheckContext) -> list[Violation]:
    """A result given as several text blocks goes as those blocks (blank ones aside: providers
    reject blank text) at the start of its unit; developer text appended to it may follow."""
    if wire_of(ctx.provider) not in _BLOCK_WIRES:
        return []
    split = [(i, e) for i, e in enumerate(ctx.history) if isinstance(e, ToolResultMessage) and e.text_blocks]
    if not split:
        return []
    ids, per_result, by_id, answered = _sent_results(ctx)
    out: list[Violation] = []
    for index, event in split:
        if index not in answered or ctx.warned(index) or event.output_json is not None:
            continue  # unsent results are I7/I13's; a structured value may replace the text (Bedrock)
        mine = by_id.get(per_result.get(index, ids.get(event.call_id, event.call_id)), [])
        expected = [b for b in event.text_block_list() if b.strip()]
        if mine and not any(sent_text_blocks(r.unit)[: len(expected)] == expected for r in mine):
            out.append(
                ctx.violation(
                    ID,
                    index,
                    f"the tool result's {len(expected)} text blocks are not sent as those blocks",
                    {"text_blocks": expected, "sent": [sent_text_blocks(r.unit) for r in mine]},
                    kind="degrade",
                )
            )
    return out


def _kinds(unit: Json) -> list[str]:
    """A result unit's block list as kinds in order: ``text`` for a text block, ``part`` else."""
    for key in ("content", "output"):
        blocks = [as_dict(b) for b in as_list(unit.get(key))]
        if blocks:
            return [
                "text" if d is not None and d.get("type") in _TEXT_TYPES and "text" in d else "part"
                for d in blocks
            ]
    return []


#: A text block's ``type`` in a result's block list (Bedrock's blocks have none).
_TEXT_TYPES = frozenset({None, "text", "input_text"})


def _order_violations(ctx: CheckContext) -> list[Violation]:
    """A result whose text follows an image or file (``part_positions``) is sent in that order on
    the block-list wires, unless a warning names the result or one of its parts."""
    if wire_of(ctx.provider) not in _BLOCK_WIRES:
        return []
    mixed = [
        (i, e) for i, e in enumerate(ctx.history) if isinstance(e, ToolResultMessage) and e.part_positions
    ]
    if not mixed:
        return []
    ids, per_result, by_id, answered = _sent_results(ctx)
    out: list[Violation] = []
    for index, event in mixed:
        if index not in answered or ctx.warned(index) or event.output_json is not None:
            continue
        if any(ctx.warned(index, p, exact=True) for p in range(len(event.parts))):
            continue
        expected = [
            "text" if isinstance(entry, str) else "part"
            for entry in event.content_in_order()
            if not isinstance(entry, str) or entry.strip()
        ]
        mine = by_id.get(per_result.get(index, ids.get(event.call_id, event.call_id)), [])
        if mine and not any(_kinds(r.unit)[: len(expected)] == expected for r in mine):
            out.append(
                ctx.violation(
                    ID,
                    index,
                    "the tool result's text and files are not sent in the order the tool gave them",
                    {"expected": expected, "sent": [_kinds(r.unit) for r in mine]},
                    kind="degrade",
                )
            )
    return out


def check_files(ctx: CheckContext) -> list[Violation]:
    strings = [leaf for _, leaf in leaves(ctx.body)]
    out: list[Violation] = _block_violations(ctx) + _order_violations(ctx)
    cursor = 0  # files sent without a warning appear in history order: each at or after the last
    for index, event in enumerate(ctx.history):
        if not isinstance(event, UserMessage | DeveloperMessage | ToolResultMessage):
            continue
        for pidx, part in enumerate(event.parts):
            if not isinstance(part, FilePart) or ctx.warned(index, pidx):
                continue
            pos = _position(part, strings, cursor)
            if pos is not None:
                cursor = pos
            elif _position(part, strings) is not None:
                out.append(
                    ctx.violation(
                        ID,
                        index,
                        f"part {pidx} (file) is sent before a file the history gives earlier (reordered, no warning)",
                        part.model_dump(exclude_none=True),
                        kind="degrade",
                    )
                )
            else:
                out.append(
                    ctx.violation(
                        ID,
                        index,
                        f"part {pidx} (file, {part.media_type}) is neither in the request nor named by a warning",
                        part.model_dump(exclude_none=True),
                        kind=ctx.unwarned_kind(user_content=True),
                    )
                )
        structured = event.output_json if isinstance(event, ToolResultMessage) else None
        if (
            structured is not None
            and not ctx.warned(index)
            and not _structured_sent(structured, ctx.body, strings)
        ):
            out.append(
                ctx.violation(
                    ID,
                    index,
                    "the tool result's structured value (output_json) is neither in the request nor "
                    "named by a warning",
                    {"output_json": structured},
                    kind=ctx.unwarned_kind(user_content=True),
                )
            )
    return out
