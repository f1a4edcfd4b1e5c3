"""pytest plugin (``pytest11`` entry point): a good guest in any project that installs the harness.

Installing the package activates this plugin in every pytest run of the host project, so it
changes nothing the host can see and imports nothing heavy until the harness is used:

- Hypothesis profiles are registered under the harness's own names, ``harness`` and
  ``harness-deep``, and never loaded here; Hypothesis's ``default`` profile is never touched.
  They are registered when a run names one (``--hypothesis-profile=harness-deep``), when a
  harness property test asks for ``harness_profile()``, or by ``register_profiles()`` (this
  repository's ``conftest.py`` then loads ``harness``). ``harness.testing``'s generated-history
  tests take ``harness_profile()`` as their ``settings(parent=...)``: ``harness`` while
  Hypothesis's ``default`` is loaded, else the profile the run chose by name, so an adopter
  gets them without loading any profile globally.
- ``harness`` keeps a whole run short on two cores and is derandomized, so CI sees the same
  examples every run (a red CI is a real regression, never a lucky draw); derandomized
  means no example database. ``harness-deep`` draws fresh random examples at length
  (``pytest --hypothesis-profile=harness-deep``) and keeps failing examples in Hypothesis's
  example database: ``.hypothesis/`` by default, which xdist workers on one machine share,
  or a ``DirectoryBasedExampleDatabase`` at ``$HARNESS_EXAMPLE_DB`` (a path every worker
  and machine of a deep run can reach) so one machine's failure replays first on all.
- Module level imports only pytest and the standard library: the harness, Hypothesis,
  pydantic and vcrpy load inside the hooks and fixtures that need them, i.e. when a test
  uses a harness fixture or a harness option is given (``tests/test_testing_plugin_guest.py``
  counts the modules).
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from hypothesis import settings as HypothesisSettings

    from harness.record.played import PlayRegistry
    from harness.targets import Target

#: The harness's Hypothesis profiles (never Hypothesis's ``default``).
PROFILES = ("harness", "harness-deep")


def register_profiles() -> None:
    """Register ``harness`` and ``harness-deep`` with Hypothesis; loads neither (idempotent)."""
    from hypothesis import HealthCheck, settings
    from hypothesis.database import DirectoryBasedExampleDatabase

    settings.register_profile(
        "harness",
        max_examples=25,  # CI-sized (the whole suite in 2 min on 2 cores); harness-deep for depth
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow],
    )
    settings.register_profile(
        "harness-deep",
        max_examples=5000,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    if shared := os.environ.get("HARNESS_EXAMPLE_DB"):
        settings.register_profile(
            "harness-deep",
            settings.get_profile("harness-deep"),
            database=DirectoryBasedExampleDatabase(shared),
        )


def harness_profile() -> HypothesisSettings:
    """The profile the harness's own property tests run under, without a global load: ``harness``
    while Hypothesis's ``default`` is loaded, else the profile the run chose by name
    (``--hypothesis-profile=harness-deep``, or one of the host's own built on it)."""
    from hypothesis import settings

    register_profiles()
    current = settings.get_current_profile_name()
    return settings.get_profile("harness" if current == "default" else current)


@pytest.hookimpl(tryfirst=True, specname="pytest_configure")
def pytest_configure_profiles(config: pytest.Config) -> None:
    """A run that names a harness profile gets it registered before Hypothesis's plugin loads it."""
    if config.getoption("hypothesis_profile", default=None) in PROFILES:
        register_profiles()


# ---------------------------------------------------------------- cassettes: --record-mode, harness_cassette, hygiene
#
# ``--record-mode`` follows pytest-recording (none, once, new_episodes, all, rewrite;
# default none, so tests never touch the network). The ``harness_cassette`` fixture runs
# the test inside a vcrpy cassette with the harness serializer and scrubbing hooks.
# Cassette hygiene: every replay in the session is noted in a registry (see
# harness.record.played for why content-addressed); a test marked ``cassette_hygiene``
# runs after all others and checks the committed cassettes against it.

#: pytest-recording's ``--record-mode`` values (the same tuple as ``harness.record.RECORD_MODES``,
#: spelled out so that adding the option imports nothing; a test keeps the two equal).
RECORD_MODES = ("none", "once", "new_episodes", "all", "rewrite")

_REGISTRY = pytest.StashKey["PlayRegistry"]()
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
    config.stash[_DESELECTED] = [0]


def pytest_unconfigure(config: pytest.Config) -> None:
    undo = config.stash.get(_UNDO, None)
    if undo is not None:
        undo()


def pytest_deselected(items: list[pytest.Item]) -> None:
    if items:
        items[0].config.stash[_DESELECTED][0] += len(items)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Hygiene checks need every other test's replays: run them last.

    The play registry (and its wrapper around ``harness.providers.replay.replay_exchange``) exists only
    in a session that collected a test using it, so a host project's run never imports the
    harness; it is installed before the first test runs, so it still sees every replay.
    """
    last = [item for item in items if item.get_closest_marker("cassette_hygiene")]
    if last:
        items[:] = [item for item in items if item not in last] + last
    tracked = {"harness_play_registry", "harness_defer_hygiene"}
    if any(tracked & set(getattr(item, "fixturenames", ())) for item in items):
        _registry(config)


def _registry(config: pytest.Config) -> PlayRegistry:
    """The session's play registry, created (and replay tracking installed) on first use."""
    registry = config.stash.get(_REGISTRY, None)
    if registry is None:
        from harness.record.played import PlayRegistry, install_tracking

        registry = config.stash[_REGISTRY] = PlayRegistry()
        config.stash[_UNDO] = install_tracking(registry)
    return registry


@pytest.fixture(scope="session")
def harness_play_registry(request: pytest.FixtureRequest) -> PlayRegistry:
    """Every recorded response replayed so far in this session (content-addressed)."""
    return _registry(request.config)


@pytest.fixture(scope="session")
def harness_partial_session(request: pytest.FixtureRequest) -> str | None:
    """Why this session did not run the whole suite (so hygiene cannot judge), or None."""
    config = request.config
    if hasattr(config, "workerinput"):
        return "xdist worker: replays are spread over processes"
    return _partial_beyond_xdist(config)


def _partial_beyond_xdist(config: pytest.Config) -> str | None:
    """Why the session did not collect the whole suite (deselection, narrowed paths), or None."""
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
    from harness.targets import TargetError, get_target

    try:
        get_target(name)
    except TargetError as exc:
        raise pytest.UsageError(f"--harness-target: {exc}") from None


@pytest.fixture(scope="session")
def harness_target(request: pytest.FixtureRequest) -> Target:
    """The target chosen with ``--harness-target`` (``reference`` by default)."""
    from harness.targets import TargetError, get_target

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


# ---------------------------------------------------------------- harness.testing: coverage per check
#
# Owned with harness.testing: each conformance test notes on its report which (provider,
# check) it judged (``harness.testing.suite.JUDGED_PROPERTY``; xdist carries user properties to
# the controller), and the terminal summary prints how many cases each check judged per
# provider. A session without such tests prints nothing. Imports nothing from harness.

from typing import cast  # noqa: E402

_JUDGED = "harness_judged"  # harness.testing.suite.JUDGED_PROPERTY
_MISSING_GOLDEN = "harness_missing_golden"  # harness.testing.suite.MISSING_GOLDEN_PROPERTY


class _CheckCoverage:
    """Counts the (provider, check) pairs that passed or failed a judgement.

    A test notes only the checks it judged (a skipped check notes nothing), so a test that
    skips after judging some checks (``group_checks``: one skipped, the others passed) still
    counts those, and a test that judged nothing counts nothing.
    """

    def __init__(self) -> None:
        self.counts: dict[tuple[str, str], int] = {}
        self.missing_goldens: set[str] = set()

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "call":
            return
        for name, value in report.user_properties:
            if name == _JUDGED and isinstance(value, tuple | list):
                provider, check = (str(v) for v in cast("tuple[object, ...]", value))
                self.counts[provider, check] = self.counts.get((provider, check), 0) + 1
            elif name == _MISSING_GOLDEN and not getattr(report, "wasxfail", None):
                self.missing_goldens.add(str(value))

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        if self.missing_goldens:
            folders = sorted({str(Path(p).parent) for p in self.missing_goldens})
            terminalreporter.write_sep("-", "harness: request goldens not written yet")
            terminalreporter.write_line(
                f"{len(self.missing_goldens)} request golden(s) do not exist yet, in {', '.join(folders)}: "
                "expected on the first run of a conformance class (or a new provider or scenario). Write "
                "them with `pytest --snapshot-update`, review the bodies, and commit them; from then on a "
                "change to a request body fails until you update its golden."
            )
        if not self.counts:
            return
        providers = sorted({p for p, _ in self.counts})
        checks = sorted({c for _, c in self.counts}, key=_check_order)
        width = max(len(c) for c in checks)
        terminalreporter.write_sep("-", "harness coverage: cases judged per check")
        terminalreporter.write_line(" " * width + "  " + "  ".join(providers))
        for check in checks:
            cells = "  ".join(str(self.counts.get((p, check), 0)).rjust(len(p)) for p in providers)
            terminalreporter.write_line(f"{check.ljust(width)}  {cells}")


def _check_order(check: str) -> tuple[int, int, str]:
    """render, the invariants in number order (I1, I2, ...), then the replay checks."""
    if check == "render":
        return (0, 0, check)
    if check[:1] == "I" and check[1:].isdigit():
        return (1, int(check[1:]), check)
    return (2, 0, check)


@pytest.hookimpl(specname="pytest_configure")
def pytest_configure_check_coverage(config: pytest.Config) -> None:
    if not config.pluginmanager.has_plugin("harness-check-coverage"):
        config.pluginmanager.register(_CheckCoverage(), "harness-check-coverage")


# ---------------------------------------------------------------- cassette hygiene under xdist
#
# Under pytest-xdist every worker fills its own PlayRegistry, so no worker can judge
# hygiene. ``harness_defer_hygiene(cassettes, root)`` called by the hygiene test in a
# worker of a whole-suite session hands the judgement to the controller: each worker
# sends its replays home with its ``workeroutput``, the controller merges them as the
# workers go down and, at session end, runs ``harness.record.played.unplayed`` on the
# union. Unplayed interactions fail the run (exit 1) and are listed in the summary; a
# clean result says so in one line, so the check is visibly done, never silently skipped.

_PLAYED_OUT = "harness_played"
_HYGIENE_OUT = "harness_hygiene"
_DEFERRED = pytest.StashKey[dict[str, Any]]()
_MERGED = pytest.StashKey[dict[str, Any]]()


@pytest.fixture(scope="session")
def harness_defer_hygiene(request: pytest.FixtureRequest) -> Any:
    """``defer(cassettes, root) -> bool``: True when the xdist controller will judge hygiene at session end."""
    config = request.config

    def defer(cassettes: Any, root: Path | None = None) -> bool:
        if not hasattr(config, "workerinput") or _partial_beyond_xdist(config) is not None:
            return False
        config.stash[_DEFERRED] = {
            "cassettes": [str(p) for p in cassettes],
            "root": None if root is None else str(root),
        }
        return True

    return defer


@pytest.hookimpl(specname="pytest_sessionfinish")
def pytest_sessionfinish_hygiene(session: pytest.Session) -> None:
    config = session.config
    output = getattr(config, "workeroutput", None)
    if output is not None:  # an xdist worker: send the replays (and a deferred judgement) home
        registry = config.stash.get(_REGISTRY, None)
        output[_PLAYED_OUT] = sorted(registry.played) if registry is not None else []
        if _DEFERRED in config.stash:
            output[_HYGIENE_OUT] = config.stash[_DEFERRED]
        return
    merged = config.stash.get(_MERGED, None)
    if merged is None or merged.get("request") is None:
        return
    from harness.record.played import PlayRegistry, unplayed

    request = merged["request"]
    registry = PlayRegistry(set(merged["played"]))  # the controller replays nothing itself
    root = None if request["root"] is None else Path(request["root"])
    missing = unplayed([Path(p) for p in request["cassettes"]], registry, root=root)
    merged["missing"] = missing
    if missing and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """xdist controller: merge a finished worker's replays (and its deferred hygiene request)."""
    del error
    output: dict[str, Any] = getattr(node, "workeroutput", {}) or {}
    merged = node.config.stash.setdefault(_MERGED, {"played": set[str](), "request": None, "workers": 0})
    merged["played"].update(output.get(_PLAYED_OUT, ()))
    merged["workers"] += 1
    if output.get(_HYGIENE_OUT) is not None:
        merged["request"] = output[_HYGIENE_OUT]


@pytest.hookimpl(specname="pytest_terminal_summary")
def pytest_terminal_summary_hygiene(terminalreporter: pytest.TerminalReporter, config: pytest.Config) -> None:
    merged = config.stash.get(_MERGED, None)
    if merged is None or "missing" not in merged:
        return
    missing: list[str] = merged["missing"]
    workers = merged["workers"]
    if missing:
        terminalreporter.write_sep(
            "=", "cassette hygiene (xdist, judged by the controller)", red=True, bold=True
        )
        terminalreporter.write_line("interactions no test replays (remove them or add a test):", red=True)
        for line in missing:
            terminalreporter.write_line(line, red=True)
    else:
        terminalreporter.write_line(
            f"cassette hygiene: every committed model call was replayed (judged on the replays of {workers} xdist workers)"
        )
