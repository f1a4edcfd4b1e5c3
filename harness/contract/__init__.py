"""The vocabulary shared by the reference side (adapters, parsers) and the judges (checks, oracles).

Both sides import this package; neither imports the other (enforced by ``tests/test_layers.py``).
"""

from __future__ import annotations

from harness.contract.accepted import Accepted
from harness.contract.kinds import DEFAULT_FAIL_ON, KIND_MEANINGS, KINDS, Kind, parse_kinds

__all__ = ["DEFAULT_FAIL_ON", "KINDS", "KIND_MEANINGS", "Accepted", "Kind", "parse_kinds"]
