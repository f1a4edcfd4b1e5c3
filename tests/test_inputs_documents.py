"""The input checks on an event stream's frame payloads (``check_json_documents``).

Each payload of a Bedrock event stream is a JSON document parsed on its own, so the limits hold
per payload: the checks read the payloads as a list and join them only to name a failure. Their
verdict must be ``check_json_bytes``' on each payload, and their report the one it gives for the
payloads one per line (the line, the byte).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from harness.cli.main import app
from harness.emit.bedrock import frame_bytes
from harness.inputs import InputError, Limits, check_json_bytes, check_json_documents
from tests.support.eventstream import content_delta

LIMITS = Limits(max_depth=6, max_line_bytes=48)
#: Pieces that cross each limit, alone or in numbers: brackets (closed or not), strings holding
#: brackets, surrogate escapes lone and paired, escaped quotes and backslashes, newlines, filler.
_PIECES = st.sampled_from(
    [
        b"[",
        b"]",
        b"[[[",
        b"]]]",
        b"{",
        b"}",
        b'"[{"',
        b'"a\\"["',
        b"\\\\",
        b"\\ud83d",
        b"\\ude00",
        b"\\ud83d\\ude00",
        b'"\\ud83d"',
        b"\n",
        b"x" * 20,
        b",",
        b":",
    ]
)
_DOCUMENTS = st.lists(st.lists(_PIECES, max_size=14).map(b"".join), max_size=6)


def _error(check: Callable[..., None], *args: object, **kwargs: object) -> str | None:
    try:
        check(*args, **kwargs)
    except InputError as exc:
        return str(exc)
    return None


@given(_DOCUMENTS)
@settings(max_examples=400, deadline=None)
def test_each_document_is_judged_on_its_own_and_named_as_in_the_joined_text(documents: list[bytes]) -> None:
    got = _error(check_json_documents, documents, source="s", field="f", limits=LIMITS)
    alone = [_error(check_json_bytes, d, source="s", field="f", limits=LIMITS) for d in documents]
    assert (got is None) == all(a is None for a in alone), (got, alone)
    if got is None or "nested deeper" in got:
        return
    # A line or an escape is named as in the payloads one per line, where depth never counts.
    shallow = Limits(max_depth=10**6, max_line_bytes=LIMITS.max_line_bytes)
    joined = _error(check_json_bytes, b"\n".join(documents), source="s", field="f", limits=shallow)
    assert got == joined


def test_brackets_never_add_up_across_documents() -> None:
    """Two payloads that each open four arrays are two documents four deep, not one eight deep;
    a document one byte over the depth limit can be over it, and is measured."""
    check_json_documents([b"[[[[", b"[[[["], source="s", field="f", limits=LIMITS)
    check_json_documents([b"[" * 6], source="s", field="f", limits=LIMITS)
    with pytest.raises(InputError, match="nested deeper than 6"):
        check_json_documents([b"[]", b"[" * 7], source="s", field="f", limits=LIMITS)
    with pytest.raises(InputError, match="nested deeper than 6"):
        check_json_documents([b"[]", b"[[[[[[[" + b"]" * 7], source="s", field="f", limits=LIMITS)


def _frames(*payloads: bytes) -> bytes:
    start = frame_bytes("messageStart", b'{"role":"assistant"}')
    deltas = b"".join(frame_bytes("contentBlockDelta", p) for p in payloads)
    return start + deltas + frame_bytes("messageStop", b'{"stopReason":"end_turn"}')


def _text_delta(text: str) -> bytes:
    return content_delta(0, {"text": text})


_DEEP = b'{"contentBlockIndex":0,"delta":{"text":"a"},"x":' + b"[" * 250 + b"]" * 250 + b"}"
_LONE = b'{"contentBlockIndex":0,"delta":{"text":"\\ud83d"}}'


@pytest.mark.parametrize(
    ("payload", "env", "reason"),
    [
        (_DEEP, {}, "nested deeper than 200 (raise HARNESS_MAX_DEPTH)"),
        (_LONE, {}, "lone UTF-16 surrogate escape at byte"),
        (_text_delta("y" * 5000), {"HARNESS_MAX_LINE_BYTES": "4096"}, "a line longer than 4096 bytes"),
    ],
    ids=["depth", "lone-surrogate", "line"],
)
def test_a_frame_payload_over_a_limit_is_one_line(
    payload: bytes, env: dict[str, str], reason: str, tmp_path: Path
) -> None:
    path = tmp_path / "stream.bin"
    path.write_bytes(_frames(_text_delta("a"), payload, _text_delta("b")))
    result = CliRunner().invoke(app, ["replay", str(path), "--provider", "bedrock"], env=env)
    assert result.exit_code == 2, (result.stdout[-300:], result.stderr[-300:])
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and reason in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_paired_escapes_and_deep_strings_pass(tmp_path: Path) -> None:
    """Brackets inside strings and a surrogate pair are text, never a refusal."""
    path = tmp_path / "stream.bin"
    text = "[" * 300 + "\U0001f600"
    path.write_bytes(
        _frames(_text_delta(text), json.dumps({"contentBlockIndex": 0, "delta": {"text": "!"}}).encode())
    )
    result = CliRunner().invoke(app, ["replay", str(path), "--provider", "bedrock"])
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)[0]["message"]["parts"][0]["text"] == text + "!"


def test_a_document_read_once_is_not_kept_and_reading_twice_keeps_it_again() -> None:
    from harness.inputs import yaml_load

    text = "interactions:\n- request: {uri: 'https://example.invalid/read-once'}\n"
    kept = dict(yaml_load._BUILT)  # pyright: ignore[reportPrivateUsage]
    with yaml_load.read_once():
        assert yaml_load.load_yaml(text, source="once.yaml") == yaml.safe_load(text)
    assert kept == yaml_load._BUILT  # pyright: ignore[reportPrivateUsage]
    yaml_load.load_yaml(text, source="once.yaml")
    assert any(key[0] == "once.yaml" for key in yaml_load._BUILT)  # pyright: ignore[reportPrivateUsage]
