"""Targets: adapter sets under audit, discovered through the ``harness.targets`` entry point group.

A target maps canonical histories to provider requests and provider responses back to
canonical messages, with whatever code it wraps. ``reference`` is ours; other
projects register theirs in their own package metadata::

    [project.entry-points."harness.targets"]
    my-cli = "my_cli.harness_bridge:TARGET"
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from harness.contract.target import CHANNELS, Target, TargetError

__all__ = ["CHANNELS", "ENTRY_POINT_GROUP", "Target", "TargetError", "available_targets", "get_target"]

ENTRY_POINT_GROUP = "harness.targets"


@cache
def available_targets() -> dict[str, str]:
    """Target name -> entry point value, sorted by name."""
    found = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    return dict(sorted(found.items()))


@cache
def get_target(name: str) -> Target:
    targets = available_targets()
    if name not in targets:
        raise TargetError(f"unknown target '{name}' (available: {', '.join(targets) or 'none'})")
    (ep,) = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    try:
        target = ep.load()
    except Exception as exc:  # a broken third-party bridge must not crash the CLI with a traceback
        raise TargetError(
            f"target '{name}' failed to load ({ep.value}): {type(exc).__name__}: {exc}"
        ) from None
    if not isinstance(target, Target):
        raise TargetError(f"target '{name}' ({ep.value}) does not implement the Target protocol")
    return target
