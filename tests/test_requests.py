"""Request goldens: every scenario through every reference adapter, one JSON file each."""

from __future__ import annotations

import pytest
from syrupy.assertion import SnapshotAssertion

from harness.providers import PROVIDERS, get_adapter
from harness.scenarios import load_scenarios

CASES = [(p, name) for p in PROVIDERS for name in load_scenarios()]


@pytest.mark.parametrize(("provider", "scenario"), CASES, ids=[f"{p}-{s}" for p, s in CASES])
def test_request_golden(provider: str, scenario: str, golden: SnapshotAssertion) -> None:
    case = load_scenarios()[scenario]
    rendered = get_adapter(provider).render(case.history, case.params_for(provider))
    assert {"body": rendered.body, "warnings": [str(w) for w in rendered.warnings]} == golden
