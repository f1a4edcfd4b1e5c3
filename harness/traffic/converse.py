"""What a recorded Bedrock Converse response said, read for the continuity checks.

Two bodies (botocore bedrock-runtime service model; https://docs.aws.amazon.com/bedrock/latest/APIReference/):

- ``/converse``: the ``ConverseResponse`` JSON, ``output.message.content`` a list of blocks
  (``text``, ``toolUse {toolUseId, name, input}``, ``reasoningContent`` holding
  ``reasoningText {text, signature}`` or ``redactedContent``);
- ``/converse-stream``: AWS event-stream binary frames (``application/vnd.amazon.eventstream``),
  one ``ConverseStreamOutput`` member per frame, named by the ``:event-type`` header:
  ``contentBlockStart`` (a ``toolUse`` start: id, name and, for a system tool, ``type``; a system
  tool's ``toolResult`` start), ``contentBlockDelta`` (``text``, ``toolUse.input`` JSON fragments,
  ``toolResult`` content, ``reasoningContent`` ``text`` / ``signature`` / ``redactedContent``),
  ``contentBlockStop``, ``messageStop``, ``metadata``.

Why a reader of its own: the traffic audit is a judge and must not agree with a bug in
the reference decoder (``harness.stream.eventstream``) or the Bedrock parser; the frame
format is small (prelude, headers, payload, CRC32s), and this reading is cross-checked
against botocore's own ``EventStreamBuffer`` on every recording (tests/test_traffic_bedrock.py).
A frame that fails a check, an ``exception`` frame and a stream without ``messageStop`` are
a ``problem`` (one line), never a partial reply read as whole.
"""

from __future__ import annotations

import json
from struct import Struct
from typing import Any, cast
from zlib import crc32

__all__ = ["FrameError", "converse_blocks", "frames"]

_PRELUDE = Struct("!III")
_U16 = Struct("!H")
_U32 = Struct("!I")
#: Header value type -> size of a fixed-size value (0/1 booleans carry none; 6/7 are length-prefixed).
_FIXED = {0: 0, 1: 0, 2: 1, 3: 2, 4: 4, 5: 8, 8: 8, 9: 16}


class FrameError(ValueError):
    """A frame that cannot be trusted; ``str()`` is one line naming the frame."""


def _d(value: Any) -> dict[str, Any]:
    return cast(dict[str, Any], value) if isinstance(value, dict) else {}


def _l(value: Any) -> list[Any]:
    return cast(list[Any], value) if isinstance(value, list) else []


def _string_headers(raw: bytes, frame: int) -> dict[str, str]:
    """The string-valued headers of one frame (``:event-type``, ``:message-type``...)."""
    out: dict[str, str] = {}
    offset = 0
    while offset < len(raw):
        length = raw[offset]
        name = raw[offset + 1 : offset + 1 + length].decode("utf-8", errors="replace")
        offset += 1 + length
        if offset >= len(raw):
            raise FrameError(f"frame {frame}: header {name!r} has no value type")
        kind = raw[offset]
        offset += 1
        if kind in (6, 7):
            if offset + 2 > len(raw):
                raise FrameError(f"frame {frame}: header {name!r} length runs past the headers")
            size = _U16.unpack_from(raw, offset)[0]
            offset += 2
            if kind == 7:
                out[name] = raw[offset : offset + size].decode("utf-8", errors="replace")
        elif kind in _FIXED:
            size = _FIXED[kind]
        else:
            raise FrameError(f"frame {frame}: header {name!r} has unknown value type {kind}")
        offset += size
        if offset > len(raw):
            raise FrameError(f"frame {frame}: header {name!r} value runs past the headers")
    return out


def frames(body: bytes) -> list[tuple[dict[str, str], bytes]]:
    """Every frame of a whole event-stream body: (string headers, payload); FrameError on a bad one."""
    out: list[tuple[dict[str, str], bytes]] = []
    offset = 0
    while offset < len(body):
        frame = len(out)
        if len(body) - offset < 16:
            raise FrameError(f"frame {frame}: body ends inside a frame ({len(body) - offset} bytes left)")
        total, headers_length, prelude_crc = _PRELUDE.unpack_from(body, offset)
        if crc32(body[offset : offset + 8]) != prelude_crc:
            raise FrameError(f"frame {frame}: prelude CRC mismatch")
        if total < 16 + headers_length:
            raise FrameError(f"frame {frame}: total length {total} shorter than its prelude and headers")
        if len(body) - offset < total:
            raise FrameError(
                f"frame {frame}: body ends inside the frame ({len(body) - offset} of {total} bytes)"
            )
        end = offset + total - 4
        if crc32(body[offset:end]) != _U32.unpack_from(body, end)[0]:
            raise FrameError(f"frame {frame}: message CRC mismatch")
        headers_end = offset + 12 + headers_length
        out.append((_string_headers(body[offset + 12 : headers_end], frame), body[headers_end:end]))
        offset += total
    return out


