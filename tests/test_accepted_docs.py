"""``docs/accepted.md`` lists every accepted difference: it is current, and made from the registry."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from harness.accepted.registry import REGISTRY
from harness.crosscheck import DIFFERENCES
from tools.accepted_docs import render

ROOT = Path(__file__).resolve().parent.parent


def test_accepted_md_is_current() -> None:
    committed = (ROOT / "docs" / "accepted.md").read_text(encoding="utf-8")
    assert committed == render(), (
        "docs/accepted.md is stale: uv run python -m tools.accepted_docs docs/accepted.md"
    )


def test_every_entry_is_on_the_page() -> None:
    page = render()
    for entry in REGISTRY:
        assert f"### `{entry.id}` ({', '.join(entry.judges)}: {entry.diff})" in page, entry.id
    for difference in DIFFERENCES:
        assert f"### `{difference.id}` (stream oracle)" in page, difference.id


def test_the_page_is_made_from_the_entries() -> None:
    """Editing an entry changes the page, so a stale page cannot pass."""
    edited = (dataclasses.replace(REGISTRY[0], why="edited on purpose"), *REGISTRY[1:])
    assert "- why: edited on purpose" in render(edited)


def test_no_other_list_of_accepted_differences_in_the_package() -> None:
    """The registry's type is the only one: no module of harness/ declares a subclass of ``Accepted``."""
    for path in sorted((ROOT / "harness").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = {b.id for b in node.bases if isinstance(b, ast.Name)}
                assert "Accepted" not in bases, f"{path}: {node.name}"
