"""docs/architecture.md is true where it can be checked: the paths it names, the module map, the
diagram's machinery and the public surface (its layers table: ``tests/test_layers.py``; its
dialect recipe: ``tests/test_recipes.py``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import harness

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "harness"
PAGE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def section(title: str, page: str = PAGE) -> str:
    start = page.index(f"\n## {title}\n")
    end = page.find("\n## ", start + 1)
    return page[start : end if end != -1 else len(page)]


def _packages(root: Path = HARNESS) -> set[str]:
    return {p.name for p in root.iterdir() if p.is_dir() and p.name != "__pycache__"}


def _map_rows(page: str = PAGE) -> dict[str, list[str]]:
    """Module map: package -> the names its row lists (modules, subpackages, data files)."""
    rows: dict[str, list[str]] = {}
    for line in section("Module map", page).splitlines():
        found = re.match(r"\| `([a-z_]+)/` \| [^|]* \| (.*) \|$", line)
        if found:
            rows[found.group(1)] = re.findall(r"`([A-Za-z0-9_./]+)`", found.group(2))
    return rows


def named_paths(page: str = PAGE) -> list[str]:
    """Every ``harness/...`` path the page names (placeholders such as ``<folder>`` left out)."""
    return sorted({p for p in re.findall(r"harness/[A-Za-z0-9_./]+", page) if not p.endswith("/<")})


def missing_paths(page: str = PAGE) -> list[str]:
    return [p for p in named_paths(page) if not (ROOT / p.rstrip(".")).exists()]


def test_every_path_the_page_names_exists() -> None:
    assert named_paths(), "the page names no path: the check would pass on nothing"
    assert missing_paths() == []


def test_every_package_has_a_row_in_the_module_map_and_every_listed_name_exists() -> None:
    rows = _map_rows()
    assert set(rows) == _packages()
    for package, names in rows.items():
        assert names, package
        for name in names:
            assert (HARNESS / package / name.rstrip("/")).exists(), f"{package}/{name}"


@pytest.mark.parametrize("package", ["mapping", "stream"])
def test_the_diagram_shows_every_module_of_the_neutral_machinery(package: str) -> None:
    diagram = PAGE.split("```")[1]
    line = next(i for i, text in enumerate(diagram.splitlines()) if text.startswith(f" harness/{package}/"))
    lines = diagram.splitlines()[line : line + 2]
    shown = set(re.findall(r"([a-z_0-9]+)\.py", " ".join(lines)))
    modules = {p.stem for p in (HARNESS / package).glob("*.py") if p.stem != "__init__"}
    assert shown == modules


def test_the_public_surface_is_harness_surface() -> None:
    said = re.findall(r"`(harness(?:\.[a-z_]+)*)`", section("The public surface"))
    assert set(said) - {"harness._SURFACE"} == set(harness._SURFACE)  # pyright: ignore[reportPrivateUsage]


@pytest.mark.parametrize(
    "page",
    [
        PAGE.replace("`harness/contract/stops.py`", "`harness/contract/stopped.py`"),
        PAGE.replace("| `secret_rules/` |", "| `secret_rulez/` |"),
        PAGE.replace(" eventstream.py", ""),
    ],
    ids=["a stale path", "a package missing from the map", "a module missing from the diagram"],
)
def test_the_checks_catch_a_stale_page(page: str) -> None:
    diagram = page.split("```")[1]
    stream = next(t for t in diagram.splitlines() if t.startswith(" harness/stream/"))
    caught = (
        bool(missing_paths(page))
        or set(_map_rows(page)) != _packages()
        or "eventstream.py" not in stream + diagram.split(stream)[1].splitlines()[1]
    )
    assert caught
