"""``harness.strategies.controls``: drawn call controls keep every invariant on every provider
(mapped natively or warned), and breakpoints land where clients put them."""

from __future__ import annotations

from hypothesis import given, settings

from harness.invariants.registry import run_invariants
from harness.model import CacheBreakpoint, TextPart, UserMessage
from harness.params import CallParams
from harness.strategies.controls import call_params_with_controls, with_cache_breakpoints

HISTORY = [UserMessage(parts=[TextPart(text="What changed?")])]


@settings(max_examples=8, deadline=None)
@given(call_params_with_controls())
def test_drawn_controls_keep_every_invariant(params: CallParams) -> None:
    report = run_invariants(HISTORY, params)
    assert report.ok, [str(v) for v in report.violations]


def test_the_breakpoint_goes_on_the_latest_user_text() -> None:
    history = [*HISTORY, UserMessage(parts=[TextPart(text="and now?"), TextPart(text=" ")])]
    marked = with_cache_breakpoints(history, CacheBreakpoint(ttl="1h"))
    last = marked[-1]
    assert isinstance(last, UserMessage)
    assert (
        last.parts[0].cache_breakpoint == CacheBreakpoint(ttl="1h") and last.parts[1].cache_breakpoint is None
    )
    assert marked[0] == HISTORY[0]
