"""``run_invariants(jobs=N)``: the providers shared across processes, the report the same as in one."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

from harness.invariants import CheckReport, run_invariants
from harness.model import HistoryEvent
from harness.scenarios import get_scenario

#: Providers with no SDK oracle to build (rules only): forked workers start judging at once.
CHEAP = ["deepseek", "zai", "huggingface"]


def broken_replay(history: Sequence[HistoryEvent]) -> list[dict[str, Any]]:
    raise RuntimeError("replay broke")  # every check that replays the history is a finding, per provider


def report(jobs: int) -> CheckReport:
    scenario = get_scenario("tool_parallel_results_out_of_order")
    return run_invariants(
        scenario.history, scenario.params, providers=CHEAP, ui_events=broken_replay, jobs=jobs
    )


def as_json(result: CheckReport) -> str:
    data = {"providers": result.providers, "notes": result.notes}
    return json.dumps(
        {**data, "violations": [dataclasses.asdict(v) for v in result.violations]}, sort_keys=True
    )


def test_the_report_from_two_processes_is_the_report_from_one() -> None:
    """Two forked workers in a fresh process (one thread) against this process alone."""
    code = "from tests.test_invariants_jobs import as_json, report; print(as_json(report(2)))"
    two = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True
    )
    one = report(1)
    assert {v.provider for v in one.violations} == set(CHEAP) and one.notes  # shares to merge
    assert two.stdout == as_json(one) + "\n"
