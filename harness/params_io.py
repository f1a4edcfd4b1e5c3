"""Reading PARAMS.json with errors that name the file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from harness.codec import HistoryError
from harness.params import CallParams

__all__ = ["load_params"]


def _line_of(text: str, key: str) -> int:
    """Best-effort line of the first occurrence of a JSON key (1 if not found)."""
    needle = json.dumps(key) + ":"
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line.replace('": ', '":'):
            return number
    return 1


def load_params(path: str | Path) -> CallParams:
    """Parse a PARAMS.json file; raises HistoryError (``FILE:LINE: field: reason``) when invalid."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise HistoryError(str(p), 0, "(file)", "no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise HistoryError(str(p), 0, "(file)", str(exc)) from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise HistoryError(
            str(p), exc.lineno, "(json)", f"invalid JSON: {exc.msg} at column {exc.colno}"
        ) from None
    try:
        return CallParams.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = [str(x) for x in err["loc"]]
        keys = [x for x in loc if not x.isdigit()]
        field = ".".join(loc) or "(file)"
        line = _line_of(text, keys[-1]) if keys else 1
        raise HistoryError(str(p), line, field, str(err["msg"])) from None
