"""Limits of the input boundary, with documented defaults and environment overrides."""

from __future__ import annotations

import functools
import os
import sys
from dataclasses import dataclass

__all__ = ["ENV", "Limits"]

MIB = 1024 * 1024

#: Field name -> environment variable that raises (or lowers) it.
ENV = {
    "max_file_bytes": "HARNESS_MAX_FILE_BYTES",
    "max_decompressed_bytes": "HARNESS_MAX_DECOMPRESSED_BYTES",
    "max_decompress_ratio": "HARNESS_MAX_DECOMPRESS_RATIO",
    "max_depth": "HARNESS_MAX_DEPTH",
    "max_int_digits": "HARNESS_MAX_INT_DIGITS",
    "max_yaml_nodes": "HARNESS_MAX_YAML_NODES",
    "max_line_bytes": "HARNESS_MAX_LINE_BYTES",
}


@dataclass(frozen=True)
class Limits:
    """What one input may cost. The defaults fit every real recording and history seen so far."""

    max_file_bytes: int = 256 * MIB
    max_decompressed_bytes: int = 64 * MIB
    max_decompress_ratio: int = 200
    max_depth: int = 200
    max_int_digits: int = 4300
    max_yaml_nodes: int = 2_000_000
    #: One line of a stream or body (an SSE ``data:`` line is one event): what one parse may cost.
    max_line_bytes: int = 64 * MIB

    @classmethod
    def from_env(cls) -> Limits:
        """Defaults, overridden by the ``HARNESS_MAX_*`` variables (positive integers; others ignored)."""
        limits = _from_values(tuple(os.environ.get(var, "") for var in ENV.values()))
        # Python refuses int() of longer digit strings itself; keep its limit in step with ours.
        if limits.max_int_digits > sys.get_int_max_str_digits():
            sys.set_int_max_str_digits(limits.max_int_digits)
        return limits


@functools.lru_cache(maxsize=8)
def _from_values(raws: tuple[str, ...]) -> Limits:
    """The limits the variables' texts give (remembered: every file read asks, the texts rarely change)."""
    values: dict[str, int] = {}
    for name, raw in zip(ENV, raws, strict=True):
        raw = raw.strip()
        if raw.isdigit() and int(raw) > 0:
            values[name] = int(raw)
    return Limits(**values)


def current(limits: Limits | None) -> Limits:
    return limits if limits is not None else Limits.from_env()
