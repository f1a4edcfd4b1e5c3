"""Work split across processes, results in the order of the work: the one pool behind ``--jobs``.

Why processes: the judges are pure Python (the GIL keeps threads to one core), and each
unit of work (a cassette, a provider) is independent of the others. Why results in order:
a report built from them must be byte-identical to the single-process one, so the caller
merges them exactly as it would have accumulated them in one loop (``ordered_map`` yields
them in item order, as they complete, so a caller can write each to disk and drop it).

Workers are forked: they inherit what the parent already built (imports, oracles, the
loaded history) instead of building it again, and the work function needs no pickling.
Forking is safe only from a process with one thread, counted by the kernel (a test runner's
I/O thread or a terminal's progress bar is one more, often not a ``threading`` thread); from
any other process, and where the thread count cannot be read, the work runs in this process,
one item after another. The results are the same in every case.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

__all__ = ["MIN_UNITS_PER_WORKER", "default_jobs", "jobs_for", "ordered_map", "parallel_possible"]

T = TypeVar("T")
R = TypeVar("R")

#: The work of the current pool, inherited by its forked workers (set only while the pool runs).
_work: tuple[Callable[[Any], Any], Sequence[Any]] | None = None


def default_jobs() -> int:
    """The cores this process may use (its CPU affinity where the platform has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS, Windows
        return max(1, os.cpu_count() or 1)


#: Units of work (cassettes) below which another worker does not pay: each worker builds the
#: oracles it needs itself (about a second of CPU per provider SDK), which a few dozen
#: cassettes take to amortise.
MIN_UNITS_PER_WORKER = 32


def jobs_for(units: int, jobs: int | None) -> int:
    """The workers for ``units`` units: ``jobs`` when given; by default one per core, but no
    more than one per ``MIN_UNITS_PER_WORKER`` units (a small run stays in this process)."""
    if jobs is not None:
        return jobs
    return max(1, min(default_jobs(), units // MIN_UNITS_PER_WORKER))


def _threads() -> int | None:
    """This process's threads as the kernel counts them (None where it cannot be read)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Threads:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


def parallel_possible() -> bool:
    """Whether workers can be forked here: the platform forks and this process has one thread."""
    return "fork" in multiprocessing.get_all_start_methods() and _threads() == 1


def _run(index: int) -> Any:
    assert _work is not None  # set by ordered_map before the fork
    fn, items = _work
    return fn(items[index])


def ordered_map(fn: Callable[[T], R], items: Sequence[T], jobs: int) -> Iterator[R]:
    """``fn(item)`` for each item, yielded in item order, over ``jobs`` forked processes.

    One job, one item, or no safe fork: in this process. ``fn`` and the items are inherited
    by the workers (a closure is fine); each result is pickled back, so it must pickle. An
    exception in ``fn`` is raised here, as in a plain loop.
    """
    global _work
    workers = min(jobs, len(items))
    if workers <= 1 or not parallel_possible():
        yield from map(fn, items)
        return
    _work = (fn, items)
    # What the parent built (imports, oracles, the history) is out of the collector's reach in
    # the workers: a collection there would touch every inherited object and copy its page.
    frozen_before = gc.get_freeze_count()
    gc.freeze()
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            _work = None  # the workers have their copy
            # Small chunks: units differ widely in cost (a cassette of 1 call or of 40) and the
            # pool hands the next chunk to whichever worker is free; not single units when there
            # are thousands (each is a round trip between processes).
            chunk = min(16, max(1, len(items) // (workers * 64)))
            yield from pool.imap(_run, range(len(items)), chunksize=chunk)
    finally:
        _work = None
        if not frozen_before:  # a caller that froze its own objects keeps them frozen
            gc.unfreeze()
