"""A broken judge or a broken target turns the run red with the cause; only "not installed" skips."""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import harness.targets
from harness.targets import TargetError, TargetNotInstalled, get_target
from tests.support.worker_targets import load_or_skip

pytest_plugins = ["pytester"]

BRIDGES = {
    "name_error_bridge": "TARGET = undefined_name  # an injected NameError\n",
    "needs_library_bridge": "import litellm_is_not_installed_here  # a library the bridge needs\n\nTARGET = None\n",
}
#: A bridge inside its own package that imports a module of that package which is not there.
OWN_PACKAGE = {"__init__.py": "", "bridge.py": "import ownpkg.helpers_typo\n\nTARGET = None\n"}


@pytest.fixture
def bridges(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Three registered targets whose modules fail to import, each for another reason."""
    for module, source in BRIDGES.items():
        (tmp_path / f"{module}.py").write_text(source, encoding="utf-8")
    (tmp_path / "ownpkg").mkdir()
    for name, source in OWN_PACKAGE.items():
        (tmp_path / "ownpkg" / name).write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))  # pyright: ignore[reportUnknownMemberType]
    points = [EntryPoint(m.removesuffix("_bridge"), f"{m}:TARGET", "harness.targets") for m in BRIDGES]
    points.append(EntryPoint("own_package", "ownpkg.bridge:TARGET", "harness.targets"))

    def entry_points(group: str) -> list[EntryPoint]:
        return [p for p in points if p.group == group]

    monkeypatch.setattr(harness.targets, "entry_points", entry_points)
    harness.targets.available_targets.cache_clear()
    harness.targets.get_target.cache_clear()
    yield
    harness.targets.available_targets.cache_clear()
    harness.targets.get_target.cache_clear()


@pytest.mark.usefixtures("bridges")
def test_a_name_error_in_a_target_is_an_error_never_a_skip() -> None:
    with pytest.raises(TargetError) as raised:
        get_target("name_error")
    assert not isinstance(raised.value, TargetNotInstalled)
    assert "NameError: name 'undefined_name' is not defined" in str(raised.value)
    with pytest.raises(pytest.fail.Exception, match=r"installed but failed to load.*NameError"):
        load_or_skip("name_error")


@pytest.mark.usefixtures("bridges")
def test_a_library_the_bridge_needs_not_installed_skips_with_the_install_hint() -> None:
    with pytest.raises(TargetNotInstalled, match=r"needs 'litellm_is_not_installed_here'.*pip install"):
        get_target("needs_library")
    with pytest.raises(pytest.skip.Exception, match="not installed"):
        load_or_skip("needs_library")


@pytest.mark.usefixtures("bridges")
def test_a_missing_module_of_the_bridges_own_package_is_an_error() -> None:
    with pytest.raises(TargetError) as raised:
        get_target("own_package")
    assert not isinstance(raised.value, TargetNotInstalled)
    assert "ModuleNotFoundError: No module named 'ownpkg.helpers_typo'" in str(raised.value)


ADOPTER = """
from harness.testing import TargetConformance

class TestAdopter(TargetConformance):
    target = {target!r}
"""


@pytest.mark.usefixtures("bridges")
def test_harness_testing_errors_on_a_broken_target(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_adopter=ADOPTER.format(target="name_error"))
    result = pytester.runpytest("-p", "no:cacheprovider")
    assert result.ret not in (0, 5)
    assert result.parseoutcomes().get("errors", 0) >= 1, result.stdout.str()
    assert "passed" not in result.parseoutcomes()
    result.stdout.fnmatch_lines(["*NameError: name 'undefined_name' is not defined*"])


@pytest.mark.usefixtures("bridges")
def test_harness_testing_skips_a_target_not_installed_with_the_hint(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_adopter=ADOPTER.format(target="needs_library"))
    result = pytester.runpytest("-p", "no:cacheprovider", "-rs")
    assert set(result.parseoutcomes()) == {"skipped"}, result.stdout.str()
    result.stdout.fnmatch_lines(["SKIPPED*needs 'litellm_is_not_installed_here', which is not installed*"])


BROKEN_JUDGE = """
import importlib.abc
import sys


class _BrokenJudge(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "harness.invariants.developer":
            raise RuntimeError("judge broken on purpose")
        return None


for _name in [m for m in sys.modules if m.startswith("harness.invariants")]:
    del sys.modules[_name]
sys.meta_path.insert(0, _BrokenJudge())
"""


def test_a_judge_that_raises_on_import_turns_the_conformance_suite_red(pytester: pytest.Pytester) -> None:
    """The invariants registry's import fails (never the real file: an import hook in a temporary project)."""
    pytester.makeconftest(BROKEN_JUDGE)
    pytester.makepyfile(
        test_adopter=textwrap.dedent(
            """
            from harness.testing import TargetConformance

            class TestAdopter(TargetConformance):
                target = "reference"
                providers = ("anthropic",)
                scenarios = ("developer_at_start",)
                request_goldens = False
            """
        )
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-q", "-x")
    assert result.ret not in (0, 5), result.stdout.str()
    assert "passed" not in result.parseoutcomes()
    assert "skipped" not in result.parseoutcomes()
    result.stdout.fnmatch_lines(["*RuntimeError: judge broken on purpose*"])


def test_the_audit_names_a_broken_judge_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from harness.audit.invariant_checks import JudgeUnavailable, load_runner

    monkeypatch.setitem(sys.modules, "harness.invariants", None)  # import of it now raises ImportError
    with pytest.raises(JudgeUnavailable, match=r"harness.invariants failed to import.*ModuleNotFoundError"):
        load_runner()
