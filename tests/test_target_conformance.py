"""The harness's own conformance suite is ``harness.testing`` itself, run on ``--harness-target`` (default reference).

``pytest --harness-target klaude-code`` runs the same tests on another target. The
reference target must pass them all; another target shows its findings as failures.
Request goldens are off here: ``tests/test_requests.py`` pins the reference's bodies
under ``goldens/requests/`` already.
"""

from __future__ import annotations

from harness.testing import TargetConformance


class TestTargetConformance(TargetConformance):
    target = None  # whatever --harness-target names
    request_goldens = False
    #: One test per (provider, case): every check still judges every case and a failure names
    #: each failing check, in about a quarter of the tests (pytest's and xdist's per-test cost
    #: dominated the default run). The one-test-per-check layout, the default for adopters, is
    #: tested in tests/test_testing_suite.py (test_ungrouped_checks_are_one_test_each).
    group_checks = True


def test_an_unknown_target_stops_the_run_with_one_line() -> None:
    import subprocess
    import sys
    from pathlib import Path

    here = Path(__file__).resolve()
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "--harness-target",
            "does-not-exist",
            "-n0",  # the usage error comes before any worker would start: no need to spawn them
            str(here.parent / "test_layers.py"),
        ],
        capture_output=True,
        text=True,
        cwd=here.parent.parent,
        timeout=120,
        check=False,
    )
    assert run.returncode == 4, run.stdout + run.stderr
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    from harness.targets import available_targets

    known = ", ".join(available_targets())
    assert lines == [f"ERROR: --harness-target: unknown target 'does-not-exist' (available: {known})"]
