"""Runtime events (seed 002): defined once in :mod:`harness.contract.events`, re-exported for the parsers."""

from __future__ import annotations

from harness.contract.events import derive_events

__all__ = ["derive_events"]
