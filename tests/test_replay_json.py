"""``harness replay``'s output: each run of deltas pre-serialised, the text exactly orjson's.

``replay_json`` frames a run's text literals by byte replacement instead of building two
dicts per delta. Its text must equal orjson's of ``result_to_json`` and ``json.dumps``'
sorted, indented form, for any text (quotes, backslashes, newlines, control characters,
the separator itself inside a text) and any mix of items.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.contract.results import CallResult, StreamItem, TextDelta, ThinkingDelta, ToolCallStart
from harness.model import AssistantMessage, ErrorEvent, TextPart, Usage
from harness.providers.replay import replay_file, result_to_json
from harness.providers.replay_json import OPTIONS, replay_json

ROOT = Path(__file__).resolve().parent.parent
_TEXT = st.text(max_size=12) | st.sampled_from(
    ['",\n  "', "\\", '"', "\n  ", "\x00\x1f\x7f", "\u2028é😀", ""]
)
_ITEMS = st.lists(
    st.one_of(
        st.builds(TextDelta, _TEXT),
        st.builds(ThinkingDelta, _TEXT),
        st.builds(ToolCallStart, _TEXT, _TEXT),
    ),
    max_size=30,
)
_RESULTS = st.lists(
    st.builds(
        CallResult,
        message=st.builds(
            AssistantMessage,
            parts=st.lists(st.builds(TextPart, text=_TEXT), max_size=2),
            response_id=st.none() | _TEXT,
            stop_reason=st.sampled_from(["stop", "length", "tool_use", "error", "aborted", None]),
            usage=st.none()
            | st.builds(Usage, input_tokens=st.integers(0, 9), output_tokens=st.integers(0, 9)),
        ),
        items=_ITEMS,
        errors=st.lists(st.builds(ErrorEvent, error_message=_TEXT, can_retry=st.booleans()), max_size=2),
    ),
    max_size=3,
)


def _expected(results: list[CallResult]) -> bytes:
    payload = [result_to_json(r) for r in results]
    text = orjson.dumps(payload, option=OPTIONS)
    assert text == (json.dumps(payload, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode()
    return text


@given(_RESULTS)
@settings(max_examples=150, deadline=None)
def test_the_output_is_orjsons_text_of_the_results(results: list[CallResult]) -> None:
    assert replay_json(results) == _expected(results)


def test_a_delta_whose_type_is_not_its_class_default_is_written_as_it_is() -> None:
    odd = TextDelta("b", type=cast(Any, "odd"))
    items: list[StreamItem] = [TextDelta("a"), odd, TextDelta("c")]
    result = CallResult(AssistantMessage(parts=[], response_id="r"), items, [])
    assert replay_json([result]) == _expected([result])


@pytest.mark.parametrize(
    "path",
    sorted(p for p in (ROOT / "cassettes").rglob("*.yaml")),
    ids=lambda p: f"{p.parent.name}/{p.stem}",
)
def test_every_bundled_cassette_replays_to_the_same_text(path: Path) -> None:
    results = replay_file(path, None)
    assert results
    assert replay_json(results) == _expected(results)
