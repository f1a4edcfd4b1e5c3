"""The Target protocol: what the harness needs from an adapter set under audit.

A target maps canonical histories to provider requests and provider responses back to
canonical messages, with whatever code it wraps; ``harness.targets`` discovers them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from harness.contract.chunking import Chunking
from harness.contract.exchange import Exchange
from harness.contract.kinds import Kind
from harness.contract.rendered import Rendered
from harness.contract.results import CallResult
from harness.model import HistoryEvent
from harness.params import CallParams

__all__ = [
    "CHANNELS",
    "Target",
    "TargetError",
    "TargetNotInstalled",
    "TargetRefusal",
    "parser_missing",
    "refusal_kind",
]

#: What a target may declare it lacks: ``warnings`` (no way to say a part was dropped or changed)
#: and ``parser`` (no stream parser of its own: it only writes requests, so ``replay`` is never
#: called and every check of the output side is reported as not run, with the reason).
CHANNELS: frozenset[str] = frozenset({"parser", "warnings"})


class TargetError(ValueError):
    """A target that cannot be found or loaded; ``str()`` is one line for the CLI."""


class TargetNotInstalled(TargetError):
    """A target whose package (or environment) is not installed; ``str()`` is the one-line install hint.

    The only load failure a test suite may skip on: anything else (a NameError in the
    bridge, a missing module of its own package) is a broken target and errors.
    """


class TargetRefusal(Exception):
    """A target's deliberate refusal of an input it declares unsupported, with its reason.

    Raised by ``render`` (or ``replay``) instead of a request, on purpose: a library that
    answers a history it cannot map with a clear error of its own is not crashing. The
    judges report it as such, never as a render crash: ``policy`` (the project chose not
    to send it), or ``reject`` when the target cites the provider error the request
    would have met (``provider_error``: the API's 400 text, so the refusal only brings
    the rejection forward).

        raise TargetRefusal("images in tool results are not supported for Gemini")
    """

    def __init__(self, reason: str, *, provider_error: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.provider_error = provider_error

    def __str__(self) -> str:
        suffix = f" (the provider would answer: {self.provider_error})" if self.provider_error else ""
        return f"{self.reason}{suffix}".splitlines()[0] if self.reason else "refused"


def refusal_kind(refusal: TargetRefusal) -> Kind:
    """``reject`` where the request would have been the provider's 4xx, else ``policy``."""
    return "reject" if refusal.provider_error else "policy"


def parser_missing(target: Target) -> str | None:
    """Why ``target``'s output side is not judged (it declares no stream parser), or None.

    A check of the output side judges the target's own parser; no other parser stands in
    for a missing one, since a check that ran on the reference would pass on nothing.
    """
    if "parser" not in target.lacks:
        return None
    return (
        f"target '{target.name}' declares no stream parser (lacks 'parser'), so its output side is not judged"
    )


@runtime_checkable
class Target(Protocol):
    """What the harness needs from an adapter set. Methods raise NotImplementedError for unsupported providers."""

    name: str

    @property
    def version(self) -> str | None:
        """The version of the code under audit (a package version), or None; reports and baselines name it."""
        ...

    @property
    def lacks(self) -> frozenset[str]:
        """Channels the target has no way to fill (a subset of ``CHANNELS``).

        ``warnings``: a documented, deliberate drop it cannot announce is then ``policy``,
        not ``degrade``; losing user content stays ``degrade``. ``parser``: the target has no
        stream parser, ``replay`` is never called, and the replay checks and the stream
        invariants (I3, I6, I11) are reported as not run.
        """
        ...

    def providers(self) -> Sequence[str]:
        """Provider ids this target implements (a subset of the pinned ids)."""
        ...

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        """History + call params -> request body + warnings (``TargetRefusal`` for an input it declares unsupported)."""
        ...

    def replay(self, provider: str, exchange: Exchange, chunk_size: Chunking = None) -> CallResult:
        """One recorded model response -> the final assistant message, stream items and errors.

        Never called on a target that lacks ``parser``.

        ``chunk_size`` is how the body reaches the code (``harness.contract.chunking``: whole,
        fixed-size chunks, or cut at given offsets); ``harness.kit``'s transport honours it.
        """
        ...
