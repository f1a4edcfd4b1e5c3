"""Incremental Server-Sent Events decoder over raw bytes, per the WHATWG SSE spec.

Our own rather than httpx-sse's: that decoder is private API fed line by line from an
httpx response, while replay must decode arbitrary byte chunks (cassettes, raw files,
hypothesis splits at any offset) at close to ``json.loads`` speed.
https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from operator import itemgetter

__all__ = ["SSEDecoder", "SSEEvent", "iter_sse"]


@dataclass(frozen=True, slots=True)
class SSEEvent:
    """One dispatched event. ``event`` is None when the stream gave no ``event:`` field."""

    event: str | None
    data: str
    id: str | None = None


# A frozen dataclass's __init__ sets each field through object.__setattr__ (~0.75 us per
# event here); the decoder fills the same slots through their descriptors instead.
_new_event = object.__new__
_set_event = SSEEvent.__dict__["event"].__set__
_set_data = SSEEvent.__dict__["data"].__set__
_set_id = SSEEvent.__dict__["id"].__set__

# The form nearly every provider sends: an optional ``event:`` line, one ``data:`` line, a
# blank line. A block made only of these is split by the regex engine (one findall, no
# Python step per line); anything else (comments, ids, several data lines, an empty or
# space-led event name) takes the general line-by-line path, which gives the same events.
# The third group takes any line that is not part of a plain event: one findall both splits
# the block and tells whether it was plain throughout.
_PLAIN_EVENT = re.compile(r"(?:event: ?([^ \n][^\n]*)\n)?data: ?([^\n]*)\n(?:\n|\Z)|([^\n]*\n|[^\n]+)")
_OTHER_LINE = itemgetter(2)
#: A line longer than this, still open, is kept in its chunks (``SSEDecoder._pending``).
_LONG = 4096


class SSEDecoder:
    """Feed bytes in any chunking; get complete events. ``close()`` flushes a final unterminated event.

    Comment lines (``: OPENROUTER PROCESSING``) are counted in ``comments`` and skipped.
    """

    __slots__ = (
        "_buffer",
        "_data",
        "_event",
        "_id",
        "_offset",
        "_pending",
        "comments",
        "discarded_bytes",
        "malformed_utf8",
        "not_utf8",
    )

    def __init__(self) -> None:
        self._buffer = b""
        #: The start of a long line (past ``_LONG`` bytes) in the chunks it came in, joined once the
        #: line ends: a line costs linear time however finely it is cut (``_buffer`` is then empty).
        self._pending: list[bytes] = []
        self._event: str | None = None
        self._data: list[str] = []
        self._id: str | None = None
        self._offset = 0  # bytes decoded so far, to name where a byte that is not UTF-8 sits
        self.comments = 0
        self.discarded_bytes = 0
        self.malformed_utf8 = False
        #: The first byte that is not UTF-8: (its value, its offset in the stream; a CRLF line end
        #: counts one byte), replaced with U+FFFD.
        self.not_utf8: tuple[int, int] | None = None

    def feed(self, chunk: bytes) -> list[SSEEvent]:
        if self._pending:
            if b"\n" not in chunk and b"\r" not in chunk:
                self._pending.append(chunk)
                return []
            buffer = b"".join((*self._pending, chunk))
            self._pending = []
        else:
            buffer = self._buffer + chunk
        # Normalise CRLF / CR line endings only when present (rare; keeps the fast path fast).
        if b"\r" in buffer:
            if buffer.endswith(b"\r"):
                self._buffer = b"\r"
                buffer = buffer[:-1]
            else:
                self._buffer = b""
            buffer = buffer.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        else:
            self._buffer = b""
        cut = buffer.rfind(b"\n")
        if cut < 0:
            buffer += self._buffer
            if len(buffer) > _LONG and not buffer.endswith(b"\r"):
                self._pending, self._buffer = [buffer], b""  # a long line: no copy and scan per chunk
            else:
                self._buffer = buffer
            return []
        self._buffer = buffer[cut + 1 :] + self._buffer
        # One decode for all complete lines: a newline byte never sits inside a UTF-8
        # sequence, so this equals decoding line by line (replacement included).
        block = memoryview(buffer)[:cut]  # decoded in place: no copy of a big body
        try:
            text = str(block, "utf-8")
        except UnicodeDecodeError as exc:
            text = str(block, "utf-8", errors="replace")
            if self.not_utf8 is None:
                self.not_utf8 = (block[exc.start], self._offset + exc.start)
            self.malformed_utf8 = True
        self._offset += cut + 1
        if not self._data and self._event is None and text.endswith("\n"):
            plain = self._plain(text)  # its last newline was cut: the pattern ends at \Z there
            if plain is not None:
                return plain
        return self._lines(text.split("\n"))

    def close(self) -> list[SSEEvent]:
        """End of stream: a last event whose lines all ended is dispatched even without its blank line.

        A final line cut before its newline is incomplete and discarded (counted in
        ``discarded_bytes``), so a body truncated mid-line reads as a truncated stream
        rather than as garbage JSON.
        """
        rest, self._buffer = b"".join((self._buffer, *self._pending)).rstrip(b"\r"), b""
        self._pending = []
        self.discarded_bytes = len(rest)
        out: list[SSEEvent] = []
        if self._data:
            out.append(self._dispatch())
        return out

    def _plain(self, text: str) -> list[SSEEvent] | None:
        """The events of ``text`` (whole events only) if every one has the plain form, else None."""
        found: list[tuple[str, str, str]] = _PLAIN_EVENT.findall(text)
        if any(map(_OTHER_LINE, found)):
            return None
        out: list[SSEEvent] = []
        append = out.append
        last_id = self._id
        for name, data, _ in found:
            event = _new_event(SSEEvent)
            _set_event(event, name or None)
            _set_data(event, data)
            _set_id(event, last_id)
            append(event)
        return out

    def _lines(self, lines: list[str]) -> list[SSEEvent]:
        out: list[SSEEvent] = []
        append = out.append
        data = self._data
        for line in lines:
            if not line:
                if data:  # _dispatch, inlined: this runs once per event
                    event = _new_event(SSEEvent)
                    _set_event(event, self._event)
                    _set_data(event, data[0] if len(data) == 1 else "\n".join(data))
                    _set_id(event, self._id)
                    append(event)
                    self._event = None
                    data = self._data = []
                else:
                    self._event = None  # an event with no data is not dispatched (spec)
                continue
            # The hot paths, same result as the general field parsing below.
            if line.startswith("data:"):
                data.append(line[6:] if line.startswith(" ", 5) else line[5:])
                continue
            if line.startswith("event:"):
                self._event = line[7:] if line.startswith(" ", 6) else line[6:]
                continue
            if line[0] == ":":
                self.comments += 1
                continue
            name, sep, value = line.partition(":")
            if sep and value.startswith(" "):
                value = value[1:]
            if name == "data":
                data.append(value)
            elif name == "event":
                self._event = value
            elif name == "id":
                self._id = value
            # "retry" and unknown fields are ignored, as the spec says.
        return out

    def _dispatch(self) -> SSEEvent:
        data = self._data
        event = _new_event(SSEEvent)
        _set_event(event, self._event)
        _set_data(event, data[0] if len(data) == 1 else "\n".join(data))
        _set_id(event, self._id)
        self._event, self._data = None, []
        return event


def iter_sse(chunks: Iterable[bytes]) -> Iterator[SSEEvent]:
    decoder = SSEDecoder()
    for chunk in chunks:
        yield from decoder.feed(chunk)
    yield from decoder.close()
