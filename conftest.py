"""Top-level pytest configuration: this repository's Hypothesis profile and the ``golden`` fixture.

The ``harness`` profile is the harness plugin's (registered, never loaded, by the plugin:
installing the package must not change a host project's settings); this repository opts in
here. ``--hypothesis-profile=harness-deep`` still wins: Hypothesis's own plugin loads it later.

typer's ``CliRunner`` builds the click command from the ``Typer`` app on every ``invoke``
(about 35 ms: every command's signature and string annotations evaluated again), which the
CLI tests paid hundreds of times (hypothesis tests invoke it once per example). An app's
commands are fixed at import (``harness.cli.main``), so each app's command is built once.

The audit's fixed set of generated histories (``harness.audit.generated``) is drawn once per
run and shared by the xdist workers and the subprocesses tests start (``HARNESS_GENERATED_SHARE``,
a temporary folder for the run): each drew its own, seconds of CPU apiece.

The SDK oracle's validator cache (``harness.oracles.sdk_cache``) is pinned for the run
(``HARNESS_CACHE_DIR``): ``pytester`` moves ``HOME`` per test, and each inner run judging I12
then imported the SDK to build the cache again.

PyYAML is imported here, before any test: ``pytester`` drops the modules an inner run
imported, and a second inner run then imports ``yaml`` again, but not its C extension (one per
process), whose nodes are the first import's classes (``harness.inputs.yaml_load`` failed with
``KeyError: MappingNode`` under ``-n0``, where nothing else had imported PyYAML first).

Under ``--dist worksteal`` a long test that starts last keeps one core busy while the other
idles; the modules whose tests take seconds each (subprocesses, whole audits) run first, so
the run ends on short tests that either worker can take.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from functools import cache

import pytest
import typer.main
import typer.testing
import yaml  # noqa: F401  # pyright: ignore[reportUnusedImport]  (before any pytester snapshot: see above)
from hypothesis import settings
from syrupy.assertion import SnapshotAssertion

from harness.audit.generated import SHARE_ENV
from harness.testing.goldens import GoldenJSON
from harness.testing.pytest_plugin import register_profiles

register_profiles()
settings.load_profile("harness")
setattr(typer.testing, "_get_command", cache(typer.main.get_command))  # noqa: B010 - the runner looks it up there


_OWNED_SHARE = pytest.StashKey[str]()
#: Where the SDK oracle keeps its validators (``harness.oracles.sdk_cache.cache_dir``).
_CACHE_ENV = "HARNESS_CACHE_DIR"

#: Modules whose tests take seconds each (measured: ``pytest --durations=0``), run first.
_LONG_FIRST = (
    "test_fail_loudly.py",
    "test_recipes.py",
    "test_testing_suite.py",
    "test_cassette_hygiene.py",
    "test_audit.py",
    "test_strategies_controls.py",
    "test_audit_report_browser.py",
    "test_traffic_audit.py",
    "test_outputs_atomic_writes.py",
    "test_audit_progress.py",
    "test_determinism.py",
    "test_testing_plugin_guest.py",
    "test_traffic_calibrate.py",
    "test_record_canary.py",
    "test_invariants_generated.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Long modules first (a stable sort: the order within each group is kept)."""
    items.sort(key=lambda item: item.path.name not in _LONG_FIRST)


def pytest_configure(config: pytest.Config) -> None:
    """The run's folder for shared generated histories, made by the first process (the xdist controller)."""
    if not os.environ.get(SHARE_ENV):
        folder = config.stash[_OWNED_SHARE] = tempfile.mkdtemp(prefix="harness-generated-")
        os.environ[SHARE_ENV] = folder  # inherited by the workers and every subprocess


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = config.stash.get(_OWNED_SHARE, None)
    if folder is not None:
        os.environ.pop(SHARE_ENV, None)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session", autouse=True)
def _share_corpus_runs(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Under xdist, the runs several tests read (``tests.support.once``) are computed by one worker."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        from tests.support.once import share_between_workers

        share_between_workers(tmp_path_factory.getbasetemp().parent)


@pytest.fixture(scope="session", autouse=True)
def _pin_sdk_cache() -> Iterator[None]:
    """The SDK oracle's validator cache stays where the run found it.

    ``pytester`` points ``HOME`` at each test's folder, so an inner run judging I12 otherwise
    misses the cache and imports the SDK to build it again (``anthropic``: seconds of CPU per
    test); its subprocesses inherit the pin.
    """
    from harness.oracles.sdk_cache import cache_dir

    where = None if os.environ.get(_CACHE_ENV) else cache_dir()
    if where is None:  # set by the caller, or the cache is off
        yield
        return
    os.environ[_CACHE_ENV] = str(where)
    yield
    os.environ.pop(_CACHE_ENV, None)


@pytest.fixture
def golden(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(GoldenJSON)