def _stream_blocks(body: bytes) -> list[dict[str, Any]]:
    """The content blocks of a ConverseStream body, in ``contentBlockIndex`` order, as Converse blocks."""
    blocks: dict[int, dict[str, Any]] = {}
    inputs: dict[int, str] = {}
    stopped = False
    for number, (headers, payload) in enumerate(frames(body)):
        kind = headers.get(":message-type", "event")
        if kind != "event":
            name = headers.get(":exception-type") or headers.get(":error-code") or kind
            raise FrameError(f"frame {number}: {kind} {name}: {payload[:200].decode('utf-8', 'replace')}")
        try:
            data = _d(json.loads(payload or b"{}"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise FrameError(f"frame {number}: payload is not JSON ({exc})") from None
        event = headers.get(":event-type", "")
        index = data.get("contentBlockIndex")
        if event == "messageStop":
            stopped = True
        if not isinstance(index, int):
            continue
        block = blocks.setdefault(index, {})
        if event == "contentBlockStart":
            start = _d(data.get("start"))
            tool = _d(start.get("toolUse"))
            if tool:
                # no input delta at all: the call takes no arguments (``{}``), as Converse's JSON body says
                block["toolUse"] = {
                    "toolUseId": tool.get("toolUseId", ""),
                    "name": tool.get("name", ""),
                    "input": {},
                }
                if "type" in tool:  # a system tool's call (``server_tool_use``), as the body says it
                    block["toolUse"]["type"] = tool["type"]
            result = _d(start.get("toolResult"))
            if result:  # a system tool's result (ToolResultBlockStart); its content streams after
                block["toolResult"] = {**result, "content": []}
        elif event == "contentBlockDelta":
            delta = _d(data.get("delta"))
            if isinstance(delta.get("text"), str):
                block["text"] = str(block.get("text", "")) + delta["text"]
            if "toolUse" in delta:
                inputs[index] = inputs.get(index, "") + str(_d(delta["toolUse"]).get("input") or "")
            if isinstance(delta.get("toolResult"), list) and "toolResult" in block:
                _d(block["toolResult"])["content"] = [
                    *_l(_d(block["toolResult"]).get("content")),
                    *delta["toolResult"],
                ]
            reasoning = _d(delta.get("reasoningContent"))
            content = _d(block.setdefault("reasoningContent", {})) if reasoning else {}
            for key in ("text", "signature"):
                if isinstance(reasoning.get(key), str):
                    text = _d(content.setdefault("reasoningText", {}))
                    text[key] = str(text.get(key, "")) + reasoning[key]
            if isinstance(reasoning.get("redactedContent"), str):
                content["redactedContent"] = (
                    str(content.get("redactedContent", "")) + reasoning["redactedContent"]
                )
    if not stopped:
        raise FrameError(f"stream ends without messageStop after {len(blocks)} content block(s)")
    for index, arguments in inputs.items():
        tool = _d(blocks[index].setdefault("toolUse", {}))
        try:
            tool["input"] = json.loads(arguments) if arguments else {}
        except json.JSONDecodeError:
            tool["input"] = arguments
    return [blocks[i] for i in sorted(blocks)]


def converse_blocks(body: bytes) -> list[dict[str, Any]]:
    """The content blocks of a Converse JSON body or a ConverseStream event-stream body, as
    Converse ``ContentBlock`` objects; FrameError (one line) when the body cannot be trusted."""
    if body.lstrip()[:1] == b"{":
        try:
            data = _d(json.loads(body))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise FrameError(f"not JSON ({exc})") from None
        return [_d(b) for b in _l(_d(_d(data.get("output")).get("message")).get("content"))]
    try:
        return _stream_blocks(body)
    except FrameError as exc:
        raise FrameError(f"AWS event stream: {exc}") from None
