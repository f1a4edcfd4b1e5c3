"""Recorded provider traffic (vcrpy cassettes) as model calls to judge.

``load_traffic`` reads every cassette under some paths and yields one ``RecordedCall``
per interaction; ``calibrate`` (``harness calibrate``) judges them with the oracles and
the provider hard rules. Judges only: nothing here imports adapters or stream parsers.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harness.traffic.loader import RecordedCall, TrafficInputError, iter_files, load_file, load_traffic

__all__ = ["RecordedCall", "TrafficInputError", "iter_files", "load_file", "load_traffic"]


def __getattr__(name: str) -> Any:
    """Names load on first use (PEP 562): the CLI imports ``harness.traffic.audit_command`` for ``--help``."""
    if name not in __all__:
        raise AttributeError(f"module 'harness.traffic' has no attribute {name!r}")
    return getattr(import_module("harness.traffic.loader"), name)
