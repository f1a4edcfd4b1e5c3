"""``docs/invariants.md`` lists every invariant: it is current, and made from the registry."""

from __future__ import annotations

from pathlib import Path

from harness.invariants import INVARIANTS
from tools.invariant_docs import render

ROOT = Path(__file__).resolve().parent.parent


def test_invariants_md_is_current() -> None:
    committed = (ROOT / "docs" / "invariants.md").read_text(encoding="utf-8")
    assert committed == render(), (
        "docs/invariants.md is stale: uv run python -m tools.invariant_docs docs/invariants.md"
    )


def test_every_invariant_is_on_the_page() -> None:
    page = render()
    for inv in INVARIANTS:
        assert f"## {inv.id} {inv.name}" in page
