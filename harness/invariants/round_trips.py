"""I11 round-trips: what is written can be read back unchanged.

- Codec: a history written as JSON Lines reads back equal, and writes the same bytes again.
- Output side: for each assistant message, the target's stream parser reads the
  provider stream ``harness.emit`` writes for it back into the same message
  (``parse(emit(message)) == message``; ``id`` and ``created_at`` are not stream
  content and are left out).
- Chunk boundaries: the same stream cut at every offset where a decoder can go wrong
  (``harness.invariants.cuts``) and in 7- and 64-byte chunks parses identically (message,
  stream items and errors), since real transports split a stream anywhere.
"""

from __future__ import annotations

import contextlib
import json
import re
import sys
from typing import Any, cast

from harness.codec import dumps_history, loads_history
from harness.contract.chunking import Chunking
from harness.contract.kinds import Kind
from harness.contract.results import CallResult, item_to_json
from harness.contract.target import TargetRefusal
from harness.invariants.base import CheckContext, Violation, snippet
from harness.invariants.cuts import decoder_cuts
from harness.invariants.prefix import differences, first_difference
from harness.invariants.streams import (
    emit_for,
    emitter,
    parsed_response_id,
    replay_bytes,
    stream_exchange,
)
from harness.model import AssistantMessage

__all__ = [
    "CHUNK_SIZES",
    "check_round_trips",
    "chunkings",
    "comparable",
    "continues_by_response_id",
    "difference_kind",
]

ID = "I11"
#: Fixed chunk sizes the emitted stream is re-parsed with, after the cuts at its decoder boundaries
#: (``chunkings``): arbitrary offsets, and chunks holding several lines or frames.
CHUNK_SIZES = (7, 64)
_BYTEWISE_LIMIT = 20_000


def comparable(message: AssistantMessage) -> dict[str, Any]:
    """A message as a stream can carry it: everything but the persisted ``id`` and ``created_at``.

    Usage counts that a stream does not report (None) and counts reported as zero are one
    class (``Usage``'s contract): a stream cannot tell them apart, so neither can the check.
    """
    data = message.model_dump(mode="json", exclude={"id", "created_at"})
    usage = data.get("usage")
    if isinstance(usage, dict):
        data["usage"] = {k: v or 0 for k, v in cast(dict[str, Any], usage).items()}
    return data


#: A dated snapshot suffix: ``claude-sonnet-4-5-20250929`` is ``claude-sonnet-4-5`` (``harness.contract.thinking``).
_SNAPSHOT = re.compile(r"-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$")


def aligned(expected: AssistantMessage, parsed: AssistantMessage) -> tuple[dict[str, Any], dict[str, Any]]:
    """Both messages as comparable data, comparing only what the stream carried.

    An optional usage count the stream did not report (None in the expected message) may
    be derived by the parser (``total_tokens`` as input plus output); a thinking part's
    model is the same model as an alias or a dated snapshot; tool arguments are equal as
    JSON values (key order is not information).
    """
    usage = expected.usage
    if usage is not None and parsed.usage is not None:
        unreported = {k: None for k, v in usage.model_dump().items() if v is None}
        parsed = parsed.model_copy(update={"usage": parsed.usage.model_copy(update=unreported)})
    return _normal(comparable(expected)), _normal(comparable(parsed))


