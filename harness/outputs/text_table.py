"""Plain-text tables that fit the terminal: aligned columns, split into blocks when too wide.

Reports printed as text (``harness audit-traffic``) go to terminals of 80 columns and to CI
logs. A table wider than the width is cut into blocks of columns, each repeating the first
(row-name) column, so nothing is truncated and no line wraps.
"""

from __future__ import annotations

import os
import shutil
import sys

__all__ = ["fit_table", "terminal_width"]

_GAP = "  "


def terminal_width() -> int:
    """``COLUMNS`` when set, the terminal's own width when stdout is one, else 160 (pipes, CI logs):
    the width of every report printed to a terminal, text (``fit_table``) or rich (the audit's)."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    if sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    return 160


def _line(cells: list[str], widths: list[int], indent: str) -> str:
    first, *rest = cells
    parts = [first.ljust(widths[0]), *(c.rjust(w) for c, w in zip(rest, widths[1:], strict=True))]
    return (indent + _GAP.join(parts)).rstrip()


def fit_table(rows: list[list[str]], width: int, indent: str = "  ") -> list[str]:
    """``rows`` (the first is the header) as aligned lines at most ``width`` wide where the first
    column and any one other column fit; the first column is left-aligned, the others right."""
    if not rows:
        return []
    ncols = len(rows[0])
    widths = [max(len(row[i]) for row in rows) for i in range(ncols)]
    blocks: list[list[int]] = []
    used = len(indent) + widths[0]
    for i in range(1, ncols):
        if not blocks or used + len(_GAP) + widths[i] > width:
            blocks.append([])
            used = len(indent) + widths[0]
        blocks[-1].append(i)
        used += len(_GAP) + widths[i]
    out: list[str] = []
    for n, block in enumerate(blocks or [[]]):
        if n:
            out.append("")
        cols = [0, *block]
        out += [_line([row[i] for i in cols], [widths[i] for i in cols], indent) for row in rows]
    return out
