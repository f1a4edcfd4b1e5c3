"""A declared refusal (``TargetRefusal``) is reported as one: ``policy``, or ``reject`` when the
target cites the provider's 4xx; never a render crash, never ``degrade``."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence

import pytest

from harness.audit.checks import check_request
from harness.audit.corpus import RequestCase
from harness.audit.invariant_checks import load_runner
from harness.contract.rendered import Rendered
from harness.contract.target import TargetRefusal
from harness.invariants import run_invariants
from harness.kit import protocol
from harness.kit.serve import serve
from harness.model import HistoryEvent
from harness.params import CallParams
from harness.scenarios import load_scenarios
from tests.support.invariants import Mutant

SCENARIO = load_scenarios()["tool_result_with_image"]
REASON = "images in tool results are not supported on this provider"
PROVIDER_ERROR = "400 INVALID_ARGUMENT: function response parts are not supported by this model"


class Refusing(Mutant):
    """The reference, except that it refuses every history on Gemini, as a library raising its own error."""

    def __init__(self, provider_error: str | None = None) -> None:
        super().__init__(name="refusing")
        self.provider_error = provider_error

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        if provider == "gemini":
            raise TargetRefusal(REASON, provider_error=self.provider_error)
        return super().render(provider, history, params)


class Crashing(Mutant):
    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        raise KeyError("parts")


def _audit(target: Mutant) -> dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]]:
    case = RequestCase(SCENARIO.name, "scenario", list(SCENARIO.history), SCENARIO.params)
    record = check_request(target, "gemini", case, load_runner())
    return {name: (o.status, o.kinds, o.details) for name, o in record.checks.items()}


@pytest.mark.parametrize(("provider_error", "kind"), [(None, "policy"), (PROVIDER_ERROR, "reject")])
def test_the_audit_reports_a_refusal_once_with_its_kind(provider_error: str | None, kind: str) -> None:
    checks = _audit(Refusing(provider_error))
    status, kinds, details = checks["render"]
    assert (status, kinds) == ("fail", (kind,))
    assert REASON in details[0] and "refused" in details[0]
    others = {name: c for name, c in checks.items() if name != "render"}
    assert others and all(status == "skip" for status, _, _ in others.values()), others


def test_a_crash_is_still_a_degrade() -> None:
    status, kinds, _ = _audit(Crashing(name="crashing"))["render"]
    assert (status, kinds) == ("fail", ("degrade",))


@pytest.mark.parametrize(("provider_error", "kind"), [(None, "policy"), (PROVIDER_ERROR, "reject")])
def test_the_invariants_report_a_refusal_once(provider_error: str | None, kind: str) -> None:
    report = run_invariants(
        SCENARIO.history, SCENARIO.params_for("gemini"), target=Refusing(provider_error), providers=["gemini"]
    )
    refusals = [v for v in report.violations if "refused" in v.reason]
    assert len(refusals) == 1, report.violations
    assert refusals[0].kind == kind and REASON in refusals[0].reason
    assert all(v.kind != "degrade" for v in report.violations), report.violations


def test_a_refusal_crosses_the_worker_protocol() -> None:
    request = protocol.encode_render_request("gemini", list(SCENARIO.history), SCENARIO.params)
    replies = io.StringIO()
    serve(Refusing(PROVIDER_ERROR), io.StringIO(json.dumps(request) + "\n"), replies)
    reply = json.loads(replies.getvalue())
    assert reply == {"ok": False, "kind": "refused", "error": REASON, "provider_error": PROVIDER_ERROR}


def test_the_worker_target_raises_the_refusal_it_is_told() -> None:
    from harness.kit.worker import WorkerTarget

    class Replies:
        def ask(self, request: dict[str, object]) -> dict[str, object]:
            return {"ok": False, "kind": "refused", "error": REASON, "provider_error": PROVIDER_ERROR}

    worker = object.__new__(WorkerTarget)
    worker._process = Replies()  # pyright: ignore[reportAttributeAccessIssue, reportPrivateUsage]
    with pytest.raises(TargetRefusal) as raised:
        worker._call({"op": "render"})  # pyright: ignore[reportPrivateUsage]
    assert (raised.value.reason, raised.value.provider_error) == (REASON, PROVIDER_ERROR)
