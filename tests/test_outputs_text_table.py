"""Plain-text tables fit the width without cutting anything, and the traffic audit's figures use them."""

from __future__ import annotations

from typing import Any

import pytest

from harness.outputs.text_table import fit_table
from harness.traffic.audit import FIGURES
from harness.traffic.audit_report import render_terminal

ROWS = [
    ["name", "alpha", "beta-long-header", "c"],
    ["first", "1", "22", "333"],
    ["second-row", "4444", "5", "6"],
]


def _cells(lines: list[str]) -> set[str]:
    return {cell for line in lines for cell in line.split()}


@pytest.mark.parametrize("width", [30, 40, 60, 200])
def test_a_table_fits_the_width_and_keeps_every_cell(width: int) -> None:
    lines = fit_table(ROWS, width)
    assert max(len(line) for line in lines) <= width
    assert _cells(lines) == {cell for row in ROWS for cell in row}
    blocks = "\n".join(lines).split("\n\n")
    assert all(block.splitlines()[1].split()[0] == "first" for block in blocks)  # the name column repeats
    natural = max(len(line) for line in fit_table(ROWS, 10_000))
    assert (len(blocks) == 1) == (natural <= width)


def test_columns_are_aligned_name_left_numbers_right() -> None:
    lines = fit_table(ROWS, 200, indent="")
    assert lines[1] == "first           1                22  333"
    assert lines[2] == "second-row   4444                 5    6"


def _data() -> dict[str, Any]:
    providers = {
        "anthropic": {f: 100 + i for i, f in enumerate(FIGURES)},
        "openai-responses": {f: 7 * i for i, f in enumerate(FIGURES)},
        "zai": dict.fromkeys(FIGURES, 0),
    }
    providers["openai-responses"]["requests"] = 12
    return {
        "files": 3,
        "providers": providers,
        "findings": [],
        "disagreements": [],
        "rejections": [],
        "skipped": [],
        "unreadable": [],
        "fail_on": ["reject"],
        "counts": {"reject": 0, "degrade": 0, "policy": 0},
        "failing": 0,
        "ok": True,
    }


@pytest.mark.parametrize("width", [80, 100, 240])
def test_the_traffic_audit_figures_fit_the_terminal(width: int) -> None:
    text = render_terminal(_data(), width)
    assert max(len(line) for line in text.splitlines()) <= width
    anthropic = [line.split()[1:] for line in text.splitlines() if line.strip().startswith("anthropic")]
    shown = [cell for row in anthropic for cell in row]
    figures = _data()["providers"]["anthropic"]
    assert shown[:4] == [str(figures[f]) for f in ("requests", "accepted", "rejected", "disagreements")]
    assert f"{figures['continuations']}/{figures['pairs']}" in shown
    assert f"{figures['prefixes_stable']}/{figures['prefixes']}" in shown
    assert "zai" not in text  # no request in the traffic: the JSON report lists it, the terminal does not
