"""The repository stands alone and says what it ships: no path outside it, its licenses, its types."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Where prose and code live (data files, recordings and vendored specs are quoted as they were).
_TEXT = (".py", ".md", ".toml", ".txt", ".cfg", ".ini", "")
_PLACES = ("README.md", "CHANGELOG.md", "NOTICE", "docs", "harness", "tests", "tools", "examples",
           "benchmarks", ".ci", "traffic", "cassettes", "conftest.py", "pyproject.toml")  # fmt: skip
#: A sibling checkout's files, which a user of this repository does not have.
_OUTSIDE = ("../" + "shared", "/work/" + "shared")


def _texts() -> list[Path]:
    found: list[Path] = []
    for place in _PLACES:
        path = ROOT / place
        candidates = [path] if path.is_file() else sorted(path.rglob("*"))
        found += [
            p
            for p in candidates
            if p.is_file() and p.suffix in _TEXT and "__pycache__" not in p.parts and ".venv" not in p.parts
        ]
    return found


def test_nothing_cites_a_file_outside_the_repository() -> None:
    """A recording is cited by its origin (repository, commit, path) or bundled with its attribution."""
    texts = _texts()
    assert len(texts) > 300  # the walk reached the code and the docs
    cited = [
        f"{p.relative_to(ROOT)}:{n}: {line.strip()[:120]}"
        for p in texts
        for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if any(outside in line for outside in _OUTSIDE)
    ]
    assert cited == []


def test_the_licenses_are_there_and_ship_in_the_wheel() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE", "NOTICE", "LICENSES/*"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert "Apache License" in (ROOT / "LICENSES" / "Apache-2.0.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "attribution",
    [
        "traffic/pydantic-ai/SOURCES.md",
        "traffic/pydantic-ai-more/SOURCES.md",
        "tests/data/realstreams/SOURCES.md",
        "cassettes/PROVENANCE.md",
        "harness/oracles/specs/PROVENANCE.md",
        "harness/secret_rules/LICENSE.gitleaks",
        "harness/secret_rules/gitleaks.provenance.json",
    ],
)
def test_the_notice_names_every_attribution_file(attribution: str) -> None:
    """Each bundled data set keeps its attribution beside it; NOTICE gathers them, by file."""
    assert (ROOT / attribution).is_file()
    assert attribution in (ROOT / "NOTICE").read_text(encoding="utf-8") or (
        Path(attribution).name in (ROOT / "NOTICE").read_text(encoding="utf-8")
    )


def test_the_package_declares_its_types() -> None:
    """PEP 561: adopters' type checkers read the harness's annotations (the wheel carries the marker:
    hatch ships every file of ``harness/``; .ci/adopter checks the installed wheel)."""
    assert (ROOT / "harness" / "py.typed").is_file()
