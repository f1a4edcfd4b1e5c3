"""``harness.testing``: known failures cover every parametrised test (request goldens as ``("golden", case)``),
and a first run says that missing goldens are expected and how to write them."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

_SUITE = """
from harness.testing import TargetConformance

class TestAdopter(TargetConformance):
    target = "reference"
    providers = ("anthropic",)
    scenarios = ["developer_at_start"]
    known_failures = {known!r}
"""


def test_a_request_golden_can_be_a_known_failure(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)
    known = {("golden", "anthropic-developer_at_start"): "no golden yet, on purpose"}
    pytester.makepyfile(test_adopter=_SUITE.format(known=known))
    result = pytester.runpytest("-k", "test_request_golden", "-p", "no:cacheprovider")
    result.assert_outcomes(xfailed=1)
    assert "request golden(s) do not exist yet" not in result.stdout.str()  # a declared one is not news


def test_the_first_run_says_missing_goldens_are_expected_and_how_to_write_them(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)
    pytester.makepyfile(test_adopter=_SUITE.format(known={}))
    result = pytester.runpytest("-k", "test_request_golden", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*no golden yet at *anthropic-developer_at_start.json: expected on the first run*",
            "*1 request golden(s) do not exist yet*`pytest --snapshot-update`*",
        ]
    )


def test_known_failure_keys_for_coverage_and_stream_endings_are_tests(pytester: pytest.Pytester) -> None:
    known = {
        ("I3", "anthropic-stream_endings"): "said to fail",
        ("I1", "anthropic-coverage"): "said to fail",
    }
    pytester.makepyfile(test_adopter=_SUITE.format(known=known))
    result = pytester.runpytest("-k", "stream_endings or coverage", "-p", "no:cacheprovider")
    result.stdout.fnmatch_lines(["*XPASS(strict)*"])
    assert "no test for" not in result.stdout.str()
