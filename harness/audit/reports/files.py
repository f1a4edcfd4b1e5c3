"""Writing a report's forms to files, one way for the audit and for the side-by-side view."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["json_text", "write_forms"]

_SUFFIX = {"json": "json", "html": "html", "markdown": "md"}


def json_text(data: Mapping[str, Any]) -> str:
    """The JSON form: sorted keys, two-space indent, characters as they are, a final newline."""
    return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def write_forms(out: Path, stem: str, texts: Mapping[str, str]) -> dict[str, Path]:
    """Write each form's text to ``out/<stem>.<json|html|md>`` (``out`` made first); returns the files by form.

    The texts are all rendered before the first file is written, so a report that fails to
    render leaves no half-written set behind.
    """
    out.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    for form, text in texts.items():
        written[form] = out / f"{stem}.{_SUFFIX[form]}"
        written[form].write_text(text, encoding="utf-8")
    return written
