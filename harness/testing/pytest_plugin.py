"""pytest plugin (``pytest11`` entry point): hypothesis profiles shared by every suite using the harness.

``default`` keeps a whole run well under five minutes on two cores and is derandomized,
so CI sees the same examples every run (a red CI is a real regression, never a lucky
draw); derandomized means no example database. ``deep`` draws fresh random examples at
length (``pytest --hypothesis-profile=deep``) and keeps failing examples in hypothesis's
example database: ``.hypothesis/`` by default, which xdist workers on one machine share,
or a ``DirectoryBasedExampleDatabase`` at ``$HARNESS_EXAMPLE_DB`` (a path every worker
and machine of a deep run can reach) so one machine's failure replays first on all.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

settings.register_profile(
    "default",
    max_examples=50,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "deep",
    max_examples=5000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
if _shared := os.environ.get("HARNESS_EXAMPLE_DB"):
    settings.register_profile(
        "deep", settings.get_profile("deep"), database=DirectoryBasedExampleDatabase(_shared)
    )
settings.load_profile("default")


# ---------------------------------------------------------------- cassettes: --record-mode, harness_cassette, hygiene
#
# ``--record-mode`` follows pytest-recording (none, once, new_episodes, all, rewrite;
# default none, so tests never touch the network). The ``harness_cassette`` fixture runs
# the test inside a vcrpy cassette with the harness serializer and scrubbing hooks.
# Cassette hygiene: every replay in the session is noted in a registry (see
# harness.record.played for why content-addressed); a test marked ``cassette_hygiene``
# runs after all others and checks the committed cassettes against it.

import contextlib  # noqa: E402
import re  # noqa: E402
from collections.abc import Iterator  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import pytest  # noqa: E402

from harness.record import RECORD_MODES  # noqa: E402
from harness.record.played import PlayRegistry, install_tracking  # noqa: E402

_REGISTRY = pytest.StashKey[PlayRegistry]()
_UNDO = pytest.StashKey[Any]()
_DESELECTED = pytest.StashKey[list[int]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("harness", "harness cassettes")
    with contextlib.suppress(ValueError):  # pytest-recording may own --record-mode already: share it
        group.addoption(
            "--record-mode",
            action="store",
            dest="record_mode",
            default="none",
            choices=RECORD_MODES,
            help="vcrpy record mode for harness_cassette tests (default none: replay only, no network).",
        )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "harness_cassette(path=None, **vcr_options): cassette for the harness_cassette fixture "
        "(a path relative to the rootdir; default tests/cassettes/<module>/<test>.yaml)",
    )
    config.addinivalue_line("markers", "cassette_hygiene: runs after every other test of the session")
    registry = PlayRegistry()
    config.stash[_REGISTRY] = registry
    config.stash[_UNDO] = install_tracking(registry)
    config.stash[_DESELECTED] = [0]


def pytest_unconfigure(config: pytest.Config) -> None:
    undo = config.stash.get(_UNDO, None)
    if undo is not None:
        undo()


def pytest_deselected(items: list[pytest.Item]) -> None:
    if items:
        items[0].config.stash[_DESELECTED][0] += len(items)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Hygiene checks need every other test's replays: run them last."""
    last = [item for item in items if item.get_closest_marker("cassette_hygiene")]
    if last:
        items[:] = [item for item in items if item not in last] + last


@pytest.fixture(scope="session")
def harness_play_registry(request: pytest.FixtureRequest) -> PlayRegistry:
    """Every recorded response replayed so far in this session (content-addressed)."""
    return request.config.stash[_REGISTRY]


@pytest.fixture(scope="session")
def harness_partial_session(request: pytest.FixtureRequest) -> str | None:
    """Why this session did not run the whole suite (so hygiene cannot judge), or None."""
    config = request.config
    if hasattr(config, "workerinput"):
        return "xdist worker: replays are spread over processes"
    if config.stash[_DESELECTED][0]:
        return f"{config.stash[_DESELECTED][0]} tests deselected"
    narrowed = [arg for arg in config.args if "::" in arg or not Path(arg).is_dir()]
    if narrowed:
        return f"collection narrowed to {', '.join(narrowed)}"
    if config.getoption("ignore", None) or config.getoption("ignore_glob", None):
        return "paths ignored with --ignore/--ignore-glob"
    return None


