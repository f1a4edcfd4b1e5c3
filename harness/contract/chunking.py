"""How a replayed body reaches the code under audit: ``Target.replay``'s ``chunk_size``.

Real transports split a stream anywhere, so the judges replay one body in several chunkings
and compare the results (I11). A chunking is one of:

- ``None``: the whole body in one chunk;
- an ``int`` n: chunks of n bytes (the last one shorter);
- a ``tuple`` of offsets: the body cut at each offset, in ascending order (offsets outside
  ``0 < offset < len(body)`` are ignored). The judges choose the offsets where a stream
  decoder can go wrong (``harness.invariants.cuts``); a target only has to honour them.

A target that passes ``chunk_size`` on to ``harness.kit``'s transport (``OfflineWire.serve``)
or to ``split`` handles all three.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

__all__ = ["Chunking", "chunking_from_json", "describe", "split"]

#: How a replayed body is cut: None whole, an int for fixed-size chunks, a tuple of offsets to cut at.
Chunking = int | tuple[int, ...] | None


def split(body: bytes, chunking: Chunking) -> list[bytes]:
    """``body`` in the chunks ``chunking`` names (fixed-size chunks of an empty body: none)."""
    if chunking is None or chunking == 0:
        return [body]
    if isinstance(chunking, int):
        return [body[i : i + chunking] for i in range(0, len(body), chunking)]
    chunks: list[bytes] = []
    start = 0
    for cut in chunking:
        if start < cut < len(body):
            chunks.append(body[start:cut])
            start = cut
    chunks.append(body[start:])
    return chunks


def describe(chunking: Chunking) -> str:
    """The chunking in words, for a violation message."""
    if chunking is None or chunking == 0:
        return "in one chunk"
    if isinstance(chunking, int):
        return f"in {chunking}-byte chunks"
    return f"cut at {len(chunking)} offsets where a stream decoder can go wrong"


def chunking_from_json(value: Any) -> Chunking:
    """A chunking sent as JSON (a list for the offsets), as ``split`` takes it; ValueError otherwise."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return cast(Chunking, value)
    if isinstance(value, Sequence) and not isinstance(value, str | bytes):
        offsets = cast(Sequence[Any], value)
        if all(isinstance(o, int) and not isinstance(o, bool) for o in offsets):
            return tuple(cast(Sequence[int], offsets))
    raise ValueError(f"chunk_size must be null, an integer or a list of offsets, not {value!r}")
