"""The suite itself: the default run selects every test, and the layout follows tests/README.md.

A deselection switches off two guards: syrupy reports unused goldens only when every collected test was selected, and the
cassette-hygiene check only judges a full run; a ``-m``/``-k`` in ``addopts`` (for example
to keep expensive tests out) would silently turn both off. Expensive tests skip instead.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path


def test_default_options_deselect_nothing() -> None:
    config = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text("utf-8"))
    addopts = shlex.split(config["tool"]["pytest"]["ini_options"].get("addopts", ""))
    assert not {"-m", "-k", "--deselect"} & set(addopts), addopts


# ---------------------------------------------------------------- the layout (tests/README.md)

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


def _covered_by_name() -> set[str]:
    """The names a test file may start with: a harness package or top-level module, or a tool."""
    harness = ROOT / "harness"
    packages = {p.name for p in harness.iterdir() if (p / "__init__.py").is_file()}
    modules = {p.stem for p in harness.glob("*.py") if p.stem != "__init__"}
    tools = {p.stem for p in (ROOT / "tools").glob("*.py") if p.stem != "__init__"}
    return packages | modules | tools


def _listed_apart() -> set[str]:
    """The test files tests/README.md lists as following no single module."""
    readme = (TESTS / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Tests that follow no single module", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`(test_\w+)\.py`", section))


def _follows_the_rule(stem: str, names: set[str]) -> bool:
    rest = stem.removeprefix("test_")
    return any(rest == name or rest.startswith(f"{name}_") for name in names)


def test_every_test_module_is_named_after_what_it_tests() -> None:
    names, apart = _covered_by_name(), _listed_apart()
    stray = [
        p.name
        for p in sorted(TESTS.glob("test_*.py"))
        if not _follows_the_rule(p.stem, names) and p.stem not in apart
    ]
    assert stray == [], "name each after its package or module, or list it in tests/README.md"
    assert apart <= {p.stem for p in TESTS.glob("test_*.py")}, "tests/README.md lists a file that is gone"
    assert not {s for s in apart if _follows_the_rule(s, names)}, "listed apart, yet named after a module"


def test_provider_tests_sit_in_their_providers_folder() -> None:
    folders = {p.name for p in (ROOT / "harness" / "providers").iterdir() if (p / "__init__.py").is_file()}
    for folder in sorted(
        p for p in (TESTS / "providers").iterdir() if p.is_dir() and p.name != "__pycache__"
    ):
        assert folder.name in folders, f"tests/providers/{folder.name}/ names no provider folder"
        for test in folder.glob("test_*.py"):
            assert folder.name in test.stem, f"{test.relative_to(ROOT)} does not name its provider"


#: ``import tests.x`` / ``from tests.x import y``, at any indentation (an import inside a function too).
_IMPORTED = re.compile(r"^[ \t]*(?:from|import)[ \t]+(tests(?:\.\w+)+)", re.MULTILINE)


def test_no_test_module_imports_another() -> None:
    """Shared helpers live in tests/support/: a test module imported by another is a helper in the
    wrong place, and every test module would have to be read to find it."""
    imports = [
        f"{path.relative_to(ROOT)}: {module}"
        for path in sorted(TESTS.rglob("*.py"))
        for module in _IMPORTED.findall(path.read_text(encoding="utf-8"))
        if module.split(".")[-1].startswith("test_")
    ]
    assert imports == []
