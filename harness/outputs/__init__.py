"""The output boundary: every file the harness writes goes through here, atomically and honestly.

The counterpart of :mod:`harness.inputs`. A kill, a full disk or a read-only folder during
a write leaves the earlier file byte-identical and ends in one line
``PATH: cannot write: reason`` (exit 2), never a traceback or a truncated file.

API:

- ``check_out_dir(path, names=())`` / ``check_out_file(path)``: before the work starts,
  ``--out`` must be a writable folder (or one that can be made) / a regular-file path in
  one; device nodes, FIFOs, sockets and symbolic links are refused as targets.
- ``write_text(path, text)`` / ``write_bytes(path, data)``: a temporary file in the same
  folder, fsynced, renamed over the target, the folder fsynced; the temporary file is
  removed on any error or catchable signal.
- ``write_files({path: text_or_bytes_or_chunks, ...})``: a set (a report's JSON, HTML and Markdown):
  every temporary file first, then the renames with signals held back, so a kill never
  leaves the set mixed old/new.
- ``remove_stale_temps(target)``: the ``.NAME.<pid>-<hex>.tmp`` a SIGKILLed writer left
  (run by every write of NAME).
- ``OutputError(path, reason)``: ``str()`` is the one-line report.
"""

from harness.outputs.errors import OutputError
from harness.outputs.files import remove_stale_temps, write_bytes, write_files, write_text
from harness.outputs.targets import check_out_dir, check_out_file, check_target

__all__ = [
    "OutputError",
    "check_out_dir",
    "check_out_file",
    "check_target",
    "remove_stale_temps",
    "write_bytes",
    "write_files",
    "write_text",
]
