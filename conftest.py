"""Top-level pytest configuration: this repository's Hypothesis profile and the ``golden`` fixture.

The ``harness`` profile is the harness plugin's (registered, never loaded, by the plugin:
installing the package must not change a host project's settings); this repository opts in
here. ``--hypothesis-profile=harness-deep`` still wins: Hypothesis's own plugin loads it later.
"""

from __future__ import annotations

import pytest
from hypothesis import settings
from syrupy.assertion import SnapshotAssertion

from harness.testing.goldens import GoldenJSON
from harness.testing.pytest_plugin import register_profiles

register_profiles()
settings.load_profile("harness")


@pytest.fixture
def golden(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(GoldenJSON)
