"""The public surface: ``harness.__all__`` is exactly what an adopter needs, and importing it is cheap."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

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


# ---------------------------------------------------------------------- what examples/ may import

ROOT = Path(__file__).resolve().parent.parent


def public_surface() -> dict[str, frozenset[str]]:
    """The modules an adopter may import, each with the names it may take from it (its ``__all__``)."""
    import harness.kit
    import harness.strategies
    import harness.testing

    modules = {"harness": harness, "harness.kit": harness.kit, "harness.testing": harness.testing}
    modules["harness.strategies"] = harness.strategies
    return {name: frozenset(module.__all__) for name, module in modules.items()}


def private_imports(source: str, filename: str, surface: dict[str, frozenset[str]]) -> list[str]:
    """One line per import of a harness module or name outside ``surface`` (``file:line: what``)."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "harness" and alias.name not in surface:
                    found.append(f"{filename}:{node.lineno}: import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "harness":
            if node.module not in surface:
                found.append(f"{filename}:{node.lineno}: from {node.module} import ...")
                continue
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                if alias.name not in surface[node.module] and submodule not in surface:
                    found.append(f"{filename}:{node.lineno}: from {node.module} import {alias.name}")
    return found


def _example_sources() -> list[tuple[str, str]]:
    """Every Python file under examples/, and every Python block of the target-writing guide."""
    sources = [
        (str(p.relative_to(ROOT)), p.read_text(encoding="utf-8"))
        for p in sorted((ROOT / "examples").rglob("*.py"))
    ]
    guide = ROOT / "docs" / "writing-a-target.md"
    for n, block in enumerate(re.findall(r"```python\n(.*?)```", guide.read_text(encoding="utf-8"), re.S)):
        sources.append((f"docs/writing-a-target.md#python-block-{n}", block))
    return sources


def test_examples_import_only_the_public_surface() -> None:
    surface = public_surface()
    sources = _example_sources()
    assert any(name.startswith("examples/adopter/") for name, _ in sources)
    found = [line for name, text in sources for line in private_imports(text, name, surface)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize(
    ("line", "private"),
    [
        ("from harness.replay import parser_for", True),
        ("import harness.providers", True),
        ("from harness import _EXPORTS", True),
        ("from harness.kit import not_a_kit_name", True),
        ("from harness import kit, CallParams", False),
        ("from harness.testing import TargetConformance", False),
        ("import harness.kit", False),
    ],
)
def test_the_surface_check_catches_a_private_import(line: str, private: bool) -> None:
    assert bool(private_imports(line, "x.py", public_surface())) is private