def _cassette_path(request: pytest.FixtureRequest, given: str | None) -> Path:
    if given is not None:
        path = Path(given)
        return path if path.is_absolute() else request.config.rootpath / path
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.name).strip("_")
    module = request.path
    return module.parent / "cassettes" / module.stem / f"{name}.yaml"


@pytest.fixture
def harness_cassette(request: pytest.FixtureRequest, harness_play_registry: PlayRegistry) -> Iterator[Any]:
    """The test runs inside a vcrpy cassette: harness serializer, scrubbing hooks, ``--record-mode``."""
    from harness.record.vcr_setup import harness_vcr  # vcrpy is a test dependency, loaded only here

    marker = request.node.get_closest_marker("harness_cassette")
    given: str | None = str(marker.args[0]) if marker and marker.args else None
    options: dict[str, Any] = dict(marker.kwargs) if marker else {}
    mode = str(request.config.getoption("record_mode", default="none"))
    with harness_vcr(mode).use_cassette(str(_cassette_path(request, given)), **options) as cassette:
        yield cassette
    harness_play_registry.note_vcr_cassette(cassette)


# ---------------------------------------------------------------- targets: --harness-target, harness_target
#
# ``--harness-target T`` runs the conformance tests (those taking the ``harness_target``
# fixture) against any target of the ``harness.targets`` entry point group, e.g.
# ``uv run pytest --harness-target klaude-code``. The hook has its own name (``specname``)
# so it can sit beside other ``pytest_addoption`` implementations in this module.

from harness.targets import Target, TargetError, get_target  # noqa: E402


@pytest.hookimpl(specname="pytest_addoption")
def pytest_addoption_harness_target(parser: pytest.Parser) -> None:
    parser.getgroup("harness").addoption(
        "--harness-target",
        action="store",
        dest="harness_target",
        default="reference",
        metavar="T",
        help="Target (adapter set) for tests using the harness_target fixture (default: reference).",
    )


@pytest.hookimpl(specname="pytest_configure")
def pytest_configure_harness_target(config: pytest.Config) -> None:
    """An unknown ``--harness-target`` stops the run at once with one line, before any test passes."""
    name = str(config.getoption("harness_target", default="reference"))
    if name == "reference":
        return
    try:
        get_target(name)
    except TargetError as exc:
        raise pytest.UsageError(f"--harness-target: {exc}") from None


@pytest.fixture(scope="session")
def harness_target(request: pytest.FixtureRequest) -> Target:
    """The target chosen with ``--harness-target`` (``reference`` by default)."""
    name = str(request.config.getoption("harness_target", default="reference"))
    try:
        return get_target(name)
    except TargetError as exc:
        pytest.fail(f"--harness-target: {exc}", pytrace=False)


# ---------------------------------------------------------------- golden hygiene, said last
#
# syrupy fails a run that leaves unused goldens, but pytest's closing line still reads
# "N passed". A run that fails only on golden hygiene says so as its very last line.

_HYGIENE = pytest.StashKey[str]()


@pytest.hookimpl(trylast=True, specname="pytest_terminal_summary")
def pytest_terminal_summary_goldens(
    terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config
) -> None:
    report = getattr(getattr(config, "_syrupy", None), "report", None)
    unused = int(getattr(report, "num_unused", 0) or 0)
    updating = bool(config.getoption("update_snapshots", default=False))
    failed = terminalreporter.stats.get("failed") or terminalreporter.stats.get("error")
    if unused and not updating and not failed:
        line = (
            f"FAILED on golden hygiene only: {unused} golden(s) no test uses (listed above); "
            "run `pytest --snapshot-update` to delete them, or restore the tests that used them"
        )
        config.stash[_HYGIENE] = line
        terminalreporter.write_sep("=", "golden hygiene", red=True, bold=True)
        terminalreporter.write_line(line, red=True, bold=True)


@pytest.hookimpl(specname="pytest_unconfigure")
def pytest_unconfigure_goldens(config: pytest.Config) -> None:
    line = config.stash.get(_HYGIENE, None)
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if line is not None and reporter is not None:
        reporter.write_line(line, red=True, bold=True)
