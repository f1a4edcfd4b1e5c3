"""The temporary files a killed writer left: ``.NAME.<pid>-<hex>.tmp`` beside NAME, its pid gone.

Removed by the next write of NAME (``harness.outputs.files``) and, before any work, by the next
command that checks NAME as its output (``harness.outputs.targets``): a run that fails before it
writes must not leave a killed run's file behind forever.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from pathlib import Path

__all__ = ["remove_stale_temps"]


def _temp_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"\.{re.escape(name)}\.(?:(\d+)-[0-9a-f]{{8}}|[A-Za-z0-9_]{{8}})\.tmp")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


_LEGACY_AGE = 3600.0  # mkstemp names of earlier versions carry no pid: removed after an hour


def remove_stale_temps(target: Path) -> None:
    """Remove ``.NAME.*.tmp`` files a killed writer of ``target`` left behind (its pid is gone)."""
    pattern = _temp_pattern(target.name)
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return
    now = time.time()
    for entry in entries:
        found = pattern.fullmatch(entry.name)
        if found is None:
            continue
        pid = found.group(1)
        with contextlib.suppress(OSError):
            if pid is not None:
                stale = int(pid) != os.getpid() and not _alive(int(pid))
            else:
                stale = now - entry.stat(follow_symlinks=False).st_mtime > _LEGACY_AGE
            if stale and entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
