"""What may be written to: checked before the work starts, and again right before the rename.

A device node, a FIFO or a symbolic link is never an output target: renaming over
``/dev/null`` would replace the device with a regular file, opening a FIFO blocks, and a
link would be replaced by a file (not written through), which is not what its owner asked
for. A folder is writable when it exists and access(2) grants write and search (this also
answers EROFS for a read-only mount, even for root), or when its nearest existing ancestor is.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from harness.outputs.errors import OutputError, os_reason
from harness.outputs.stale import remove_stale_temps

__all__ = ["check_out_dir", "check_out_file", "check_target"]


def _kind(mode: int) -> str | None:
    """Why a node of this mode cannot be replaced by a written file, or None when it can."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISLNK(mode):
        return "a symbolic link (refusing to replace it; give the real path)"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe), not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a regular file"
    return "not a regular file"


def _lstat(path: Path) -> os.stat_result | None:
    try:
        return os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise OutputError(path, os_reason(exc)) from None


def _writable_folder(folder: Path, target: Path) -> None:
    """``folder`` (or its nearest existing ancestor, where it will be made) takes new files."""
    existing = folder
    while not os.path.lexists(existing) and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise OutputError(target, f"{existing} is not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        try:
            read_only = bool(os.statvfs(existing).f_flag & os.ST_RDONLY)
        except OSError:
            read_only = False
        raise OutputError(
            target, f"{existing} is {'on a read-only file system' if read_only else 'not writable'}"
        )


def check_target(path: Path) -> None:
    """``path`` is absent or a regular file (not a link, device, FIFO or folder)."""
    info = _lstat(path)
    if info is not None:
        why = _kind(info.st_mode)
        if why is not None:
            raise OutputError(path, f"it is {why}")


def check_out_file(path: str | Path) -> Path:
    """Before the work: ``path`` can become a regular file (atomically replaced if it exists). The
    temporary file a killed earlier run left beside it (``.NAME.<pid>-<hex>.tmp``, its pid gone) is
    removed now: a run that fails before it writes must not leave it there forever."""
    p = Path(path)
    check_target(p)
    _writable_folder(p.parent, p)
    remove_stale_temps(p)
    return p


def check_out_dir(path: str | Path, names: Iterable[str] = ()) -> Path:
    """Before the work: ``path`` is (or can be made) a writable folder; each of ``names`` in it is writable."""
    p = Path(path)
    info = _lstat(p)
    if info is not None:
        if stat.S_ISLNK(info.st_mode):
            raise OutputError(p, "it is a symbolic link (refusing to write through it; give the real path)")
        if not stat.S_ISDIR(info.st_mode):
            raise OutputError(p, f"it is {_kind(info.st_mode) or 'a regular file'}, not a directory")
        _writable_folder(p, p)
    else:
        _writable_folder(p.parent, p)
    for name in names:
        check_target(p / name)
        remove_stale_temps(p / name)  # a killed earlier run's leftovers (see ``check_out_file``)
    return p
