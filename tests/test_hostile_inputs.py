"""Hostile input to every command that reads a file: one line naming the file, exit 2, no traceback.

Inputs are generated here from small seeds (synthetic, bounded sizes); the expensive sizes
run only with ``HARNESS_HOSTILE_BIG=1`` (skipped otherwise, never deselected: a deselected
test would switch off syrupy's unused-golden detection). Loaders are also fuzzed with hypothesis: arbitrary
bytes, JSON and Unicode end in a value or an ``InputError``, nothing else.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from harness.cli.main import app
from harness.codec import HistoryError, loads_history
from harness.inputs import InputError, Limits, gunzip, load_yaml, loads_json, read_bytes
from harness.record.scan import scan_paths

runner = CliRunner()
USER = '{"role":"user","parts":[{"type":"text","text":"hi"}]}'

# ---------------------------------------------------------------- hostile seeds (all synthetic)


def deep_json(depth: int) -> str:
    return '{"role":"user","parts":[{"type":"text","text":"hi"}],"x":' + "[" * depth + "]" * depth + "}"


def alias_bomb(levels: int = 9) -> str:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for n in range(1, levels + 1):
        lines.append(f"a{n}: &a{n} [" + ",".join([f"*a{n - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def cassette(body: str | bytes, request: str = "{}") -> str:
    import yaml

    return yaml.safe_dump(
        {
            "interactions": [
                {
                    "request": {
                        "method": "POST",
                        "uri": "https://api.anthropic.com/v1/messages",
                        "body": request,
                    },
                    "response": {"status": {"code": 200}, "headers": {}, "body": {"string": body}},
                }
            ]
        }
    )


HISTORIES: dict[str, Callable[[], str | bytes]] = {
    "deep-json": lambda: deep_json(100_000) + "\n",
    "long-int": lambda: '{"role":"user","parts":[],"n":' + "1" * 5000 + "}\n",
    "lone-surrogate-escape": lambda: '{"role":"user","parts":[{"type":"text","text":"\\ud83d"}]}\n',
    "not-utf8": lambda: b'{"role":"user","parts":[{"type":"text","text":"\xff"}]}\n',
    "encoded-surrogate": lambda: b'{"role":"user","parts":[{"type":"text","text":"\xed\xa0\xbd"}]}\n',
}
CASSETTES: dict[str, Callable[[], str | bytes]] = {
    "yaml-deep": lambda: "a: " + "[" * 600 + "]" * 600 + "\n",
    "yaml-alias-bomb": alias_bomb,
    "gzip-bomb": lambda: cassette(gzip.compress(b"0" * 30_000_000)),
    "gzip-corrupt": lambda: cassette(b"\x1f\x8b\x08\x00garbage-not-deflate"),
    "gzip-truncated": lambda: cassette(gzip.compress(b"data: {}\n\n" * 1000)[:40]),
    "body-deep-json": lambda: cassette("[" * 50_000 + "]" * 50_000),
    "body-surrogate": lambda: cassette('{"content":[{"type":"text","text":"\\ud83d"}]}'),
    "yaml-surrogate": lambda: 'interactions: "\\ud83d"\n',
}


def _write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8", "surrogatepass") if isinstance(content, str) else content)
    return path


def _assert_clean_refusal(result: Result, path: Path) -> None:
    assert result.exit_code == 2, (result.exit_code, result.stdout[-300:], result.stderr[-300:])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.stderr.strip().splitlines()
    assert lines and str(path) in lines[0], result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert "failed" not in lines[0]  # never blamed on a target


HISTORY_COMMANDS: dict[str, Callable[[Path], list[str]]] = {
    "render": lambda p: ["render", str(p), "--provider", "anthropic"],
    "check": lambda p: ["check", str(p), "--provider", "anthropic"],
    "render-params": lambda p: ["render", str(_ok_history(p)), "--provider", "gemini", "--params", str(p)],
    "check-params": lambda p: ["check", str(_ok_history(p)), "--provider", "gemini", "--params", str(p)],
}


def _ok_history(near: Path) -> Path:
    path = near.parent / "ok.jsonl"
    path.write_text(USER + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("seed", sorted(HISTORIES))
@pytest.mark.parametrize("command", sorted(HISTORY_COMMANDS))
def test_hostile_history_and_params(command: str, seed: str, tmp_path: Path) -> None:
    content = HISTORIES[seed]()
    if command.endswith("params"):  # the same hostile value inside a PARAMS.json object
        text = content.decode("utf-8", "replace") if isinstance(content, bytes) else content
        content = text.replace('"role":"user","parts":[{"type":"text","text":', '"system":').replace(
            '"role":"user","parts":[],', ""
        )
        content = content.replace("}]}", "}").strip()
        if isinstance(HISTORIES[seed](), bytes):
            content = HISTORIES[seed]()
    path = _write(tmp_path, "hostile.json", content)
    _assert_clean_refusal(runner.invoke(app, HISTORY_COMMANDS[command](path)), path)


@pytest.mark.parametrize("seed", sorted(CASSETTES))
@pytest.mark.parametrize("command", ["replay", "diff"])
def test_hostile_cassettes(command: str, seed: str, tmp_path: Path) -> None:
    path = _write(tmp_path, "hostile.yaml", CASSETTES[seed]())
    args = ["replay", str(path)] if command == "replay" else ["diff", str(path), str(path)]
    _assert_clean_refusal(runner.invoke(app, [*args, "--provider", "anthropic"]), path)


def test_record_refuses_hostile_tool_results(tmp_path: Path) -> None:
    path = _write(tmp_path, "tools.json", "[" * 100_000 + "]" * 100_000)
    args = ["record", "--provider", "anthropic", "--history", str(_ok_history(path))]
    result = runner.invoke(app, [*args, "--out", str(tmp_path / "o.yaml"), "--tool-results", str(path)])
    _assert_clean_refusal(result, path)


@pytest.mark.parametrize("command", ["render", "check", "replay", "scan"])
def test_special_files_are_refused_not_opened(command: str, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    args = {
        "render": ["render", str(fifo), "--provider", "anthropic"],
        "check": ["check", str(fifo), "--provider", "anthropic"],
        "replay": ["replay", str(fifo), "--provider", "anthropic"],
        "scan": ["scan", str(tmp_path)],
    }[command]
    _assert_clean_refusal(runner.invoke(app, args), fifo)


def test_scan_reports_and_skips_unreadable_files(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text(alias_bomb(), encoding="utf-8")
    (tmp_path / "b.txt").write_text("key sk-ant-api03-" + "x" * 40 + "\n", encoding="utf-8")
    (tmp_path / "c.yaml").write_text("x: " + "[" * 600 + "]" * 600 + "\n", encoding="utf-8")
    result = scan_paths([tmp_path])
    assert [f.kind for f in result.findings] == ["anthropic-key"]
    assert len(result.skipped) == 2 and all("(yaml)" in s for s in result.skipped)


def test_scan_follows_directory_symlinks_without_looping(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    (real / "k.txt").write_text("hf_" + "a" * 34 + "\n", encoding="utf-8")
    (tmp_path / "link").symlink_to(real, target_is_directory=True)
    (real / "loop").symlink_to(tmp_path, target_is_directory=True)
    result = scan_paths([tmp_path])
    assert [f.kind for f in result.findings] == ["huggingface-token"]


def test_scan_honours_gitignore_and_exclude(tmp_path: Path) -> None:
    for sub in (".venv", "specs", "kept"):
        (tmp_path / sub).mkdir()
        (tmp_path / sub / "k.txt").write_text("ghp_" + "b" * 36 + "\n", encoding="utf-8")
    (tmp_path / ".gitignore").write_text(".venv/\n", encoding="utf-8")
    assert len(scan_paths([tmp_path]).findings) == 2
    assert len(scan_paths([tmp_path], excludes=["specs"]).findings) == 1
    assert len(scan_paths([tmp_path], gitignore=False).findings) == 3


def test_diff_of_raw_bodies_compares_one_call_each(tmp_path: Path) -> None:
    good = _write(tmp_path, "good.sse", 'event: message_start\ndata: {"type":"message_start"}\n\n')
    empty = _write(tmp_path, "empty.sse", "")
    result = runner.invoke(app, ["diff", str(good), str(empty), "--provider", "anthropic"])
    assert result.exit_code == 1 and "no semantic drift" not in result.stdout


def test_diff_with_no_model_call_is_refused(tmp_path: Path) -> None:
    import yaml

    text = yaml.safe_dump({"interactions": []})
    a, b = _write(tmp_path, "a.yaml", text), _write(tmp_path, "b.yaml", text)
    result = runner.invoke(app, ["diff", str(a), str(b), "--provider", "anthropic"])
    assert result.exit_code == 2 and "nothing to compare" in result.stderr


@pytest.mark.parametrize(
    ("params", "field"),
    [({"thinking": {"budget_tokens": -1000}}, "budget_tokens"), ({"stream": "yes"}, "stream")],
)
def test_params_are_strict(params: dict[str, object], field: str, tmp_path: Path) -> None:
    path = _write(tmp_path, "p.json", json.dumps(params))
    result = runner.invoke(
        app, ["render", str(_ok_history(path)), "--provider", "gemini", "--params", str(path)]
    )
    assert result.exit_code == 2 and field in result.stderr


def test_limits_are_raised_by_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = _write(tmp_path, "h.jsonl", deep_json(250) + "\n")
    with pytest.raises(HistoryError, match="HARNESS_MAX_DEPTH"):
        loads_history(path.read_text(encoding="utf-8"), source=str(path))
    monkeypatch.setenv("HARNESS_MAX_DEPTH", "300")
    assert Limits.from_env().max_depth == 300
    monkeypatch.setenv("HARNESS_MAX_FILE_BYTES", "10")
    with pytest.raises(InputError, match="larger than 10 bytes"):
        read_bytes(path)


# ---------------------------------------------------------------- fuzzing the loaders


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=400))
def test_fuzz_bytes_through_every_loader(data: bytes) -> None:
    text = data.decode("utf-8", "replace")
    for load in (
        lambda: loads_json(text, source="f"),
        lambda: load_yaml(text, source="f"),
        lambda: gunzip(data, source="f"),
        lambda: loads_history(text, source="f"),
    ):
        with contextlib.suppress(InputError):
            load()


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(_JSON)
def test_fuzz_json_values_load_or_refuse(value: object) -> None:
    text = json.dumps(value)  # ensure_ascii: lone surrogates become \\udXXX escapes
    try:
        assert loads_json(text, source="f") == value
    except InputError as exc:
        assert "surrogate" in exc.reason


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_fuzz_unicode_history_lines(text: str) -> None:
    line = json.dumps({"role": "user", "parts": [{"type": "text", "text": text}]})
    try:
        events = loads_history(line, source="f")
        assert events and "\ud800" not in text
    except HistoryError as exc:
        assert "surrogate" in exc.reason


# ---------------------------------------------------------------- expensive sizes (opt in)


@pytest.mark.hostile_big
@pytest.mark.skipif(
    os.environ.get("HARNESS_HOSTILE_BIG") != "1",
    reason="expensive sizes (a 1 GB gzip bomb): run with HARNESS_HOSTILE_BIG=1",
)
def test_big_gzip_bomb_is_capped(tmp_path: Path) -> None:
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # gzip framing; 1 GB of zeros, 1 MiB at a time
    chunk = b"0" * (1 << 20)
    bomb = b"".join(packer.compress(chunk) for _ in range(1024)) + packer.flush()
    path = _write(tmp_path, "bomb.yaml", cassette(bomb))
    _assert_clean_refusal(runner.invoke(app, ["replay", str(path), "--provider", "anthropic"]), path)


def test_scrubber_opens_gzip_bodies_and_stores_them_decompressed() -> None:
    from harness.record.scrub import scrub_interaction

    key = "gh" + "p_" + "c" * 36
    interaction: dict[str, Any] = {
        "request": {"method": "POST", "uri": f"https://x/v1/{key}/messages", "headers": dict[str, str]()},
        "response": {
            "status": {"code": 200},
            "headers": {},
            "body": {"string": gzip.compress(f"data: {key}\n".encode())},
        },
    }
    scrubbed = scrub_interaction(interaction)
    assert scrubbed["response"]["body"]["string"] == b"data: REDACTED\n"
    assert key not in scrubbed["request"]["uri"] and "REDACTED" in scrubbed["request"]["uri"]
    bomb: dict[str, Any] = {
        **interaction,
        "response": {"headers": dict[str, str](), "body": {"string": gzip.compress(b"0" * 30_000_000)}},
    }
    assert scrub_interaction(bomb)["response"]["body"]["string"].startswith(b"REDACTED (")
