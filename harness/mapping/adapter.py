"""What every input adapter returns: the request body plus warnings for whatever it changed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from harness.contract.rendered import Rendered, RenderWarning, canonical_json
from harness.model import HistoryEvent
from harness.params import CallParams

__all__ = ["InputAdapter", "RenderWarning", "Rendered", "canonical_json"]


class InputAdapter(Protocol):
    """``history + call params -> request body + warnings``. Pure: same input, same bytes."""

    provider: str

    def render(self, history: Sequence[HistoryEvent], params: CallParams) -> Rendered: ...
