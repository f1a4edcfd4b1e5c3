"""The public surface: ``harness.__all__`` is exactly what an adopter needs, and importing it is cheap."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from importlib import import_module
from pathlib import Path
from typing import cast

import pytest

import harness


def test_all_is_exactly_the_public_names_and_each_resolves() -> None:
    public = [*harness._EXPORTS, *harness._MODULES]  # pyright: ignore[reportPrivateUsage]
    assert sorted(harness.__all__) == sorted(public) and len(set(harness.__all__)) == len(public)
    for name in harness.__all__:
        assert getattr(harness, name) is not None, name
    expected = {"AssistantMessage", "CallParams", "Rendered", "CallResult", "Target", "get_target"}
    assert expected | {"run_invariants", "load_scenarios", "strategies", "kit", "Kind"} <= set(
        harness.__all__
    )
    assert not [n for n in harness.__all__ if n.startswith("_")]


def test_importing_harness_loads_nothing_heavy() -> None:
    code = "import sys, harness; print(sorted(m for m in sys.modules if m.startswith('harness')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['harness']", loaded


def test_the_kit_is_public_and_cheap() -> None:
    assert {"OfflineWire", "WorkerTarget", "final_result", "stop_reason", "usage", "sent_id"} <= set(
        harness.kit.__all__
    )
    for name in harness.kit.__all__:
        assert getattr(harness.kit, name) is not None, name
    code = "import sys, harness.kit; print(sorted(m for m in sys.modules if m.startswith('harness')))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "['harness', 'harness.kit']", loaded


# ---------------------------------------------------------------- the declared surface for adopters

ROOT = Path(__file__).resolve().parent.parent
_EXAMPLES = ROOT / "examples"


def _declared(module: str) -> set[str] | None:
    """The names an adopter may import from ``module``, or None when the module is not declared."""
    surface = harness._SURFACE  # pyright: ignore[reportPrivateUsage]
    if module not in surface:
        return None
    names = surface[module]
    if names is not None:
        return set(names)
    return set(cast(list[str], import_module(module).__all__))


def outside_the_surface(source: str) -> list[str]:
    """Every harness import in ``source`` that the declared surface does not offer, as ``module:name``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [
                f"{a.name}:*"
                for a in node.names
                if a.name.startswith("harness") and _declared(a.name) is None
            ]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "harness":
            declared = _declared(node.module)
            found += [
                f"{node.module}:{a.name}"
                for a in node.names
                if declared is None
                or (a.name not in declared and f"{node.module}.{a.name}" not in harness._SURFACE)  # pyright: ignore[reportPrivateUsage]
            ]
    return found


def test_every_declared_name_exists() -> None:
    for module, names in harness._SURFACE.items():  # pyright: ignore[reportPrivateUsage]
        loaded = import_module(module)
        for name in names or cast(list[str], loaded.__all__):
            assert getattr(loaded, name, None) is not None, f"{module}:{name}"


@pytest.mark.parametrize(
    "path", sorted(_EXAMPLES.rglob("*.py")), ids=lambda p: p.relative_to(_EXAMPLES).as_posix()
)
def test_the_examples_import_only_the_declared_surface(path: Path) -> None:
    assert outside_the_surface(path.read_text(encoding="utf-8")) == []


def _guide_blocks() -> list[str]:
    """Every Python block of the target-writing guide: an adopter copies them as they are."""
    guide = (ROOT / "docs" / "writing-a-target.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", guide, re.S)


@pytest.mark.parametrize("n", range(len(_guide_blocks())), ids=lambda n: f"python-block-{n}")
def test_the_guide_imports_only_the_declared_surface(n: int) -> None:
    assert outside_the_surface(_guide_blocks()[n]) == []


def test_examples_are_checked_at_all() -> None:
    assert any("harness" in p.read_text(encoding="utf-8") for p in _EXAMPLES.rglob("*.py"))
    assert any("harness" in block for block in _guide_blocks())


@pytest.mark.parametrize(
    "source",
    [
        "from harness.audit.run import reference_replay",
        "from harness.providers.replay import load_exchanges",
        "from harness.providers.replay import parser_for",
        "from harness import _EXPORTS",
        "def f():\n    from harness.testing.suite import judge",
        "import harness.mapping.prepare",
        "from harness.testing.goldens import GoldenJSON",
        "from harness.kit import not_a_kit_name",
    ],
)
def test_an_import_outside_the_surface_is_caught(source: str) -> None:
    assert outside_the_surface(source) != []


@pytest.mark.parametrize(
    "source",
    [
        "from harness import CallParams, Rendered",
        "from harness.testing import TargetConformance",
        "from harness.kit import OfflineWire",
        "import harness.kit",
    ],
)
def test_an_import_inside_the_surface_passes(source: str) -> None:
    assert outside_the_surface(source) == []
