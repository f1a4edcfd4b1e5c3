"""Replay goldens: the final message, items, events and errors of every bundled cassette."""

from __future__ import annotations

from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from harness.providers.replay import replay_file, result_to_json
from tests.support.cassettes import case_id, cassette_cases

CASES = cassette_cases()


@pytest.mark.parametrize(("provider", "path"), CASES, ids=[case_id(c) for c in CASES])
def test_replay_golden(provider: str, path: Path, golden: SnapshotAssertion) -> None:
    results = replay_file(path, provider)
    assert results, "a cassette must hold at least one model call"
    assert [result_to_json(r) for r in results] == golden
