"""Reading PARAMS.json with errors that name the file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from harness.codec import HistoryError
from harness.inputs import InputError, loads_json, read_text
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
        text = read_text(p)
        data = loads_json(text, source=str(p))
    except InputError as exc:
        raise HistoryError.of(exc) from None
    try:
        return CallParams.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = [str(x) for x in err["loc"]]
        keys = [x for x in loc if not x.isdigit()]
        field = ".".join(loc) or "(file)"
        line = _line_of(text, keys[-1]) if keys else 1
        raise HistoryError(str(p), line, field, str(err["msg"])) from None
