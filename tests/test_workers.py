"""``harness.workers``: results in the order of the work, whatever the number of processes."""

from __future__ import annotations

import os
import threading

import pytest

from harness.workers import MIN_UNITS_PER_WORKER, default_jobs, jobs_for, ordered_map, parallel_possible


def _square_and_pid(n: int) -> tuple[int, int]:
    return n * n, os.getpid()


def test_results_come_in_item_order_from_other_processes() -> None:
    items = list(range(40, 0, -1))  # the first items are no cheaper than the last
    results = list(ordered_map(_square_and_pid, items, 2))
    assert [r for r, _ in results] == [n * n for n in items]
    if parallel_possible():
        assert os.getpid() not in {pid for _, pid in results}


def test_a_closure_is_inherited_by_forked_workers() -> None:
    offset = 7
    assert list(ordered_map(lambda n: n + offset, [1, 2, 3], 2)) == [8, 9, 10]


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
        assert list(ordered_map(lambda n: n + 1, [1, 2], 2)) == [2, 3]  # not picklable: in this process
        assert [r for r, _ in ordered_map(_square_and_pid, [3, 1, 2], 2)] == [9, 1, 4]
    finally:
        stop.set()
        thread.join()


def test_default_jobs_are_the_cores_for_enough_units() -> None:
    assert jobs_for(10_000, 3) == 3
    assert jobs_for(1, None) == 1
    assert jobs_for(MIN_UNITS_PER_WORKER * 64, None) == default_jobs()
    assert jobs_for(MIN_UNITS_PER_WORKER * 2, None) == min(2, default_jobs())
