"""``docs/accepted.md`` lists every accepted difference: it is current, and no list escapes it."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from harness.contract.accepted import Accepted
from harness.contract.providers import PROVIDERS
from tools import accepted_docs
from tools.accepted_docs import SOURCES, render

ROOT = Path(__file__).resolve().parent.parent


def test_accepted_md_is_current() -> None:
    committed = (ROOT / "docs" / "accepted.md").read_text(encoding="utf-8")
    assert committed == render(), (
        "docs/accepted.md is stale: uv run python -m tools.accepted_docs docs/accepted.md"
    )


def _accepted_kinds_in_the_source() -> set[str]:
    """Every class in harness/ declared as a subclass of ``Accepted``, by name."""
    found: set[str] = set()
    for path in sorted((ROOT / "harness").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                isinstance(b, ast.Name) and b.id == "Accepted" for b in node.bases
            ):
                found.add(node.name)
    return found


def _direct_kind(cls: type) -> str:
    """The class in ``cls``'s ancestry that subclasses ``Accepted`` directly (a list's own shape)."""
    return next(c.__name__ for c in cls.__mro__ if Accepted in c.__bases__)


def test_every_kind_of_accepted_difference_is_on_the_page() -> None:
    listed = {_direct_kind(type(entry)) for source in SOURCES for entry in source.entries}
    assert _accepted_kinds_in_the_source() == listed


def test_every_entry_names_one_known_provider_and_argues_its_case() -> None:
    page = render()
    for source in SOURCES:
        for entry in source.entries:
            assert isinstance(entry, Accepted), entry
            assert entry.provider in PROVIDERS, (source.name, entry.id)
            assert entry.id and entry.why.strip(), (source.name, entry.id)
            assert f"### `{entry.id}` (" in page, entry.id


def test_the_page_is_made_from_the_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Editing an entry changes the page, so a stale page cannot pass."""
    first = SOURCES[0]
    edited = dataclasses.replace(first, entries=[dataclasses.replace(first.entries[0], why="edited")])
    monkeypatch.setattr(accepted_docs, "SOURCES", (edited, *SOURCES[1:]))
    assert "- why: edited" in render()
