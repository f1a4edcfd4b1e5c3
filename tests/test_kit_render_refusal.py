"""A refusal raised inside the kit's render (``OfflineWire.render``) is reported as a refusal, never as a
wrapped crash; ``NotImplementedError`` stays unsupported (the adopter's path)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from harness.audit.checks import check_request
from harness.audit.corpus import RequestCase
from harness.audit.invariant_checks import load_runner
from harness.contract.rendered import Rendered
from harness.contract.target import TargetRefusal
from harness.kit import OfflineWire
from harness.model import HistoryEvent
from harness.params import CallParams
from harness.scenarios import load_scenarios
from tests.support.invariants import Mutant

SCENARIO = load_scenarios()["tool_result_with_image"]


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
