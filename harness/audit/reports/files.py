"""Writing a report's forms to files, one way for the audit and for the side-by-side view."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness.outputs import write_files

__all__ = ["SUFFIX", "form_names", "json_text", "write_forms"]

SUFFIX = {"json": "json", "html": "html", "markdown": "md"}


def form_names(stem: str) -> list[str]:
    """The file names a report of ``stem`` is written to (checked before the run starts)."""
    return [f"{stem}.{suffix}" for suffix in SUFFIX.values()]


def json_text(data: Mapping[str, Any]) -> str:
    """The JSON form: sorted keys, two-space indent, characters as they are, a final newline."""
    return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def write_forms(out: Path, stem: str, texts: Mapping[str, str]) -> dict[str, Path]:
    """Write each form's text to ``out/<stem>.<json|html|md>`` (``out`` made first); returns the files by form.

    The texts are all rendered before the first file is written, and the files are written
    as one atomic set (``harness.outputs.write_files``): a kill or a full disk leaves the
    earlier report whole, never a new JSON beside an old HTML. Raises ``OutputError``.
    """
    written = {form: out / f"{stem}.{SUFFIX[form]}" for form in texts}
    write_files({written[form]: text for form, text in texts.items()})
    return written