def _normal(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (a fresh ``comparable`` dump, changed in place) with the forms ``aligned`` equates made one."""
    out = data
    for part in cast(list[dict[str, Any]], out.get("parts") or []):
        if isinstance(part.get("model_id"), str):
            part["model_id"] = _SNAPSHOT.sub("", part["model_id"])
        if isinstance(part.get("arguments_json"), str):
            with contextlib.suppress(ValueError):
                part["arguments_json"] = json.dumps(json.loads(part["arguments_json"]), sort_keys=True)
    return out


#: A part field the next request carries for the provider to read, lost in replay: ``degrade``.
#: ``phase``: "when sending follow-up requests, preserve and resend phase on all assistant
#: messages: dropping it can degrade performance" (openai-python, ``MessagePhase`` on
#: ``EasyInputMessageParam``); ``format``: a signature without one is never sent back as the
#: provider's own (``harness.mapping.toolbox.signature_problem``), so the provider loses its
#: reasoning state. Other part fields (``id``, ``item_id``, ``model_id``) are bookkeeping: a
#: Responses reasoning or message item goes back without its id (openai/codex sends none,
#: ``harness/providers/openai_responses/DECISIONS.md``), and a thinking part without a model
#: is sent as the same model's.
_READ_BACK_FIELDS = re.compile(r"^\.parts\[\d+\]\.(phase|format)$")


def difference_kind(
    path: str, was: Any, became: Any, *, same_content: bool, id_read_back: bool = False
) -> Kind:
    """What a parser's difference costs: ``degrade`` only where the provider reads the field on a
    later request or it changes what the model sees; ``policy`` for bookkeeping.

    Token counts, a ``stop``/``tool_use`` label on a turn whose calls are kept, item ids and
    parts split or merged with the same text, thinking and calls lose nothing the model
    reads on the next turn. The response id is read back only by a request that continues by
    ``previous_response_id`` (``id_read_back``); no stateless request reads it. Text, thinking,
    signatures, arguments, a message phase or signature format (``_READ_BACK_FIELDS``), and a
    stop reason that turns a cut or failed turn into a complete one (or back: the client sends
    a partial turn back as whole, or drops a whole one) do.
    """
    if path == ".response_id":
        return "degrade" if id_read_back else "policy"
    if path.startswith(".usage"):
        return "policy"
    if path == ".stop_reason" and {was, became} <= {"stop", "tool_use"} and same_content:
        return "policy"
    if _READ_BACK_FIELDS.match(path):
        return "degrade"
    if path.startswith(".parts") and same_content:
        return "policy"
    return "degrade"


def continues_by_response_id(ctx: CheckContext, response_id: str | None) -> bool:
    """Whether the target's request for this history names ``response_id`` in ``previous_response_id``
    (the one request that reads a response id back). A target that refuses the history sends none."""
    if not response_id or ctx.provider != "openai-responses":
        return False
    try:
        body = ctx.body
    except TargetRefusal:
        return False
    return body.get("previous_response_id") == response_id


def _content(message: dict[str, Any]) -> tuple[str, str, list[tuple[Any, ...]], list[Any]]:
    """What the model reads back: all text, all thinking, the tool calls, the signatures."""
    parts = cast(list[dict[str, Any]], message.get("parts") or [])
    text = "".join(str(p.get("text", "")) for p in parts if p.get("type") == "text")
    thinking = "".join(str(p.get("text", "")) for p in parts if p.get("type") == "thinking_text")
    calls = [
        (p.get("call_id"), p.get("tool_name"), p.get("arguments_json"))
        for p in parts
        if p.get("type") == "tool_call"
    ]
    signatures = [p.get("signature") for p in parts if p.get("type") == "thinking_signature"]
    return text, thinking, calls, signatures


def check_round_trips(ctx: CheckContext) -> list[Violation]:
    out = _codec(ctx)
    if emitter() is None:
        ctx.note("I11 stream round trips skipped: harness.emit is not importable (no emitters installed)")
        return out
    for index, event in enumerate(ctx.history):
        if isinstance(event, AssistantMessage):
            out += _stream(ctx, index, event)
    return out


def _codec(ctx: CheckContext) -> list[Violation]:
    text = ctx.history_jsonl()
    try:
        back = loads_history(text)
    except ValueError as exc:
        return [
            Violation(ID, None, None, f"the history does not read back from JSON Lines: {exc}", "", "degrade")
        ]
    out: list[Violation] = []
    for index, (a, b) in enumerate(zip(ctx.history, back, strict=False)):
        if a != b:
            diff = first_difference(a.model_dump(mode="json"), b.model_dump(mode="json"))
            out.append(
                Violation(ID, None, index, "codec round trip changed the event", snippet(diff), "degrade")
            )
    if len(back) != len(ctx.history):
        out.append(
            Violation(
                ID,
                None,
                None,
                f"codec round trip read {len(back)} of {len(ctx.history)} events",
                "",
                "degrade",
            )
        )
    elif not out and dumps_history(back) != text:
        out.append(
            Violation(ID, None, None, "writing the read-back history gives different bytes", "", "degrade")
        )
    return out


def _stream(ctx: CheckContext, index: int, message: AssistantMessage) -> list[Violation]:
    body = emit_for(ctx, message, index)
    if body is None:
        return []
    full = replay_bytes(ctx, ID, index, stream_exchange(ctx, index, body))
    if isinstance(full, Violation):
        return [full]
    out: list[Violation] = []
    carried = ctx.stream_messages.get(index, message)  # a projection where the stream cannot carry all
    expected = carried.model_copy(
        update={"id": None, "created_at": None, "response_id": parsed_response_id(ctx.provider, carried)}
    )
    want, got = aligned(expected, full.message)
    same_content = _content(want) == _content(got)
    found = list(differences(want, got))
    read_back = any(p == ".response_id" for p, _, _ in found) and continues_by_response_id(
        ctx, expected.response_id
    )
    out += [
        ctx.violation(
            ID,
            index,
            f"parse(emit(message)) differs from the message at {path}",
            {"message": was, "parsed": became},
            kind=difference_kind(path, was, became, same_content=same_content, id_read_back=read_back),
        )
        for path, was, became in found
    ]
    whole = _result(full)  # compared with every chunking's
    for chunking in chunkings(body):
        chunked = replay_bytes(ctx, ID, index, stream_exchange(ctx, index, body), chunking)
        if isinstance(chunked, Violation):
            out.append(chunked)
            break
        result = _result(chunked)
        if result != whole:
            detail: dict[str, Any] = {"difference": first_difference(whole, result)}
            if isinstance(chunking, tuple):
                detail["cut_at"] = _first_cut(ctx, index, body, chunking, whole)
            out.append(
                ctx.violation(
                    ID,
                    index,
                    f"the stream parses differently {_described(chunking)}",
                    detail,
                    kind=_chunked_kind(ctx, full, chunked),
                )
            )
            break
    return out


def _chunked_kind(ctx: CheckContext, full: CallResult, chunked: CallResult) -> Kind:
    """A chunking's difference costs what the message's differences cost (``difference_kind``); an
    error only one parse reports ends the turn, so it is ``degrade``; stream items alone (what a UI
    shows while streaming) leave the history as it was: ``policy``."""
    if _result(full)["errors"] != _result(chunked)["errors"]:
        return "degrade"
    want, got = _result(full)["message"], _result(chunked)["message"]
    same_content = _content(want) == _content(got)
    rid = full.message.response_id
    kinds = {
        difference_kind(
            path, was, became, same_content=same_content,
            id_read_back=path == ".response_id" and continues_by_response_id(ctx, rid),
        )
        for path, was, became in differences(want, got)
    }  # fmt: skip
    return "degrade" if "degrade" in kinds else "policy"


def chunkings(body: bytes) -> list[Chunking]:
    """The chunkings an emitted stream is re-parsed in: cut at its decoder boundaries
    (``harness.invariants.cuts``), then ``CHUNK_SIZES``; 1-byte chunks too under the
    ``harness-deep`` Hypothesis profile (streams up to ``_BYTEWISE_LIMIT``)."""
    out: list[Chunking] = [decoder_cuts(body), *CHUNK_SIZES]
    if _deep() and len(body) <= _BYTEWISE_LIMIT:
        out.append(1)
    return out


def _deep() -> bool:
    """A run under the ``harness-deep`` profile (Hypothesis is only looked at if already imported)."""
    hypothesis = sys.modules.get("hypothesis")
    if hypothesis is None:
        return False
    return bool(hypothesis.settings.get_current_profile_name() == "harness-deep")


def _described(chunking: Chunking) -> str:
    if isinstance(chunking, tuple):
        return "cut at its line ends, field separators, UTF-8 characters and frame fields"
    return f"in {chunking}-byte chunks"


def _first_cut(
    ctx: CheckContext, index: int, body: bytes, cuts: tuple[int, ...], whole: dict[str, Any]
) -> str:
    """Where the parse goes wrong: the one cut (shown in its bytes) that alone changes it, found
    by halving the cuts (at most two replays per halving), else the smallest span of cuts that
    does only together."""

    def differs(part: tuple[int, ...]) -> bool:
        alone = replay_bytes(ctx, ID, index, stream_exchange(ctx, index, body), part)
        return isinstance(alone, Violation) or _result(alone) != whole

    span = cuts
    while len(span) > 1:
        half = len(span) // 2
        found = next((part for part in (span[:half], span[half:]) if differs(part)), None)
        if found is None:
            break
        span = found
    if len(span) == 1:
        cut = span[0]
        return f"offset {cut}: {body[max(cut - 12, 0) : cut]!r} | {body[cut : cut + 12]!r}"
    return f"the {len(span)} cuts from offset {min(span)} to {max(span)} together; no half of them alone"


def _result(result: CallResult) -> dict[str, Any]:
    return {
        "errors": [e.model_dump(mode="json") for e in result.errors],
        "items": [item_to_json(i) for i in result.items],
        "message": result.message.model_dump(mode="json"),
    }
