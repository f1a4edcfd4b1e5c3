"""``docs/api.md`` lists every supported public name: it is current, every name says what it is, and
no module of the surface offers a public name the surface does not declare."""

from __future__ import annotations

from pathlib import Path

import pytest

import harness
from tools.api_docs import declared, describe, public_names, render, undeclared

ROOT = Path(__file__).resolve().parent.parent
SURFACE = harness._SURFACE  # pyright: ignore[reportPrivateUsage]


def test_api_md_is_current() -> None:
    committed = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    assert committed == render(), "docs/api.md is stale: uv run python -m tools.api_docs docs/api.md"


@pytest.mark.parametrize("module", sorted(SURFACE))
def test_every_declared_name_says_what_it_is(module: str) -> None:
    silent = [name for name in declared(module) if not describe(module, name)[2]]
    assert silent == [], f"{module}: give these a docstring (or a #: comment above the assignment)"


@pytest.mark.parametrize("module", sorted(SURFACE))
def test_a_module_of_the_surface_offers_no_undeclared_public_name(module: str) -> None:
    """What a module defines or re-exports is public to a type checker (py.typed): declare it in
    ``harness._SURFACE`` (or the module's ``__all__``), or make it ``_private``."""
    assert undeclared(module) == []


def test_public_names_finds_definitions_and_reexports_only() -> None:
    source = (
        "from a import b as b\nfrom a import c\nimport d as d\nimport e\n"
        "def helper(): ...\nclass Thing: ...\nLIMIT = 3\ncount: int = 0\n_private = 1\n"
        "def _hidden(): ...\n"
    )
    assert public_names(source) == {"b", "d", "helper", "Thing", "LIMIT", "count"}


def test_the_page_is_made_from_the_surface(monkeypatch: pytest.MonkeyPatch) -> None:
    """A name added to the surface appears on the page, so a stale page cannot pass."""
    monkeypatch.setitem(SURFACE, "harness.testing", ("TargetConformance",))
    assert "`register_profiles()" not in render()
    monkeypatch.setitem(SURFACE, "harness.testing", ("TargetConformance", "register_profiles"))
    assert "| `register_profiles() -> None` | function | Register `harness` and `harness-deep`" in render()
