"""Targets: adapter sets under audit, discovered through the ``harness.targets`` entry point group.

A target maps canonical histories to provider requests and provider responses back to
canonical messages, with whatever code it wraps. ``reference`` is ours; other
projects register theirs in their own package metadata::

    [project.entry-points."harness.targets"]
    my-cli = "my_cli.harness_bridge:TARGET"
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points

from harness.contract.target import CHANNELS, Target, TargetError, TargetNotInstalled

__all__ = [
    "CHANNELS",
    "ENTRY_POINT_GROUP",
    "Target",
    "TargetError",
    "TargetNotInstalled",
    "available_targets",
    "get_target",
]

#: The entry point group a project registers its target under (``my-cli = "my_cli.bridge:TARGET"``).
ENTRY_POINT_GROUP = "harness.targets"


@cache
def available_targets() -> dict[str, str]:
    """Target name -> entry point value, sorted by name."""
    found = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    return dict(sorted(found.items()))


@cache
def get_target(name: str) -> Target:
    """The target registered as ``name``: ``TargetNotInstalled`` when its package is missing, else
    ``TargetError`` (unknown, broken, or not a ``Target``) with a one-line message."""
    targets = available_targets()
    if name not in targets:
        raise TargetError(f"unknown target '{name}' (available: {', '.join(targets) or 'none'})")
    # From the names read once (available_targets): a target that cannot load is looked up again on
    # every call (an exception is not cached), and scanning the installed distributions is the slow part.
    ep = EntryPoint(name, targets[name], ENTRY_POINT_GROUP)
    try:
        target = ep.load()
    except TargetNotInstalled:
        raise
    except ModuleNotFoundError as exc:
        if _not_installed(exc, ep.module):
            raise TargetNotInstalled(
                f"target '{name}' needs {exc.name!r}, which is not installed: install it beside the harness "
                f"(e.g. `pip install {str(exc.name).split('.')[0]}`)"
            ) from None
        raise TargetError(
            f"target '{name}' failed to load ({ep.value}): {type(exc).__name__}: {exc}"
        ) from exc
    except Exception as exc:  # a broken bridge: one line for the CLI, the cause chained for tests
        raise TargetError(
            f"target '{name}' failed to load ({ep.value}): {type(exc).__name__}: {exc}"
        ) from exc
    if not isinstance(target, Target):
        raise TargetError(f"target '{name}' ({ep.value}) does not implement the Target protocol")
    return target


def _not_installed(exc: ModuleNotFoundError, module: str) -> bool:
    """Whether the missing module is a third-party package the bridge needs (not installed), rather
    than a module of the bridge's own package or of the harness (a broken install: an error)."""
    missing = (exc.name or "").split(".")[0]
    return bool(missing) and missing not in {module.split(".")[0], "harness"}
