"""The adopter's path (issue 36, deliverable 6): refusals through the kit, the public cassette loader,
warning channels a target declares, known failures on every suite test, and the first run's goldens."""

from __future__ import annotations

import gzip
import logging
import warnings
from collections.abc import Sequence
from pathlib import Path

import pytest

from harness.audit.checks import check_request
from harness.audit.corpus import RequestCase
from harness.audit.invariant_checks import load_runner
from harness.contract.channels import heard_warnings, render_heard, warning_channels
from harness.contract.rendered import Rendered
from harness.contract.target import TargetRefusal
from harness.invariants import run_invariants
from harness.kit import CassetteError, OfflineWire, load_cassette, provider_of
from harness.model import (
    AssistantMessage,
    HistoryEvent,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    UserMessage,
)
from harness.params import CallParams
from harness.scenarios import load_scenarios
from tests.invariant_cases import Mutant

pytest_plugins = ["pytester"]

SCENARIO = load_scenarios()["tool_result_with_image"]


# ---------------------------------------------------------------- a refusal inside the kit's render


class RefusingInsideTheWire(Mutant):
    """A bridge whose call (run by ``OfflineWire.render``) translates its library's own error into a refusal."""

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        async def call() -> None:
            raise TargetRefusal("this library does not send images in tool results")

        return OfflineWire().render(call())


def test_a_refusal_raised_inside_the_kits_render_is_a_refusal_not_a_crash() -> None:
    case = RequestCase(SCENARIO.name, "scenario", list(SCENARIO.history), SCENARIO.params)
    record = check_request(RefusingInsideTheWire(name="refusing"), "anthropic", case, load_runner())
    render = record.checks["render"]
    assert (render.status, render.kinds) == ("fail", ("policy",)), render.details
    assert "refused" in render.details[0] and "images in tool results" in render.details[0]


def test_unsupported_inside_the_kits_render_stays_unsupported() -> None:
    async def call() -> None:
        raise NotImplementedError("no such provider here")

    with pytest.raises(NotImplementedError, match="no such provider"):
        OfflineWire().render(call())


# ---------------------------------------------------------------- the public cassette loader

_VCR = """interactions:
- request:
    body: '{"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}'
    headers: {content-type: [application/json]}
    method: POST
    uri: https://api.openai.com/v1/chat/completions
  response:
    body: {string: '{"id": "chatcmpl-1", "choices": []}'}
    headers: {content-type: [application/json]}
    status: {code: 200, message: OK}
- request:
    body: ''
    headers: {}
    method: GET
    uri: https://api.openai.com/v1/models
  response:
    body: {string: '{"data": []}'}
    headers: {}
    status: {code: 200, message: OK}
version: 1
"""

_LANGCHAIN = """requests:
- body: !!binary eyJtb2RlbCI6ICJncHQtNG8iLCAibWVzc2FnZXMiOiBbeyJyb2xlIjogInVzZXIiLCAiY29udGVudCI6ICJoaSJ9XX0=
  headers: {}
  method: POST
  uri: '**REDACTED**'
responses:
- body: {string: '{"id": "chatcmpl-2", "choices": []}'}
  headers: {}
  status: {code: 200, message: OK}
"""


def test_load_cassette_reads_vcrpy_yaml(tmp_path: Path) -> None:
    path = tmp_path / "chat.yaml"
    path.write_text(_VCR, encoding="utf-8")
    every = load_cassette(path)
    assert [(e.method, e.status) for e in every] == [("POST", 200), ("GET", 200)]
    (call,) = load_cassette(path, model_calls=True)
    assert call.request_body == {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}
    assert call.body == b'{"id": "chatcmpl-1", "choices": []}'
    assert call.header("Content-Type") == "application/json" and provider_of(call) == "openai-chat"


def test_load_cassette_reads_langchains_gzip_format_and_routes_a_redacted_url_by_shape(
    tmp_path: Path,
) -> None:
    path = tmp_path / "test_chat.yaml.gz"
    path.write_bytes(gzip.compress(_LANGCHAIN.encode()))
    (call,) = load_cassette(path, model_calls=True)
    assert call.uri == "**REDACTED**" and call.request_body["model"] == "gpt-4o"
    assert provider_of(call) == "openai-chat"


