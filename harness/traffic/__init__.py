"""Recorded provider traffic (vcrpy cassettes) as model calls to judge.

``load_traffic`` reads every cassette under some paths and yields one ``RecordedCall``
per interaction; ``calibrate`` (``harness calibrate``) judges them with the oracles and
the provider hard rules. Judges only: nothing here imports adapters or stream parsers.
"""

from __future__ import annotations

from harness.traffic.loader import RecordedCall, TrafficInputError, iter_files, load_file, load_traffic

__all__ = ["RecordedCall", "TrafficInputError", "iter_files", "load_file", "load_traffic"]
