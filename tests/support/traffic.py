"""The whole-corpus runs several test modules judge, computed once per process (read only).

Calibration and import-check over the in-repo ``cassettes/`` and ``traffic/`` (what CI runs:
``harness calibrate``, ``harness import-check``) each render and judge every recorded request,
seconds apiece; ``test_traffic_calibrate``, ``test_importcheck`` and ``test_accepted_needed`` judged
the same runs, each computing its own. Each is computed on first use, before any test
changes the registry (module fixtures are set up before a test's monkeypatching); a test
that needs a run of changed inputs computes its own.

Under xdist, one worker computes each run and the others read it (``once_per_run``: a pickle in the
run's shared temporary directory, written atomically under a lock): both workers needed them,
and each computed them again (about 17 s of CPU on a 2-core machine).
"""

from __future__ import annotations

import fcntl
import os
import pickle
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TypeVar

from harness.importcheck.check import ImportCheck, check_traffic
from harness.traffic.calibrate import Calibration, calibrate

ROOT = Path(__file__).resolve().parents[2]
#: What CI judges (``harness import-check cassettes traffic``): every traffic folder, the
#: dialects' traffic/pydantic-ai-more/ included.
TRAFFIC = (ROOT / "cassettes", ROOT / "traffic")


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


@cache
def calibration() -> Calibration:
    return once_per_run("calibration", lambda: calibrate(list(TRAFFIC)))


@cache
def import_check() -> ImportCheck:
    return once_per_run("import-check", lambda: check_traffic(list(TRAFFIC)))
