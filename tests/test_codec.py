"""The JSONL history codec: identity round trip and one-line errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given

from harness.codec import HistoryError, dumps_history, load_history, loads_history
from harness.model import HistoryEvent
from harness.strategies import histories


@given(histories)
def test_encode_then_decode_is_identity(history: list[HistoryEvent]) -> None:
    text = dumps_history(history)
    assert loads_history(text) == history
    assert dumps_history(loads_history(text)) == text


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('{"role":"user","parts":[{"type":"text"}]}', "h.jsonl:2: parts[0].text: Field required"),
        ('{"role":"assistant","parts":[],"stop_reason":"done"}', "h.jsonl:2: stop_reason: Input should be"),
        (
            '{"role":"tool","call_id":"c","tool_name":"t","status":"success","output_text":"",'
            '"parts":[{"type":"text","text":"x"}]}',
            "h.jsonl:2: parts: tool result parts must not be text",
        ),
        (
            '{"role":"tool","call_id":"c","tool_name":"t","status":"cancelled","output_text":""}',
            "h.jsonl:2: status:",
        ),
        ('{"role":"system","parts":[{"type":"image_url","url":"u"}]}', "h.jsonl:2: parts[0].type:"),
        ('{"role":"user","parts":[],"colour":"red"}', "h.jsonl:2: colour: Extra inputs are not permitted"),
        ('{"role":"robot","parts":[]}', "h.jsonl:2: (line): a line needs 'role'"),
        ("[1, 2]", "h.jsonl:2: (line): expected a JSON object, got list"),
        ("{oops", "h.jsonl:2: (json): invalid JSON"),
    ],
)
def test_malformed_line_reports_file_line_and_field(tmp_path: Path, line: str, expected: str) -> None:
    path = tmp_path / "h.jsonl"
    path.write_text('{"role":"user","parts":[{"type":"text","text":"ok"}]}\n' + line + "\n", encoding="utf-8")
    with pytest.raises(HistoryError) as info:
        load_history(path)
    message = str(info.value).replace(str(tmp_path) + "/", "")
    assert message.startswith(expected)
    assert "\n" not in message


def test_blank_lines_are_skipped_and_line_numbers_stay_true(tmp_path: Path) -> None:
    path = tmp_path / "h.jsonl"
    path.write_text('\n{"role":"user","parts":[]}\n\n{"role":"user"}\n', encoding="utf-8")
    with pytest.raises(HistoryError, match=r"h\.jsonl:4: parts: Field required"):
        load_history(path)


def test_missing_and_non_utf8_files(tmp_path: Path) -> None:
    with pytest.raises(HistoryError, match="no such file"):
        load_history(tmp_path / "absent.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"role":"user","parts":[]}\n\xff\n')
    with pytest.raises(HistoryError, match="not UTF-8"):
        load_history(bad)
