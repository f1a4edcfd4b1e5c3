"""The whole-corpus runs several test modules judge, computed once per process (read only).

Calibration and import-check over the in-repo ``cassettes/`` and ``traffic/`` (what CI runs:
``harness calibrate``, ``harness import-check``) each render and judge every recorded request,
seconds apiece; ``test_traffic_calibrate``, ``test_importcheck`` and ``test_accepted_needed`` judged
the same runs, each computing its own. Each is computed on first use, before any test
changes the registry (module fixtures are set up before a test's monkeypatching); a test
that needs a run of changed inputs computes its own.

Under xdist, one worker computes each run and the others read it (``tests.support.once.once_per_run``):
both workers needed them, and each computed them again (about 17 s of CPU on a 2-core machine).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from harness.importcheck.check import ImportCheck, check_traffic
from harness.traffic.calibrate import Calibration, calibrate
from tests.support.once import once_per_run

ROOT = Path(__file__).resolve().parents[2]
#: What CI judges (``harness import-check cassettes traffic``): every traffic folder, the
#: dialects' traffic/pydantic-ai-more/ included.
TRAFFIC = (ROOT / "cassettes", ROOT / "traffic")


@cache
def calibration() -> Calibration:
    return once_per_run("calibration", lambda: calibrate(list(TRAFFIC)))


@cache
def import_check() -> ImportCheck:
    return once_per_run("import-check", lambda: check_traffic(list(TRAFFIC)))
