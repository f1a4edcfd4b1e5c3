"""Gemini's one exception to merging same-role contents, stated once for both sides.

Gemini alternates ``user`` and ``model`` contents, so consecutive same-role contents are
merged, except here: a user content holding media (``inlineData`` / ``fileData``) stays
apart from a content of ``functionResponse`` parts right before it. The API accepts the
two separate (traffic/pydantic-ai/models__test_multimodal_tool_returns__test_multimodal_tool_return_matrix
[tool_return_content-binary-image-google_2_5].yaml#1) and is reported to reject them
mixed (github.com/vellum-ai/vellum-assistant/pull/1901;
docs/import-check-decisions.md#gemini-tool-result-media).

Why here: the Gemini adapter keeps such a content apart and I8 (provider shape) accepts
it as the one pair of user contents in a row; if each kept its own copy, the judge could
agree with an adapter's bug.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

__all__ = ["is_media_part", "media_after_responses"]


def _keys(part: object) -> dict[str, Any]:
    return cast(dict[str, Any], part) if isinstance(part, dict) else {}


def is_media_part(part: object) -> bool:
    """An ``inlineData`` or ``fileData`` part (anything that is not a JSON object is not)."""
    keys = _keys(part)
    return "inlineData" in keys or "fileData" in keys


def media_after_responses(previous: Sequence[object], parts: Sequence[object]) -> bool:
    """Whether a content of ``parts`` right after a content of ``previous`` stays a content of its own.

    True when ``previous`` holds function responses and ``parts`` holds media and no
    function response of its own.
    """
    return (
        any("functionResponse" in _keys(p) for p in previous)
        and any(is_media_part(p) for p in parts)
        and not any("functionResponse" in _keys(p) for p in parts)
    )
