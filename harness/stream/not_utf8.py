"""The one error a response with a byte that is not UTF-8 gets, whatever its framing.

Every decoder replaces such a byte with U+FFFD and goes on (the rest of the stream is still
readable), but the text then holds a character the provider never sent: the replay names the
first such byte, as an error, never a silent replacement.
"""

from __future__ import annotations

__all__ = ["first_not_utf8", "not_utf8_error"]


def not_utf8_error(provider: str, byte: int, where: str) -> str:
    """One line: the byte, where it sits, and what was done with it."""
    return (
        f"{provider}: the response holds a byte that is not UTF-8 (0x{byte:02x} at {where}); "
        "it was replaced with U+FFFD, so the text is not what the provider sent"
    )


def first_not_utf8(data: bytes) -> tuple[int, int] | None:
    """(the first byte that is not UTF-8, its offset) in ``data``, or None when all of it is UTF-8."""
    if data.isascii():
        return None
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return data[exc.start], exc.start
    return None
