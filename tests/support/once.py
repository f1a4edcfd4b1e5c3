"""Runs several tests read, computed once per test run: under xdist, by the first worker to ask.

``once_per_run(name, compute)`` keeps the value as a pickle in the folder every worker of the run
shares (``share_between_workers``, set by ``conftest.py``: the parent of the run's base temporary
directory), written atomically under a lock; the other workers wait for it and read it. Without
xdist (no folder) it is ``compute()``. Callers cache the result per process and treat it as read only.
"""

from __future__ import annotations

import fcntl
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

__all__ = ["once_per_run", "share_between_workers"]

T = TypeVar("T")
#: The folder every xdist worker of one run shares (set by ``share_between_workers``; None: no sharing).
_SHARED: list[Path | None] = [None]


def share_between_workers(folder: Path | None) -> None:
    """Where the runs are shared (conftest: the parent of the run's base temporary directory, under xdist)."""
    _SHARED[0] = folder


def once_per_run(name: str, compute: Callable[[], T]) -> T:
    """``compute()``, by the first worker of the run to ask; the others read its pickle (no sharing: computed here)."""
    folder = _SHARED[0]
    if folder is None:
        return compute()
    path = folder / f"{name}.pickle"
    with (folder / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the other workers wait for the one computing it
        if path.exists():
            return pickle.loads(path.read_bytes())
        value = compute()
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_bytes(pickle.dumps(value))
        partial.replace(path)
        return value
