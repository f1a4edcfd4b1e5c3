"""Every scenario x provider x invariant against the chosen target (``pytest --harness-target T``).

A ``reject`` or ``degrade`` finding fails the test; ``policy`` findings are design
differences the provider accepts, reported in the failure text of other kinds only. The
reference target must pass them all; another target shows its findings as failures.
"""

from __future__ import annotations

import pytest

from harness.contract.target import Target
from harness.invariants import INVARIANTS, run_invariants
from harness.scenarios import load_scenarios

SCENARIOS = load_scenarios()
PROVIDERS = ("anthropic", "gemini", "openai-chat", "openai-responses", "openrouter")


CASES = [(p, name, inv.id) for p in PROVIDERS for name in sorted(SCENARIOS) for inv in INVARIANTS]


@pytest.mark.parametrize(("provider", "scenario", "check"), CASES, ids=["-".join(c) for c in CASES])
def test_scenario_meets_every_invariant(
    harness_target: Target, provider: str, scenario: str, check: str
) -> None:
    if provider not in harness_target.providers():
        pytest.skip(f"target {harness_target.name!r} does not implement {provider}")
    chosen = SCENARIOS[scenario]
    report = run_invariants(
        chosen.history,
        chosen.params_for(provider),
        target=harness_target,
        providers=[provider],
        invariants=[check],
    )
    fatal = [v for v in report.violations if v.provider and v.kind in ("reject", "degrade")]
    assert not fatal, "\n".join(f"{v} | example: {v.example}" for v in fatal)


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
