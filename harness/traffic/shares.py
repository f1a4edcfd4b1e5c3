"""Each recorded file judged alone, the shares yielded in file order: the one split behind
``audit-traffic`` and ``calibrate`` (``--jobs``).

Why one place: both commands judge a file with no look at any other (a pair of calls never
spans two cassettes), fork their workers the same way, and need the oracles built once in the
parent before the fork, so that the workers share them instead of each building its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path
from typing import TypeVar

from harness.oracles import prepare
from harness.traffic.hosts import HostMap
from harness.traffic.loader import iter_files
from harness.workers import jobs_for, ordered_map, parallel_possible

__all__ = ["file_shares"]

T = TypeVar("T")


def file_shares(
    judge: Callable[..., T],
    paths: Iterable[str | Path],
    hosts: HostMap | None,
    jobs: int | None,
    advance: Callable[[int, int], None] | None,
) -> Iterator[T]:
    """``judge(file, hosts=hosts)`` for every file under ``paths``, in file order, over ``jobs``
    processes (None: ``harness.workers.jobs_for``); ``advance(done, total)`` after each share.
    TrafficInputError for a missing path, when the first share is asked for."""
    files = iter_files(paths)
    workers = jobs_for(len(files), jobs)
    if workers > 1 and parallel_possible():
        prepare()  # built once here and shared by the forked workers, not once in each
    for done, part in enumerate(ordered_map(partial(judge, hosts=hosts), files, workers), 1):
        yield part
        if advance is not None:
            advance(done, len(files))
