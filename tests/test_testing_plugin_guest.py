"""The pytest plugin is a good guest: installing the harness changes nothing a host project sees.

Each test runs pytest in a subprocess inside a temporary project that has nothing to do with
this repository (its own ``pytest.ini``, so neither this ``conftest.py`` nor ``pyproject.toml``
applies), with the plugin active through its ``pytest11`` entry point, exactly as in an
adopter's CI. Module counts, never timings, guard the import cost.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import cast

import pytest

from harness.record import RECORD_MODES
from harness.testing import pytest_plugin

#: What a host test reports about the session it runs in.
HOST_TEST = """
import json, os, sys, warnings

import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.database import DirectoryBasedExampleDatabase


def test_report(request):
    s = settings()
    report = {
        "plugin_active": request.config.pluginmanager.has_plugin("harness"),
        "profile": settings.get_current_profile_name(),
        "max_examples": s.max_examples,
        "derandomize": s.derandomize,
        "deadline_ms": None if s.deadline is None else s.deadline.total_seconds() * 1000,
        "database": isinstance(s.database, DirectoryBasedExampleDatabase),
        "warning_filters": [repr(f) for f in warnings.filters],
        "environ": sorted(os.environ),
        "heavy": sorted(
            m for m in sys.modules
            if m.split(".")[0] in ("harness", "hypothesis", "pydantic", "vcr", "syrupy")
        ),
    }
    (request.config.rootpath / "report.json").write_text(json.dumps(report))


@given(st.integers())
def test_plain_property(x):
    assert isinstance(x, int)
"""


#: The variables by which Hypothesis decides it runs on CI and loads its ``ci`` profile
#: (``hypothesis._settings.is_in_ci``): the host runs without them, so that it sees the same
#: defaults whether this suite itself runs on a developer's machine or on CI.
_CI_MARKERS = ("CI", "__TOX_ENVIRONMENT_VARIABLE_ORIGINAL_CI", "TF_BUILD", "bamboo.buildKey", "BUILDKITE",
               "CIRCLECI", "CIRRUS_CI", "CODEBUILD_BUILD_ID", "GITHUB_ACTIONS", "GITLAB_CI",
               "HEROKU_TEST_RUN_ID", "TEAMCITY_VERSION")  # fmt: skip


def _host(tmp_path: Path, *args: str) -> dict[str, object]:
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_host.py").write_text(HOST_TEST)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", *args],
        env={k: v for k, v in os.environ.items() if k not in _CI_MARKERS},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads((tmp_path / "report.json").read_text())


@pytest.fixture(scope="module")
def plugin_host(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The host's plain run with the plugin active: the same run for every test that reads it."""
    return _host(tmp_path_factory.mktemp("with"))


def test_a_host_project_sees_hypothesis_own_defaults(plugin_host: dict[str, object]) -> None:
    report = plugin_host
    assert report["plugin_active"] is True
    assert report["profile"] == "default"
    assert report["max_examples"] == 100
    assert report["derandomize"] is False
    assert report["deadline_ms"] == 200
    assert report["database"] is True  # Hypothesis's own .hypothesis/ directory database


def test_the_plugin_changes_nothing_else_and_imports_nothing_heavy(
    plugin_host: dict[str, object], tmp_path: Path
) -> None:
    with_plugin = plugin_host
    without = _host(tmp_path, "-p", "no:harness")
    assert with_plugin["plugin_active"] is True and without["plugin_active"] is False
    for seen in ("profile", "max_examples", "derandomize", "deadline_ms", "database", "warning_filters"):
        assert with_plugin[seen] == without[seen], seen
    assert with_plugin["environ"] == without["environ"]
    added = sorted(set(cast(list[str], with_plugin["heavy"])) - set(cast(list[str], without["heavy"])))
    assert added == ["harness", "harness.testing", "harness.testing.pytest_plugin"], added


def test_a_run_that_names_a_harness_profile_gets_it(tmp_path: Path) -> None:
    """The report alone: the host's property test would only draw 5000 integers under the profile."""
    report = _host(tmp_path, "--hypothesis-profile=harness-deep", "-k", "test_report")
    assert report["profile"] == "harness-deep"
    assert report["max_examples"] == 5000


def test_a_bare_import_of_the_plugin_loads_no_harness_machinery() -> None:
    code = (
        "import sys; before = set(sys.modules); import harness.testing.pytest_plugin; "
        "print('\\n'.join(sorted(set(sys.modules) - before)))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    new = loaded.stdout.split()
    ours = [m for m in new if m.split(".")[0] in ("harness", "hypothesis", "pydantic", "vcr", "syrupy")]
    assert ours == ["harness", "harness.testing", "harness.testing.pytest_plugin"], ours
    assert "pytest" in new  # the check itself sees what was imported


def test_the_harness_profiles_never_touch_hypothesis_default() -> None:
    from hypothesis import settings

    default = settings.get_profile("default")
    pytest_plugin.register_profiles()
    assert settings.get_profile("default") is default
    assert pytest_plugin.harness_profile().max_examples == settings.get_profile("harness").max_examples
    assert settings.get_profile("harness").derandomize is True


def test_record_modes_are_spelled_once_in_meaning() -> None:
    assert pytest_plugin.RECORD_MODES == RECORD_MODES


@pytest.mark.parametrize("profile", pytest_plugin.PROFILES)
def test_each_harness_profile_is_registered_under_its_own_name(profile: str) -> None:
    from hypothesis import settings

    pytest_plugin.register_profiles()
    assert settings.get_profile(profile) is not settings.get_profile("default")


def test_the_suite_an_adopter_subclasses_is_assertion_rewritten() -> None:
    """pytest rewrites the package of a ``pytest11`` plugin by itself: ``harness.testing``'s asserts
    (syrupy's golden diffs, the suite's verdicts) explain their failures with no help from the plugin."""
    import harness.testing.suite

    loader = type(getattr(harness.testing.suite.__spec__, "loader", None)).__name__
    assert loader == "AssertionRewritingHook"
