"""The harness's own conformance suite is ``harness.testing`` itself, run on ``--harness-target`` (default reference).

``pytest --harness-target klaude-code`` runs the same tests on another target. The
reference target must pass them all; another target shows its findings as failures.
Request goldens are off here: ``tests/test_requests.py`` pins the reference's bodies
under ``goldens/requests/`` already.
"""

from __future__ import annotations

from harness.contract.providers import PROVIDERS
from harness.testing import TargetConformance

#: The provider that keeps one test per (case, check), so both layouts of ``group_checks`` stay tested.
PER_CHECK = "anthropic"


class TestTargetConformance(TargetConformance):
    target = None  # whatever --harness-target names
    request_goldens = False
    #: One test per (provider, case) for the others: every check still judges every case, in
    #: about a quarter of the tests (pytest's per-test cost dominated the default run).
    group_checks = tuple(p for p in PROVIDERS if p != PER_CHECK)


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
