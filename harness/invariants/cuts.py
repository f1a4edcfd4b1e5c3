"""Where a stream decoder can go wrong when the transport splits a body: the offsets I11 cuts at.

Cutting a body into 1-byte chunks tries every offset, at the price of one decoder call per
byte. A decoder's state changes only at a few kinds of byte, so cutting at each of those
(all at once, in one replay) covers the same failure modes:

- SSE (and JSON Lines) text, per the WHATWG grammar (``field: value`` lines ended by CR, LF
  or CRLF; a blank line dispatches): both sides of every CR and LF (a CRLF split in two, a
  blank line on its own), both sides of each line's field separator ``:`` and after the one
  optional space after it (a field name or a value cut off), and inside every multi-byte
  UTF-8 character (before each continuation byte: a character split between chunks).
- AWS event-stream frames (``harness.stream.eventstream``, Bedrock): every byte of each
  frame's 12-byte prelude (lengths and CRC split), the end of its headers, every byte of its
  4-byte trailing CRC, and the frame's end.

Fixed-size chunkings (I11 also replays in 7- and 64-byte chunks) add arbitrary offsets and
chunks that hold several lines or frames.
"""

from __future__ import annotations

import re
from struct import Struct
from zlib import crc32

__all__ = ["decoder_cuts", "frame_cuts", "text_cuts"]

_EOL = re.compile(rb"[\r\n]")
#: A line's field name and its separator (with the optional space after it), at a line's start.
_FIELD = re.compile(rb"(?:\A|(?<=[\r\n]))[^\r\n:]*(:)( ?)")
#: A UTF-8 continuation byte: a cut before it splits a multi-byte character.
_CONTINUATION = re.compile(rb"[\x80-\xbf]")
_PRELUDE = Struct("!III")
_PRELUDE_LENGTH, _CRC_LENGTH = 12, 4


def decoder_cuts(body: bytes) -> tuple[int, ...]:
    """The offsets (ascending, inside the body) where ``body``'s decoder can go wrong: frame fields
    when the body is a sequence of AWS event-stream frames, else SSE text boundaries."""
    frames = frame_cuts(body)
    return frames if frames is not None else text_cuts(body)


def text_cuts(body: bytes) -> tuple[int, ...]:
    """Both sides of each CR and LF, of each line's field separator and its optional space, and
    before each UTF-8 continuation byte."""
    cuts: set[int] = set()
    for match in _EOL.finditer(body):
        cuts.update(match.span())
    for match in _FIELD.finditer(body):
        cuts.update((match.start(1), match.end(1), match.end(2)))
    cuts.update(match.start() for match in _CONTINUATION.finditer(body))
    return tuple(sorted(c for c in cuts if 0 < c < len(body)))


def frame_cuts(body: bytes) -> tuple[int, ...] | None:
    """Each byte of every frame's prelude, its headers' end, each byte of its trailing CRC and its
    end; None when ``body`` is not a whole number of well-formed frame preludes."""
    cuts: list[int] = []
    start = 0
    while start < len(body):
        if len(body) - start < _PRELUDE_LENGTH:
            return None
        total, headers, crc = _PRELUDE.unpack_from(body, start)
        if (
            crc32(body[start : start + 8]) != crc
            or total < _PRELUDE_LENGTH + _CRC_LENGTH + headers
            or start + total > len(body)
        ):
            return None
        end = start + total
        cuts += range(start + 1, start + _PRELUDE_LENGTH + 1)
        cuts.append(start + _PRELUDE_LENGTH + headers)
        cuts += range(end - _CRC_LENGTH, end + 1)
        start = end
    if not cuts:
        return None
    return tuple(sorted({c for c in cuts if 0 < c < len(body)}))
