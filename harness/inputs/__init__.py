"""The input boundary: every file the harness reads goes through here, with bounded cost.

Hostile or broken files (a FIFO, a 100k-deep JSON array, a 5,000-digit integer, a lone
UTF-16 surrogate, a YAML alias bomb, a gzip bomb) must end in one line
``FILE[:LINE]: field: reason`` and exit 2, never a traceback, a hang or unbounded memory.

API (small, so other loaders can adopt it):

- ``read_bytes(path, limits=None) -> bytes``: regular files only (FIFOs, devices and
  directories are refused before opening), read in one go after a size check, at most
  ``limits.max_file_bytes``.
- ``read_text(path, limits=None) -> str``: the same, decoded as strict UTF-8 (the error
  names the line of the first bad byte).
- ``loads_json(text, source=..., line=None, limits=None) -> Any``: ``json.loads`` plus the
  depth, integer-length and well-formed-Unicode checks (a ``\\ud83d`` escape is rejected).
- ``load_yaml(text, source=..., limits=None) -> Any``: PyYAML's safe loader (tags never
  execute), with depth, alias-expansion and Unicode checks before any Python object is built.
- ``gunzip(data, source=..., field=..., limits=None) -> bytes``: streaming decompression
  capped in absolute size and in ratio to the compressed size; corrupt data is an error.
- ``check_json_bytes(data, source=..., field=..., limits=None)``: line length, depth and
  lone-surrogate escapes of a JSON-bearing body (a stream) in native code, without decoding it.
- ``check_json_documents(documents, source=..., field=..., limits=None)``: the same checks on
  documents each parsed on its own (an event stream's frame payloads), without joining them.
- ``check_tree(value, source=..., line=None, limits=None)``: the depth and Unicode checks on
  an already-parsed value.
- ``InputError(source, line, field, reason)``: ``str()`` is the one-line report; callers
  print it and exit 2. It is a ``ValueError``.

Limits (``Limits``; each default is raised with an environment variable, read when
``Limits.from_env()`` runs, i.e. per command):

==========================  =======================  ==============================
limit                       default                  environment variable
==========================  =======================  ==============================
file size                   256 MiB                  HARNESS_MAX_FILE_BYTES
decompressed body size      64 MiB                   HARNESS_MAX_DECOMPRESSED_BYTES
decompression ratio         200 (beyond 1 MiB out)   HARNESS_MAX_DECOMPRESS_RATIO
JSON/YAML nesting depth     200                      HARNESS_MAX_DEPTH
integer digits              4300 (Python's own)      HARNESS_MAX_INT_DIGITS
YAML nodes after aliases    2,000,000                HARNESS_MAX_YAML_NODES
one line of a body/stream   64 MiB                   HARNESS_MAX_LINE_BYTES
==========================  =======================  ==============================
"""

from typing import TYPE_CHECKING, Any

from harness.inputs.errors import InputError
from harness.inputs.files import read_bytes, read_text
from harness.inputs.gzip_cap import gunzip
from harness.inputs.json_load import (
    check_json_bytes,
    check_json_documents,
    check_json_text,
    check_line_length,
    check_tree,
    loads_json,
)
from harness.inputs.limits import Limits

if TYPE_CHECKING:
    from harness.inputs.yaml_load import load_yaml

__all__ = [
    "InputError",
    "Limits",
    "check_json_bytes",
    "check_json_documents",
    "check_json_text",
    "check_line_length",
    "check_tree",
    "gunzip",
    "load_yaml",
    "loads_json",
    "read_bytes",
    "read_text",
]


def __getattr__(name: str) -> Any:
    """``load_yaml`` loads PyYAML on first use: reading a history or a JSON body never needs it."""
    if name == "load_yaml":
        from harness.inputs.yaml_load import load_yaml

        return load_yaml
    raise AttributeError(f"module 'harness.inputs' has no attribute {name!r}")
