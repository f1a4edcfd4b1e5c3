"""Warning channels: a target declares how it announces a drop (returned, ``warnings``, ``logging``); the
harness listens on them while it renders, and a drop is ``policy`` only when announced on one."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Sequence

import pytest

from harness.contract.channels import heard_warnings, render_heard, warning_channels
from harness.contract.rendered import Rendered
from harness.invariants import run_invariants
from harness.model import (
    AssistantMessage,
    HistoryEvent,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    UserMessage,
)
from harness.params import CallParams
from tests.support.invariants import Mutant

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


class AnnouncesOnce(DropsThinking):
    """Logs its notice once per process, as libraries do ("further blocks are logged at debug level")."""

    def __init__(self) -> None:
        super().__init__(frozenset({"logging"}), None)
        self.said = False

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        if not self.said:
            self.said = True
            logging.getLogger("some_library.chat").warning("dropped thinking; further drops at debug level")
        return super().render(provider, history, params)


def test_what_a_channel_said_once_per_process_is_no_determinism_finding() -> None:
    report = run_invariants(_THINKING, CallParams(), providers=["anthropic"], target=AnnouncesOnce())
    assert not [v for v in report.violations if v.invariant == "I10"], report.violations
