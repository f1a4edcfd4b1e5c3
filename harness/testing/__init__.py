"""Conformance tests for your own target: ``from harness.testing import TargetConformance``.

The suite lives in ``harness.testing.suite``; this facade loads it on first use (PEP 562), so
the pytest plugin beside it (``harness.testing.pytest_plugin``, loaded by every pytest run
through the ``pytest11`` entry point) does not import the audit, syrupy or hypothesis's
strategies with it. ``register_profiles`` registers the harness's Hypothesis profiles, for a
project that builds its own profile on ``harness-deep``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harness.testing.pytest_plugin import register_profiles
    from harness.testing.suite import TargetConformance

__all__ = ["TargetConformance", "register_profiles"]


def __getattr__(name: str) -> Any:
    if name == "TargetConformance":
        from harness.testing.suite import TargetConformance

        return TargetConformance
    if name == "register_profiles":
        from harness.testing.pytest_plugin import register_profiles

        return register_profiles
    raise AttributeError(f"module 'harness.testing' has no attribute {name!r}")
