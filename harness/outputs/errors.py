"""The one error type of the output boundary: a one-line ``PATH: cannot write: reason``."""

from __future__ import annotations

__all__ = ["OutputError"]


class OutputError(Exception):
    """A file the harness was asked to write cannot be written (or must not be); nothing was changed.

    ``str()`` is ``PATH: cannot write: REASON``; callers print it and exit 2.
    """

    def __init__(self, path: object, reason: str) -> None:
        self.path, self.reason = str(path), reason
        super().__init__(f"{path}: cannot write: {reason}")


def os_reason(exc: OSError) -> str:
    """``No space left on device``, not ``[Errno 28] No space left on device: '/x/.a.tmp'``."""
    return exc.strerror or type(exc).__name__
