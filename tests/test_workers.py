"""``harness.workers``: results in the order of the work, whatever the number of processes."""

from __future__ import annotations

import os
import subprocess
import sys
import threading

import pytest

from harness.workers import MIN_UNITS_PER_WORKER, default_jobs, jobs_for, ordered_map, parallel_possible


def _square_and_pid(n: int) -> tuple[int, int]:
    return n * n, os.getpid()


def test_results_come_in_item_order_from_other_processes() -> None:
    """In a fresh process (one thread), where the workers are forked."""
    code = (
        "import os; from tests.test_workers import _square_and_pid; from harness.workers import ordered_map;"
        "items = list(range(40, 0, -1)); results = list(ordered_map(_square_and_pid, items, 2));"
        "print([r for r, _ in results] == [n * n for n in items], os.getpid() in {p for _, p in results},"
        " len({p for _, p in results}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    in_order, here, workers = done.stdout.split()
    assert (in_order, here) == ("True", "False") and 1 <= int(workers) <= 2


def test_in_this_process_the_results_are_the_same() -> None:
    items = list(range(40, 0, -1))
    assert [r for r, _ in ordered_map(_square_and_pid, items, 2)] == [n * n for n in items]


def test_a_closure_is_inherited_by_forked_workers() -> None:
    code = (
        "from harness.workers import ordered_map, parallel_possible; offset = 7;"
        "print(parallel_possible(), list(ordered_map(lambda n: n + offset, [1, 2, 3], 2)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout == "True [8, 9, 10]\n"


def _fail_on_three(n: int) -> int:
    if n == 3:
        raise ValueError(f"bad item {n}")
    return n


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_exception_in_the_work_is_raised_to_the_caller(jobs: int) -> None:
    with pytest.raises(ValueError, match="bad item 3"):
        list(ordered_map(_fail_on_three, [1, 2, 3, 4], jobs))


def test_one_job_or_one_item_stays_in_this_process() -> None:
    assert {pid for _, pid in ordered_map(_square_and_pid, [1, 2, 3], 1)} == {os.getpid()}
    assert {pid for _, pid in ordered_map(_square_and_pid, [1], 4)} == {os.getpid()}


def test_a_process_with_threads_does_not_fork_and_gets_the_same_results() -> None:
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait, daemon=True)
    thread.start()
    try:
        assert not parallel_possible()
        results = list(ordered_map(_square_and_pid, [3, 1, 2], 2))
        assert results == [(9, os.getpid()), (1, os.getpid()), (4, os.getpid())]
    finally:
        stop.set()
        thread.join()


def test_default_jobs_are_the_cores_for_enough_units() -> None:
    assert jobs_for(10_000, 3) == 3
    assert jobs_for(1, None) == 1
    assert jobs_for(MIN_UNITS_PER_WORKER * 64, None) == default_jobs()
    assert jobs_for(MIN_UNITS_PER_WORKER * 2, None) == min(2, default_jobs())