def test_load_cassette_reads_the_bundled_cassettes() -> None:
    bundled = sorted(Path(__file__).resolve().parent.parent.joinpath("cassettes", "anthropic").glob("*.yaml"))
    calls = load_cassette(bundled[0], model_calls=True)
    assert calls and all(provider_of(c) == "anthropic" for c in calls)


def test_load_cassette_refuses_bad_input_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("interactions: [\n", encoding="utf-8")
    with pytest.raises(CassetteError) as caught:
        load_cassette(path)
    assert str(caught.value).startswith(f"{path}#0: file:") and "\n" not in str(caught.value)
    with pytest.raises(CassetteError, match="no such file"):
        load_cassette(tmp_path / "missing.yaml")


# ---------------------------------------------------------------- warning channels

_THINKING = [
    UserMessage(parts=[TextPart(text="hi")]),
    AssistantMessage(
        parts=[
            ThinkingTextPart(text="let me think"),
            ThinkingSignaturePart(signature="c2lnbmF0dXJlLWJ5dGVz", format="anthropic"),
            TextPart(text="hello"),
        ]
    ),
    UserMessage(parts=[TextPart(text="again")]),
]


class DropsThinking(Mutant):
    """The reference, minus thinking, announcing it (or not) the way many libraries do: warnings, logging."""

    def __init__(self, channels: frozenset[str] | None, announce: str | None) -> None:
        super().__init__(name="drops-thinking")
        if channels is not None:
            self.warning_channels = channels
        self.announce = announce

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        if self.announce == "warnings":
            warnings.warn("thinking blocks were dropped", UserWarning, stacklevel=2)
            warnings.warn("this API is deprecated", DeprecationWarning, stacklevel=2)
        elif self.announce == "logging":
            logging.getLogger("some_library.chat").warning("dropped %d thinking block(s)", 1)
        kept = [
            e.model_copy(update={"parts": [p for p in e.parts if p.type == "text"]})
            if isinstance(e, AssistantMessage)
            else e
            for e in history
        ]
        return super().render(provider, kept, params)


def _thinking_kinds(target: DropsThinking) -> set[str]:
    report = run_invariants(_THINKING, CallParams(), providers=["anthropic"], target=target)
    return {v.kind for v in report.violations if v.invariant in ("I2", "I13")}


@pytest.mark.filterwarnings("ignore::UserWarning", "ignore::DeprecationWarning")  # the undeclared case's
@pytest.mark.parametrize(
    ("channels", "announce", "kinds"),
    [
        (None, None, {"degrade"}),  # no declaration: the returned list, which named nothing
        (frozenset[str](), None, {"policy"}),  # no channel at all: a deliberate drop it cannot announce
        (frozenset({"warnings"}), "warnings", {"policy"}),  # announced on its channel
        (frozenset({"logging"}), "logging", {"policy"}),
        (frozenset({"warnings"}), None, {"degrade"}),  # a channel, and it said nothing
        (frozenset({"logging"}), "warnings", {"degrade"}),  # said on a channel it does not declare
    ],
)
def test_a_drop_is_policy_only_when_announced_on_a_declared_channel(
    channels: frozenset[str] | None, announce: str | None, kinds: set[str]
) -> None:
    assert _thinking_kinds(DropsThinking(channels, announce)) == kinds


def test_heard_warnings_are_request_level_and_name_their_channel() -> None:
    target = DropsThinking(frozenset({"warnings", "logging", "returned"}), "warnings")
    rendered = render_heard(target, "anthropic", _THINKING, CallParams())
    heard = heard_warnings(rendered.warnings)
    assert [(w.code, w.reason, w.message_index) for w in heard] == [
        ("warnings:UserWarning", "thinking blocks were dropped", None)
    ]
    with warnings.catch_warnings(record=True) as outside:  # nothing leaks out of the render
        warnings.simplefilter("always")
        render_heard(target, "anthropic", _THINKING, CallParams())
    assert not outside


def test_channels_default_from_lacks_and_unknown_ones_are_refused() -> None:
    plain = Mutant(name="plain")
    assert warning_channels(plain) == frozenset({"returned"})
    silent = Mutant(name="silent")
    silent.lacks = frozenset({"warnings"})
    assert warning_channels(silent) == frozenset()
    odd = Mutant(name="odd")
    odd.warning_channels = frozenset({"pigeons"})  # pyright: ignore[reportAttributeAccessIssue]
    with pytest.raises(ValueError, match="unknown warning channel"):
        warning_channels(odd)


# ---------------------------------------------------------------- known failures on every test; first run

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
