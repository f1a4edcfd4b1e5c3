"""``run_invariants(jobs=N)``: the providers shared across processes, the report the same as in one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.invariants import run_invariants
from harness.model import HistoryEvent
from harness.scenarios import get_scenario

#: Providers with no SDK oracle to build (rules only): forked workers start judging at once.
CHEAP = ["deepseek", "zai", "huggingface"]


def _broken_replay(history: Sequence[HistoryEvent]) -> list[dict[str, Any]]:
    raise RuntimeError("replay broke")  # every check that replays the history is a finding, per provider


def test_the_report_from_two_processes_is_the_report_from_one() -> None:
    scenario = get_scenario("tool_parallel_results_out_of_order")
    one, two = (
        run_invariants(scenario.history, scenario.params, providers=CHEAP, ui_events=_broken_replay, jobs=n)
        for n in (1, 2)
    )
    assert {v.provider for v in one.violations} == set(CHEAP) and one.notes  # something to merge
    assert two.violations == one.violations
    assert two.notes == one.notes
    assert two.providers == one.providers == CHEAP
