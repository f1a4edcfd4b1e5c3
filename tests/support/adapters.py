"""What the request-adapter tests of every provider share: render with a file's defaults, read the
warnings back, build a thinking signature part."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from harness.contract.rendered import Rendered
from harness.mapping.adapter import InputAdapter
from harness.model import HistoryEvent, ThinkingSignaturePart
from harness.params import CallParams

__all__ = ["Render", "codes", "placed_codes", "renderer", "sig"]


class Render(Protocol):
    """``render(history, params=None)``: the adapter's request, with the test file's default params."""

    def __call__(self, history: Sequence[HistoryEvent], params: CallParams | None = None) -> Rendered: ...


def renderer(adapter: InputAdapter, default: CallParams) -> Render:
    """``render(history, params=None)`` for ``adapter``: ``default`` when no params are given."""

    def render(history: Sequence[HistoryEvent], params: CallParams | None = None) -> Rendered:
        return adapter.render(list(history), params or default)

    return render


def codes(rendered: Rendered) -> list[str]:
    """The warning codes of a render, in order."""
    return [w.code for w in rendered.warnings]


def placed_codes(rendered: Rendered) -> list[tuple[int | None, int | None, str]]:
    """The warning codes of a render with the message and part each names."""
    return [(w.message_index, w.part_index, w.code) for w in rendered.warnings]


def sig(
    signature: str, fmt: str | None, model: str | None = None, *, id: str | None = None
) -> ThinkingSignaturePart:
    """A thinking signature part: its bytes (base64 text), format, model and reasoning-unit id."""
    return ThinkingSignaturePart(signature=signature, format=fmt, model_id=model, id=id)
