"""Reading a file: regular files only, in bounded chunks, strict UTF-8 for text."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from harness.inputs.errors import InputError
from harness.inputs.limits import ENV, Limits, current

__all__ = ["decode_utf8", "read_bytes", "read_text"]

_CHUNK = 1024 * 1024


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bytes(path: str | Path, limits: Limits | None = None) -> bytes:
    """The file's bytes; special files are refused before ``open`` (a FIFO would block it)."""
    lim = current(limits)
    source = str(path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise InputError(source, None, "(file)", "no such file") from None
    except OSError as exc:
        raise InputError(source, None, "(file)", exc.strerror or str(exc)) from None
    if not stat.S_ISREG(mode):
        raise InputError(source, None, "(file)", f"{_kind(mode)}, not a regular file")
    too_big = f"larger than {lim.max_file_bytes} bytes (raise {ENV['max_file_bytes']})"
    try:
        with open(path, "rb", buffering=0) as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode):  # swapped after the stat
                raise InputError(source, None, "(file)", "not a regular file")
            if info.st_size > lim.max_file_bytes:
                raise InputError(source, None, "(file)", too_big)
            # One read into a buffer of the file's size (no list of chunks joined: half the peak).
            data = f.read(info.st_size + 1)
            while len(data) <= lim.max_file_bytes:  # a file that grew while being read
                more = f.read(_CHUNK)
                if not more:
                    break
                data += more
            if len(data) > lim.max_file_bytes:
                raise InputError(source, None, "(file)", too_big)
    except OSError as exc:
        raise InputError(source, None, "(file)", exc.strerror or str(exc)) from None
    return data


def decode_utf8(data: bytes, source: str, field: str = "(file)") -> str:
    """Strict UTF-8 (encoded surrogates are invalid UTF-8 too); the error names the line."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(source, line, field, f"not UTF-8 (byte {exc.start}: {exc.reason})") from None


def read_text(path: str | Path, limits: Limits | None = None) -> str:
    return decode_utf8(read_bytes(path, limits), str(path))
