"""How a target says that it dropped or changed a part: the warning channels it declares, and hearing them.

Libraries announce a drop in different ways: a returned list (``Rendered.warnings``, what the
reference adapters do), Python's ``warnings.warn`` (LangChain's integrations), a ``logging``
record (litellm), or not at all. A target declares the channels it has in
``warning_channels`` (a subset of ``WARNING_CHANNELS``); without that attribute, ``lacks``
decides as before (``"warnings"`` in ``lacks``: none; else ``returned``).

While the harness renders through a target that declares ``warnings`` or ``logging``
(``render_heard``), it listens on that channel and appends what it heard to the rendered
warnings, each as one request-level ``RenderWarning`` whose code names the channel
(``warnings:UserWarning``, ``logging:langchain_anthropic.chat_models``). Such a warning names
no message, so it never excuses a loss by itself; what it changes is the kind of an
unannounced drop of what no person wrote (thinking, signatures, ids): ``policy`` when the
render announced something through a declared channel (the finding then quotes it), else
``degrade``. Losing user content stays ``degrade`` whatever was heard. Deprecation, import and
resource warnings and records below WARNING are not announcements and are not heard.

Listening changes no global state beyond the render: ``warnings.catch_warnings`` restores the
filters, and the logging handler is removed when the render returns.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Generator, Sequence
from contextlib import contextmanager
from typing import Any

from harness.contract.rendered import Rendered, RenderWarning
from harness.model import HistoryEvent
from harness.params import CallParams

__all__ = [
    "HEARD_CHANNELS",
    "WARNING_CHANNELS",
    "heard",
    "heard_warnings",
    "render_heard",
    "warning_channels",
]

#: Every channel a target may declare: a returned list, Python warnings, logging records.
WARNING_CHANNELS: frozenset[str] = frozenset({"returned", "warnings", "logging"})
#: The channels the harness listens on itself (their warnings name no message).
HEARD_CHANNELS: tuple[str, ...] = ("warnings", "logging")
#: Python warning categories that are not a library announcing a drop.
_NOT_ANNOUNCEMENTS: tuple[type[Warning], ...] = (
    DeprecationWarning,
    PendingDeprecationWarning,
    ImportWarning,
    ResourceWarning,
)


def warning_channels(target: Any) -> frozenset[str]:
    """The channels ``target`` declares (``warning_channels``), else what its ``lacks`` implies.

    ValueError for a channel the harness does not know (one line, naming the target).
    """
    declared: Any = getattr(target, "warning_channels", None)
    if declared is None:
        return (
            frozenset()
            if "warnings" in getattr(target, "lacks", frozenset[str]())
            else frozenset({"returned"})
        )
    channels = frozenset(str(c) for c in declared)
    unknown = sorted(channels - WARNING_CHANNELS)
    if unknown:
        raise ValueError(
            f"target {getattr(target, 'name', target)!r} declares unknown warning channel(s) {unknown} "
            f"(known: {', '.join(sorted(WARNING_CHANNELS))})"
        )
    return channels


def heard_warnings(warnings_: Sequence[RenderWarning]) -> list[RenderWarning]:
    """The warnings the harness heard on a channel (not returned by the target)."""
    return [w for w in warnings_ if w.code.split(":", 1)[0] in HEARD_CHANNELS and ":" in w.code]


class _Collector(logging.Handler):
    def __init__(self, out: list[RenderWarning]) -> None:
        super().__init__(logging.WARNING)
        self.out = out

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage()
        except Exception:  # a record whose arguments do not format is still an announcement
            text = str(record.msg)
        self.out.append(_warning(f"logging:{record.name}", text))


def _warning(code: str, text: str) -> RenderWarning:
    first = text.strip().splitlines()[0] if text.strip() else "(empty)"
    return RenderWarning(None, None, None, code, first)


@contextmanager
def heard(channels: frozenset[str]) -> Generator[list[RenderWarning]]:
    """Listen on ``channels`` (``warnings``, ``logging``) for the block; yields the list it fills."""
    out: list[RenderWarning] = []
    handler = _Collector(out) if "logging" in channels else None
    root = logging.getLogger()
    if handler is not None:
        root.addHandler(handler)
    try:
        if "warnings" not in channels:
            yield out
            return
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for category in _NOT_ANNOUNCEMENTS:
                warnings.simplefilter("ignore", category)
            yield out
        out.extend(_warning(f"warnings:{w.category.__name__}", str(w.message)) for w in caught)
        out[:] = list(dict.fromkeys(out))  # a warning repeated in a loop is one announcement
    finally:
        if handler is not None:
            root.removeHandler(handler)


def render_heard(target: Any, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
    """``target.render``, with what it announced on its declared ``warnings``/``logging`` channels appended."""
    channels = warning_channels(target) & frozenset(HEARD_CHANNELS)
    if not channels:
        return target.render(provider, history, params)
    with heard(channels) as announced:
        rendered: Rendered = target.render(provider, history, params)
    if not announced:
        return rendered
    return Rendered(body=rendered.body, warnings=[*rendered.warnings, *announced])
