"""Atomic writes: a temporary file beside each target, fsynced, renamed over it, the folder fsynced.

A set of files (a report's JSON, HTML and Markdown) is written the same way: every
temporary file first, then the renames, with SIGINT, SIGTERM and SIGHUP held back
(``pthread_sigmask``) for the few microseconds they take, so a signal never leaves the
set mixed old/new. Only SIGKILL (or a power cut) between two renames could; nothing can
catch those.

Failure leaves each earlier file byte-identical and no temporary file: on any exception
(ENOSPC, EACCES, EROFS, KeyboardInterrupt) the temporary files are removed; SIGTERM and
SIGHUP are turned into an exception for the duration of the write (main thread only), and
re-delivered after the clean-up, so the process still ends by that signal. A SIGKILL can
leave ``.NAME.<pid>-<random>.tmp`` behind: the next write of NAME removes it once that
process is gone.

For tests only: ``HARNESS_TEST_PAUSE_BEFORE_RENAME=SECONDS`` makes the writer print
``harness: paused before rename`` on stderr, once every temporary file is written and
fsynced, and sleep, so a test can kill the process at that point deterministically.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import sys
import threading
import time
from collections.abc import Generator, Iterable, Iterator, Mapping
from pathlib import Path
from types import FrameType

from harness.outputs.errors import OutputError, os_reason
from harness.outputs.stale import remove_stale_temps
from harness.outputs.targets import check_target

__all__ = ["remove_stale_temps", "write_bytes", "write_files", "write_text"]

PAUSE_ENV = "HARNESS_TEST_PAUSE_BEFORE_RENAME"
_HELD = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_RAISED = (signal.SIGTERM, signal.SIGHUP)


class _Signalled(BaseException):
    """SIGTERM/SIGHUP during a write: unwinds through the clean-up, then the signal is re-sent."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _raise_signal(signum: int, _frame: FrameType | None) -> None:
    raise _Signalled(signum)


@contextlib.contextmanager
def _signals_unwind() -> Generator[None]:
    """SIGTERM/SIGHUP (when nobody else handles them) raise inside the block; re-sent after it."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.getsignal(s) for s in _RAISED}
    for s, handler in previous.items():
        if handler == signal.SIG_DFL:
            signal.signal(s, _raise_signal)
    try:
        yield
    except _Signalled as exc:
        for s, handler in previous.items():
            signal.signal(s, handler)
        os.kill(os.getpid(), exc.signum)  # the default action now: the process ends by the signal
        raise SystemExit(128 + exc.signum) from None  # only reached when the signal is ignored
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


@contextlib.contextmanager
def _signals_held() -> Generator[None]:
    """Hold SIGINT/SIGTERM/SIGHUP back while the renames run; delivered when the block ends."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse a directory fsync (EINVAL); the rename stands
    finally:
        os.close(fd)


#: Bytes gathered from a stream of chunks before each write (few system calls, bounded memory).
_BUFFER = 1 << 16


def _encoded(content: bytes | str | Iterable[str]) -> Iterator[bytes]:
    """The bytes of ``content``: text as UTF-8; a stream of text chunks in writes of ``_BUFFER``."""
    if isinstance(content, bytes):
        yield content
    elif isinstance(content, str):
        yield content.encode("utf-8")
    else:
        pending: list[bytes] = []
        size = 0
        for chunk in content:
            data = chunk.encode("utf-8")
            pending.append(data)
            size += len(data)
            if size >= _BUFFER:
                yield b"".join(pending)
                pending, size = [], 0
        yield b"".join(pending)


def _write_temp(target: Path, content: bytes | str | Iterable[str]) -> Path:
    """Write and fsync ``content`` into a new temporary file beside ``target``; returns its path."""
    temp = target.parent / f".{target.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW
    fd = os.open(temp, flags, 0o666)  # the umask applies, as for any new file
    try:
        with contextlib.suppress(FileNotFoundError):
            os.fchmod(fd, os.stat(target).st_mode & 0o7777)  # a replaced file keeps its mode
        for data in _encoded(content):
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    os.close(fd)
    return temp


def _pause_for_tests() -> None:
    """Short sleeps, not one long one: a signal that lands just before a sleep starts
    would otherwise wait for the whole pause (CPython checks signals only between sleeps)."""
    seconds = os.environ.get(PAUSE_ENV, "")
    if seconds:
        print("harness: paused before rename", file=sys.stderr, flush=True)
        deadline = time.monotonic() + float(seconds)
        while time.monotonic() < deadline:
            time.sleep(0.05)


def write_files(files: Mapping[Path, bytes | str | Iterable[str]]) -> list[Path]:
    """Write every file of ``files`` (text as UTF-8; or an iterable of text chunks, written as they
    come, so a large report is never whole in memory) atomically, as one set; returns the paths.

    Raises OutputError (one line; every earlier file unchanged, no temporary file left).
    """
    targets = [Path(p) for p in files]
    temps: list[Path] = []
    current = targets[0] if targets else Path(".")
    try:
        with _signals_unwind():
            try:
                for target, content in zip(targets, files.values(), strict=True):
                    current = target
                    check_target(target)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    remove_stale_temps(target)
                    temps.append(_write_temp(target, content))
                _pause_for_tests()
                with _signals_held():
                    for temp, target in zip(temps, targets, strict=True):
                        current = target
                        os.replace(temp, target)
                    temps.clear()
                    for folder in dict.fromkeys(t.parent for t in targets):
                        _fsync_dir(folder)
            finally:
                for temp in temps:
                    with contextlib.suppress(OSError):
                        os.unlink(temp)
    except OSError as exc:
        raise OutputError(current, os_reason(exc)) from None
    return targets


def write_bytes(path: str | Path, data: bytes) -> Path:
    """Replace ``path`` with ``data`` atomically (see the module docstring)."""
    return write_files({Path(path): data})[0]


def write_text(path: str | Path, text: str) -> Path:
    """Replace ``path`` with ``text`` as UTF-8, atomically; newlines are written as given."""
    return write_files({Path(path): text})[0]
