"""The one error type of the input boundary: a one-line ``FILE[:LINE]: field: reason``."""

from __future__ import annotations

__all__ = ["InputError"]


class InputError(ValueError):
    """Bad input; ``str()`` is ``FILE[:LINE]: field: reason`` (line 0 or None: no line)."""

    def __init__(self, source: str, line: int | None, field: str, reason: str) -> None:
        self.source, self.line, self.field, self.reason = source, line or 0, field, reason
        where = f"{source}:{line}" if line else source
        super().__init__(f"{where}: {field}: {reason}")
