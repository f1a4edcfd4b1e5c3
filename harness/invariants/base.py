"""What every invariant check shares: the context it runs in, the violation it reports, JSON helpers.

A check is a plain function ``CheckContext -> list[Violation]``. The context holds one
history, its call params, one provider and the target under audit; it renders lazily
and caches the request, so all the checks cost one render (plus what a check needs
on top, e.g. I9's second render).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from harness.codec import dumps_history
from harness.contract.channels import heard_warnings, render_heard, warning_channels
from harness.contract.events import derive_events
from harness.contract.kinds import Kind
from harness.contract.rendered import Rendered, RenderWarning
from harness.contract.results import CallResult
from harness.contract.target import Target
from harness.invariants.continuation import next_turn
from harness.invariants.replay_events import history_to_ui_events
from harness.model import AssistantMessage, HistoryEvent
from harness.oracles.normalise import normalise_body
from harness.params import CallParams

__all__ = [
    "CheckContext",
    "Continuation",
    "EventDeriver",
    "Json",
    "UIEventDeriver",
    "Violation",
    "as_dict",
    "as_list",
    "dicts",
    "has_subdict",
    "leaves",
    "signature_key",
    "snippet",
]

Json = dict[str, Any]
#: Runtime events of one model call (seed 002), ``derive_events`` by default.
EventDeriver = Callable[[CallResult], list[Json]]
#: UI events replayed from a persisted history, ``history_to_ui_events`` by default.
UIEventDeriver = Callable[[Sequence[HistoryEvent]], list[Json]]
#: The events appended to a history for I9, ``continuation.next_turn`` by default.
Continuation = Callable[[Sequence[HistoryEvent]], list[HistoryEvent]]

_SNIPPET_LIMIT = 200


def snippet(value: object, limit: int = _SNIPPET_LIMIT) -> str:
    """A short one-line JSON rendering for a violation's example (cut with an ellipsis)."""
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    except (TypeError, ValueError):
        text = json.dumps(repr(value), ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True, order=True)
class Violation:
    """One broken invariant: where (provider, canonical message index), why, and a minimal example."""

    invariant: str
    provider: str | None
    message_index: int | None
    reason: str
    example: str = ""
    #: ``reject`` (the API refuses it), ``degrade`` (accepted, information lost), ``policy`` (design only).
    kind: Kind = "degrade"

    def __str__(self) -> str:
        where = self.provider or "history"
        if self.message_index is not None:
            where += f" message {self.message_index}"
        return f"{self.invariant} [{self.kind}] {where}: {self.reason}"

    def to_json(self) -> Json:
        return {
            "example": self.example,
            "invariant": self.invariant,
            "kind": self.kind,
            "message_index": self.message_index,
            "provider": self.provider,
            "reason": self.reason,
        }


