"""``harness.testing`` catches a target that loses what the caller set: planted targets (labelled
mutations of the reference) that drop ``cache_control`` or send ``stop`` where Anthropic does not
read it fail I17 and I18 by name, while the reference passes the same cases."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

PLANTED = '''
import copy

from harness.contract.rendered import Rendered
from harness.targets import get_target
from harness.testing import TargetConformance

REFERENCE = get_target("reference")


class Planted:
    """The reference with one mutation of its Anthropic bodies (planted, for this test only)."""

    version = None
    lacks = frozenset({{"parser"}})

    def __init__(self, name, mutate):
        self.name, self.mutate = name, mutate

    def providers(self):
        return ("anthropic",)

    def render(self, provider, history, params):
        rendered = REFERENCE.render(provider, history, params)
        body = copy.deepcopy(rendered.body)
        self.mutate(body)
        return Rendered(body, list(rendered.warnings))

    def replay(self, provider, exchange, chunk_size=None):
        raise AssertionError("not replayed: the target declares no parser")


def _strip(node):
    if isinstance(node, dict):
        node.pop("cache_control", None)
        for value in node.values():
            _strip(value)
    elif isinstance(node, list):
        for item in node:
            _strip(item)


def _stop_as_chat(body):
    if "stop_sequences" in body:
        body["stop"] = body.pop("stop_sequences")


class TestAdopter(TargetConformance):
    target = {target}
    providers = ("anthropic",)
    scenarios = ({scenario!r},)
    request_goldens = False
'''


def _run(pytester: pytest.Pytester, target: str, scenario: str, check: str) -> pytest.RunResult:
    pytester.makepyfile(test_adopter=PLANTED.format(target=target, scenario=scenario))
    return pytester.runpytest("-p", "no:cacheprovider", "-q", "-rA", "-k", f"test_scenario and {check}")


@pytest.mark.parametrize(
    ("target", "scenario", "check"),
    [
        ('Planted("drops-cache-control", _strip)', "cache_breakpoints_agent_loop", "I17"),
        ('Planted("stop-as-chat-stop", _stop_as_chat)', "sampling_and_tool_controls", "I18"),
    ],
    ids=["cache_control-dropped", "stop-misnamed"],
)
def test_a_planted_target_fails_the_named_check(
    pytester: pytest.Pytester, target: str, scenario: str, check: str
) -> None:
    result = _run(pytester, target, scenario, check)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"FAILED *test_scenario[[]anthropic-{scenario}-{check}[]]*"])


@pytest.mark.parametrize(
    ("scenario", "check"), [("cache_breakpoints_agent_loop", "I17"), ("sampling_and_tool_controls", "I18")]
)
def test_the_reference_passes_the_same_cases(pytester: pytest.Pytester, scenario: str, check: str) -> None:
    _run(pytester, '"reference"', scenario, check).assert_outcomes(passed=1)
