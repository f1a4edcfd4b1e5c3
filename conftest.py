"""Top-level pytest configuration: the ``golden`` fixture writes to ``goldens/``."""

from __future__ import annotations

import pytest
from syrupy.assertion import SnapshotAssertion

from harness.testing.goldens import GoldenJSON


@pytest.fixture
def golden(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(GoldenJSON)