@dataclass
class CheckContext:
    """One (history, params, provider, target) under check; ``rendered`` is computed once."""

    history: Sequence[HistoryEvent]
    params: CallParams
    provider: str
    target: Target
    events: EventDeriver = derive_events
    ui_events: UIEventDeriver = history_to_ui_events
    next_turn: Continuation = next_turn
    notes: list[str] = field(default_factory=lambda: [])
    #: Run the history-independent stream probes (HTTP 500, empty body). An audit runs them
    #: once per provider instead of once per case.
    probes: bool = True
    #: Emitted provider streams by message index (None: the provider's stream cannot carry it).
    streams: dict[int, bytes | None] = field(default_factory=lambda: {}, repr=False)
    #: The message each emitted stream carries (the original, or its projection), by message index.
    stream_messages: dict[int, AssistantMessage] = field(default_factory=lambda: {}, repr=False)
    #: The model each emitted stream names, by message index.
    stream_models: dict[int, str] = field(default_factory=lambda: {}, repr=False)
    #: Per-context results other checks reuse (e.g. the provider rules' findings on the body).
    cache: dict[str, Any] = field(default_factory=lambda: {}, repr=False)
    #: Why a message has no stream, by message index.
    stream_skips: dict[int, str] = field(default_factory=lambda: {}, repr=False)
    _rendered: Rendered | None = field(default=None, repr=False)
    #: The body as the provider's parser reads it, for the rendered it was read from.
    _read: tuple[Rendered, Json] | None = field(default=None, repr=False)
    #: Warnings by message index, for the rendered they index (a scan per question is quadratic).
    _warnings_by_message: tuple[Rendered, dict[int | None, list[RenderWarning]]] | None = field(
        default=None, repr=False
    )

    @property
    def rendered(self) -> Rendered:
        if self._rendered is None:
            self._rendered = self.render(self.history)
        return self._rendered

    @property
    def body(self) -> Json:
        """The request body as the provider's parser reads it (``normalise_body``, the schema
        oracle's own reading: Gemini's snake_case names, lower-case schema types), read once."""
        rendered = self.rendered
        if self._read is None or self._read[0] is not rendered:
            self._read = (rendered, normalise_body(self.provider, rendered.body))
        return self._read[1]

    def read(self, body: Json) -> Json:
        """Another body of this provider as its parser reads it (the reading ``body`` gets)."""
        return normalise_body(self.provider, body)

    def render(self, history: Sequence[HistoryEvent], params: CallParams | None = None) -> Rendered:
        """A fresh render (no cache): for checks that compare renders."""
        # Counted in the cache, which contexts of one case may share (the audit's): a target may
        # change the history it renders (I10 reports it), so nothing written from the history
        # before a render is reused after it.
        self.cache["renders"] = self.cache.get("renders", 0) + 1
        return render_heard(self.target, self.provider, list(history), params or self.params)

    def history_jsonl(self) -> str:
        """``dumps_history(self.history)``, written once between renders (I10 writes it after its
        renders, I11 right after)."""
        renders: int = self.cache.get("renders", 0)
        held: tuple[int, str] | None = self.cache.get("history_jsonl")
        if held is None or held[0] != renders:
            held = (renders, dumps_history(self.history))
            self.cache["history_jsonl"] = held
        return held[1]

    def warned(self, message_index: int, part_index: int | None = None, *, exact: bool = False) -> bool:
        """Whether a warning names this message, and this part (``exact``) or this part or the whole message."""
        rendered = self.rendered
        if self._warnings_by_message is None or self._warnings_by_message[0] is not rendered:
            index: dict[int | None, list[RenderWarning]] = {}
            for warning in rendered.warnings:
                index.setdefault(warning.message_index, []).append(warning)
            self._warnings_by_message = (rendered, index)
        mine = self._warnings_by_message[1].get(message_index, [])
        return any(_names(w, message_index, part_index, exact) for w in mine)

    def violation(
        self,
        invariant: str,
        message_index: int | None,
        reason: str,
        example: object = None,
        *,
        kind: Kind,
    ) -> Violation:
        """A violation of this provider; every check states its finding kind explicitly."""
        shown = "" if example is None else example if isinstance(example, str) else snippet(example)
        return Violation(invariant, self.provider, message_index, reason, shown, kind)

    def lacks(self, channel: str) -> bool:
        """Whether the target declares it has no such channel (``warnings``, ``events``, ...)."""
        if channel == "warnings":
            return not warning_channels(self.target)
        return channel in self.target.lacks

    def unwarned_kind(self, *, user_content: bool) -> Kind:
        """The kind of a drop no warning names.

        ``degrade`` by default. A target that declares no warning channel cannot announce a
        deliberate drop, so dropping what is not user content (thinking, signatures, ids) is
        its documented ``policy``; so is such a drop in a render that announced something on
        a channel that names no message (Python ``warnings``, ``logging``:
        ``harness.contract.channels``), noted with what was heard. Losing user content stays
        ``degrade``.
        """
        if user_content:
            return "degrade"
        if self.lacks("warnings"):
            return "policy"
        heard = heard_warnings(self.rendered.warnings)
        if not heard:
            return "degrade"
        self.note(f"{self.provider}: the render announced, naming no message: {heard[0]}")
        return "policy"

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def all_notes(self) -> list[str]:
        """The notes, plus one line summing up the messages the stream checks skipped."""
        if not self.stream_skips:
            return list(self.notes)
        first, reason = next(iter(sorted(self.stream_skips.items())))
        count = len(self.stream_skips)
        summary = (
            f"{self.provider}: {count} assistant message(s) have no {self.provider} stream form, so the "
            f"stream checks (I3, I6, I11) skip them (message {first}: {reason})"
        )
        return [*self.notes, summary]


def _names(warning: RenderWarning, message_index: int, part_index: int | None, exact: bool) -> bool:
    if warning.message_index != message_index:
        return False
    if part_index is None:
        return True
    return warning.part_index == part_index or (not exact and warning.part_index is None)


# ---------------------------------------------------------------- JSON helpers


def signature_key(value: str) -> bytes | str:
    """A signature as the provider's parser reads it: its decoded bytes when it is base64.

    Providers and SDKs write the same bytes in standard or URL-safe base64, padded or not
    (google-genai writes URL-safe): two spellings of one signature are one signature.
    Anything that is not base64 is compared as the string itself.
    """
    text = value.strip()
    if len(text) < 4 or any(c.isspace() for c in text):
        return value
    padded = text + "=" * (-len(text) % 4)
    try:
        if "-" in text or "_" in text:
            return base64.urlsafe_b64decode(padded.encode("ascii"))
        return base64.b64decode(padded.encode("ascii"), validate=True)
    except (binascii.Error, ValueError, UnicodeEncodeError):
        return value


def as_dict(value: object) -> Json | None:
    return cast(Json, value) if isinstance(value, dict) else None


def as_list(value: object) -> list[Any]:
    return cast(list[Any], value) if isinstance(value, list) else []


def leaves(value: object, key: str | None = None) -> Iterator[tuple[str | None, str]]:
    """Every string value (not keys) in document order, with the dict key it sits under."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, dict):
        for k, v in cast(Json, value).items():
            yield from leaves(v, k)
    elif isinstance(value, list):
        for v in cast(list[Any], value):
            yield from leaves(v, key)


def dicts(value: object) -> Iterator[Json]:
    """Every JSON object in a document, outermost first."""
    if isinstance(value, dict):
        obj = cast(Json, value)
        yield obj
        for v in obj.values():
            yield from dicts(v)
    elif isinstance(value, list):
        for v in cast(list[Any], value):
            yield from dicts(v)


def has_subdict(haystack: object, needle: Json) -> bool:
    """Whether some object in ``haystack`` has every key of ``needle`` with an equal value."""
    return any(all(k in d and d[k] == v for k, v in needle.items()) for d in dicts(haystack))
