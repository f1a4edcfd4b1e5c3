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
from typing import Any, cast

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


def test_a_yaml_text_read_again_is_a_fresh_document_judged_by_the_limits_of_the_read() -> None:
    """``load_yaml`` keeps the documents it built (a corpus is read many times): a caller's change
    never reaches the next reader, and tighter limits still refuse a text read before."""
    text = "a: [1, {b: 2}]\n" + "c: " + "[" * 30 + "]" * 30 + "\n"
    first = load_yaml(text, source="f")
    first["a"][1]["b"] = 3
    assert load_yaml(text, source="f")["a"] == [1, {"b": 2}]
    with pytest.raises(InputError, match="nested deeper than 10"):
        load_yaml(text, source="f", limits=Limits(max_depth=10))


def test_a_big_yaml_text_is_never_kept() -> None:
    """A recording over a MiB is read once by a command (``replay`` of a long session): keeping its
    document would double what the read holds in memory."""
    from harness.inputs import yaml_load

    text = "k: " + "x" * (yaml_load._BUILT_TEXT_LIMIT + 1) + "\n"  # pyright: ignore[reportPrivateUsage]
    before = dict(yaml_load._BUILT)  # pyright: ignore[reportPrivateUsage]
    assert load_yaml(text, source="big")["k"].startswith("x")
    assert before == yaml_load._BUILT  # pyright: ignore[reportPrivateUsage]


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


# ---------------------------------------------------------------- links, URLs, integers, baselines, HAR, streams


def test_scan_symlink_loop_is_one_line_and_links_out_of_the_tree_are_not_followed(tmp_path: Path) -> None:
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    tree.mkdir()
    outside.mkdir()
    (outside / "key.txt").write_text("key sk-ant-api03-" + "x" * 40 + "\n", encoding="utf-8")
    (tree / "loop").symlink_to("loop")  # ELOOP on every stat
    (tree / "out").symlink_to(outside)
    (tree / "up").symlink_to(tree)  # a directory loop inside the tree: visited once
    result = runner.invoke(app, ["scan", str(tree)])
    assert result.exit_code == 2, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.splitlines()
    assert f"harness: {tree / 'loop'}: (file): Too many levels of symbolic links (skipped)" in lines
    assert any(str(tree / "out") in line and "not followed" in line for line in lines)
    followed = runner.invoke(app, ["scan", str(tree), "--follow-symlinks"])
    assert followed.exit_code == 1 and "key.txt" in followed.stdout  # asked for: followed


@pytest.mark.parametrize("url", ["::::", "http://user:pw@[::1", "ftp://example.com", "localhost:8080"])
def test_record_refuses_a_bad_base_url_before_any_call(url: str, tmp_path: Path) -> None:
    history = _ok_history(tmp_path / "h")
    args = ["record", "--provider", "anthropic", "--history", str(history), "--out", str(tmp_path / "o.yaml")]
    result = runner.invoke(app, [*args, "--base-url", url], env={"ANTHROPIC_API_KEY": "k"})
    assert result.exit_code == 2
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stderr.startswith("harness: --base-url: ") and result.stderr.count("\n") == 1
    assert "pw" not in result.stderr and not (tmp_path / "o.yaml").exists()


def test_diff_and_replay_of_a_body_with_a_5000_digit_integer(tmp_path: Path) -> None:
    body = '{"id":"msg","type":"message","role":"assistant","content":[],"usage":{"input_tokens":%s}}'
    path = _write(tmp_path, "int.yaml", cassette(body % ("9" * 5000)))
    ok = _write(tmp_path, "ok.yaml", cassette(body % "1"))
    for args in (["diff", str(path), str(ok)], ["diff", str(ok), str(path)], ["replay", str(path)]):
        result = runner.invoke(app, [*args, "--provider", "anthropic"])
        _assert_clean_refusal(result, path)
        assert "HARNESS_MAX_INT_DIGITS" in result.stderr


@pytest.mark.parametrize("seed", ["not-utf8", "deep"])
def test_goldens_baseline_with_a_hostile_file(seed: str, tmp_path: Path) -> None:
    golden = tmp_path / "goldens" / "anthropic-plain.json"
    golden.parent.mkdir()
    golden.write_bytes(b'{"body": {"a": "\xff"}}' if seed == "not-utf8" else b"[" * 100_000 + b"]" * 100_000)
    args = ["audit", "--baseline", str(golden.parent), "--out", str(tmp_path / "r")]
    _assert_clean_refusal(runner.invoke(app, args), golden)
    assert not (tmp_path / "r").exists()  # refused before the run


HARS = {
    "deep": lambda: '{"log":' + "[" * 100_000 + "]" * 100_000 + "}",
    "long-int": lambda: '{"log":{"entries":[],"x":%s}}' % ("9" * 5000),
}


@pytest.mark.parametrize("seed", sorted(HARS))
def test_hostile_har_files(seed: str, tmp_path: Path) -> None:
    path = _write(tmp_path, "hostile.har", HARS[seed]())
    audited = runner.invoke(
        app, ["audit-traffic", str(path)]
    )  # exit 1: unreadable input (its documented code)
    assert audited.exit_code == 1 and "Traceback" not in audited.stdout + audited.stderr
    assert f"unreadable: {path}#0: file: (json): " in audited.stdout
    checked = runner.invoke(app, ["import-check", str(path)])  # never a clean pass over nothing
    assert checked.exit_code == 2 and checked.stderr.startswith(f"harness: {path}#0: file: (json): ")


def _delta_stream(delta: str, small_events: int) -> bytes:
    def event(kind: str, data: dict[str, Any]) -> str:
        return f"event: {kind}\ndata: {json.dumps({'type': kind, **data})}\n\n"

    start: dict[str, Any] = {
        "id": "m",
        "type": "message",
        "role": "assistant",
        "model": "c",
        "content": [],
        "usage": {},
    }
    text = event("message_start", {"message": start})
    text += event("content_block_start", {"index": 0, "content_block": {"type": "text", "text": ""}})
    for _ in range(small_events):  # enough brackets that the depth check has to look
        text += event("content_block_delta", {"index": 0, "delta": {"type": "text_delta", "text": "a"}})
    text += event("content_block_delta", {"index": 0, "delta": {"type": "text_delta", "text": delta}})
    text += event("content_block_stop", {"index": 0})
    return (text + event("message_stop", {})).encode()


def test_replay_of_a_big_text_delta_stays_within_ten_times_the_input(tmp_path: Path) -> None:
    """The depth check once ran a regex with a repeated group over the delta: 128x the input in backtracking state."""
    import tracemalloc

    from harness.model import TextPart
    from harness.providers.replay import replay_file

    body = _delta_stream("x" * (2 << 20), 300)
    path = _write(tmp_path, "big.sse", body)
    replay_file(_write(tmp_path, "small.sse", _delta_stream("x", 300)), "anthropic")  # imports, caches
    tracemalloc.start()
    try:
        results = replay_file(path, "anthropic")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    text = "".join(p.text for p in results[0].message.parts if isinstance(p, TextPart))
    assert len(text) == 300 + (2 << 20)
    assert peak < 10 * len(body), peak


def test_a_line_over_the_line_limit_is_one_line(tmp_path: Path) -> None:
    path = _write(tmp_path, "long.sse", _delta_stream("y" * 5000, 0))
    result = runner.invoke(
        app, ["replay", str(path), "--provider", "anthropic"], env={"HARNESS_MAX_LINE_BYTES": "4096"}
    )
    _assert_clean_refusal(result, path)
    assert "a line longer than 4096 bytes (raise HARNESS_MAX_LINE_BYTES)" in result.stderr


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in cast(dict[str, object], value).values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in cast(list[object], value)), default=0)
    return 0


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab\n'),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(alphabet='[]{}"\\k'), inner, max_size=4)
    ),
    max_leaves=40,
)


@given(_JSON_VALUES, st.integers(min_value=0, max_value=12))
@settings(max_examples=300, deadline=None)
def test_depth_check_agrees_with_the_parsed_depth(value: object, limit: int) -> None:
    """The native-code depth check (no parse) gives the parser's answer on any JSON, brackets in strings too."""
    from harness.inputs.json_load import _too_deep  # pyright: ignore[reportPrivateUsage]

    text = json.dumps(value)
    assert _too_deep(text, limit) == (_depth(value) > limit)
    assert _too_deep(text.encode(), limit) == (_depth(value) > limit)


@pytest.mark.hostile_big
@pytest.mark.skipif(
    os.environ.get("HARNESS_HOSTILE_BIG") != "1",
    reason="expensive sizes (a 10 MiB delta, a 200 MB line): run with HARNESS_HOSTILE_BIG=1",
)
def test_big_stream_sizes_stay_bounded(tmp_path: Path) -> None:
    import resource
    import subprocess
    import sys
    import time

    delta = _write(tmp_path, "delta.sse", _delta_stream("x" * (10 << 20), 300))
    line = tmp_path / "line.sse"
    with line.open("wb") as f:
        f.write(b"event: content_block_delta\ndata: ")
        for _ in range(200):
            f.write(b"y" * (1 << 20))
        f.write(b"\n\n")
    cli = [sys.executable, "-c", "from harness.cli.main import app; app(prog_name='harness')", "replay"]
    for path, code in ((delta, 0), (line, 2)):
        started = time.monotonic()
        done = subprocess.run([*cli, str(path), "--provider", "anthropic"], capture_output=True, check=False)
        assert done.returncode == code and b"Traceback" not in done.stderr, done.stderr[-300:]
        assert time.monotonic() - started < 30
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # the larger child
    assert peak_kib * 1024 < 10 * len(delta.read_bytes()) + 300 * (1 << 20), peak_kib


# ---------------------------------------------------------------- probes an audit of other clients ran


def test_diff_and_replay_of_a_stream_with_a_5000_digit_integer(tmp_path: Path) -> None:
    """An SSE event's number past Python's integer limit: refused when the file is read, one line,
    never a ValueError in ``harness diff``'s event listing."""
    start = '{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"c","usage":{"input_tokens":%s,"output_tokens":1}}}'
    stream = "event: message_start\ndata: " + start % ("9" * 5000) + "\n\n"
    path = _write(tmp_path, "int.sse", stream)
    ok = _write(tmp_path, "ok.sse", "event: message_start\ndata: " + start % "1" + "\n\n")
    for args in (["diff", str(path), str(ok)], ["diff", str(ok), str(path)], ["replay", str(path)]):
        result = runner.invoke(app, [*args, "--provider", "anthropic"])
        _assert_clean_refusal(result, path)
        assert ":2: (body): integer longer than 4300 digits (raise HARNESS_MAX_INT_DIGITS)" in result.stderr
    # digits inside a string are text, not a number: read as usual
    text = _write(
        tmp_path, "digits.sse", "event: ping\ndata: " + json.dumps({"type": "ping", "x": "9" * 5000}) + "\n\n"
    )
    assert runner.invoke(app, ["replay", str(text), "--provider", "anthropic"]).exit_code == 0


def test_replay_of_an_integer_past_64_bits_under_a_raised_limit_is_one_line(tmp_path: Path) -> None:
    """With HARNESS_MAX_INT_DIGITS raised the number parses, and JSON output cannot hold it: one line.
    A subprocess: the raised limit changes Python's own, for the whole process."""
    import subprocess
    import sys

    start = '{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"c","usage":{"input_tokens":%s,"output_tokens":1}}}'
    path = _write(tmp_path, "int.sse", "event: message_start\ndata: " + start % ("9" * 5000) + "\n\n")
    cli = [sys.executable, "-c", "from harness.cli.main import app; app(prog_name='harness')"]
    done = subprocess.run(
        [*cli, "replay", str(path), "--provider", "anthropic"],
        capture_output=True,
        check=False,
        env={**os.environ, "HARNESS_MAX_INT_DIGITS": "6000"},
    )
    assert done.returncode == 2 and b"Traceback" not in done.stderr, done.stderr[-400:]
    assert done.stderr.decode().strip().count("\n") == 0 and b"cannot be written as JSON" in done.stderr


def _corrupted(body: bytes) -> bytes | None:
    """``body`` with the first letter of some text value (a delta, content, text) made byte 0xff."""
    import re

    found = re.search(rb'"(?:text|content|delta|reasoning_content|reasoning)": ?"[A-Za-z0-9<*]', body)
    if found is None:
        return None
    at = found.end() - 1
    return body[:at] + b"\xff" + body[at + 1 :]


def _utf8_cases() -> list[tuple[str, bytes, bytes]]:
    """(provider, clean body, the same body with one byte that is not UTF-8) for every provider."""
    from harness.emit import emit_stream
    from harness.emit.bedrock import frame_bytes
    from harness.model import AssistantMessage, TextPart, Usage
    from tests.support.cassettes import cassette_cases, model_calls

    cases: dict[str, tuple[str, bytes, bytes]] = {}
    for provider, path in cassette_cases():
        for exchange in model_calls(provider, path):
            bad = _corrupted(exchange.body) if exchange.status < 400 else None
            if bad is not None and provider not in cases:
                cases[provider] = (provider, exchange.body, bad)
    # Bedrock: binary frames, each with its own CRC: a text delta frame rebuilt around the byte
    message = AssistantMessage(
        parts=[TextPart(text="hello")], usage=Usage(input_tokens=1, output_tokens=1), stop_reason="stop"
    )
    clean = emit_stream("bedrock", message)
    delta = frame_bytes(
        "contentBlockDelta", b'{"contentBlockIndex":0,"delta":{"text":"el"},"p":"abcdefghijklmnopqr"}'
    )
    broken = frame_bytes(
        "contentBlockDelta", b'{"contentBlockIndex":0,"delta":{"text":"\xffl"},"p":"abcdefghijklmnopqr"}'
    )
    assert delta in clean  # the emitter's own frame, byte for byte
    cases["bedrock"] = ("bedrock", clean, clean.replace(delta, broken))
    return sorted(cases.values())


UTF8_CASES = _utf8_cases()


def test_every_provider_has_a_utf8_case() -> None:
    from harness.contract.providers import PROVIDERS

    assert {p for p, _, _ in UTF8_CASES} == set(PROVIDERS)


@pytest.mark.parametrize(("provider", "clean", "bad"), UTF8_CASES, ids=[c[0] for c in UTF8_CASES])
def test_a_byte_that_is_not_utf8_is_named_in_the_replays_errors(
    provider: str, clean: bytes, bad: bytes
) -> None:
    """The byte is replaced so the rest stays readable, and one error says so: never a silent U+FFFD."""
    from harness.providers import get_parser
    from harness.providers.replay import Exchange, replay_exchange

    def errors(body: bytes) -> list[str]:
        exchange = Exchange("POST", "(replayed body)", None, 200, {}, body)
        return [e.error_message for e in replay_exchange(get_parser(provider), exchange).errors]

    before, after = errors(clean), errors(bad)
    named = [e for e in after if "not UTF-8" in e]
    assert len(named) == 1 and "(0xff at " in named[0] and named[0].startswith(f"{provider}: "), after
    assert "\n" not in named[0]
    assert [e for e in after if e not in named] == before


KEY = "sk-ant-api03-" + "x" * 40


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-32", "utf-8-sig"])
def test_scan_reads_a_text_file_in_the_encoding_its_byte_order_mark_names(
    encoding: str, tmp_path: Path
) -> None:
    """A key in a UTF-16 file is letters between NUL bytes to a UTF-8 reader: once missed."""
    text = f"config\nkey = {KEY}\n"
    data = text.encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    path = _write(tmp_path, "settings.txt", data)
    result = scan_paths([path])
    assert [(f.line, f.kind) for f in result.findings] == [(2, "anthropic-key")], result


def test_scan_of_a_long_line_finds_a_key_at_every_window_boundary(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A long text is searched in overlapping windows (bounded memory): a key that straddles a window
    boundary is found once, at its own line."""
    import harness.record.scan as scan

    monkeypatch.setattr(scan, "_WINDOW", 4096)
    monkeypatch.setattr(scan, "_OVERLAP", 512)
    step = 4096 - 512
    filler = "." * (step - 20)  # the key starts 20 characters before the first window's stride ends
    text = "header\n" + filler + " " + KEY + " " + "." * 9000 + "\n" + "tail " + KEY + "\n"
    result = scan_paths([_write(tmp_path, "one.txt", text)])
    assert [(f.line, f.kind) for f in result.findings] == [(2, "anthropic-key"), (3, "anthropic-key")]


def test_scan_finds_a_key_hidden_in_a_long_base64_run_across_its_pieces(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A long base64 payload is decoded in overlapping pieces: what it hides is found wherever it sits."""
    import base64

    import harness.record.secrets as secrets_module

    monkeypatch.setattr(secrets_module, "_PIECE", 4096)
    monkeypatch.setattr(secrets_module, "_PIECE_OVERLAP", 512)
    hidden = b"\x00" * 3040 + f" {KEY} ".encode() + b"\x01" * 6000  # across the first piece's end (3072)
    text = '{"data": "' + base64.b64encode(hidden).decode() + '"}'
    result = scan_paths([_write(tmp_path, "body.json", text)])
    # the piece the key straddles the end of may also report its cut head (fewer chars): never less
    assert {f.kind for f in result.findings} == {"anthropic-key"}, result
    assert f"({len(KEY)} chars)" in {f.masked.split("*** ")[1] for f in result.findings}


def _dead_pid() -> int:
    import subprocess
    import sys

    done = subprocess.Popen([sys.executable, "-c", "pass"])
    done.wait()
    return done.pid


def test_record_clears_a_killed_runs_temporary_file_on_its_next_run(tmp_path: Path) -> None:
    """``record`` killed (SIGKILL) between its write and its rename leaves ``.NAME.<pid>-<hex>.tmp``;
    the next run removes it before anything else, even one that fails before it writes."""
    out = tmp_path / "cassettes" / "run.yaml"
    out.parent.mkdir()
    stale = out.parent / f".run.yaml.{_dead_pid()}-0badc0de.tmp"
    stale.write_text("half a cassette", encoding="utf-8")
    history = _ok_history(tmp_path / "h")
    args = ["record", "--provider", "anthropic", "--history", str(history), "--out", str(out)]
    result = runner.invoke(app, args, env={"ANTHROPIC_API_KEY": ""})  # no key: it stops before any call
    assert result.exit_code == 2 and "ANTHROPIC_API_KEY" in result.stderr, result.stderr
    assert not stale.exists() and not out.exists()
    live = out.parent / f".run.yaml.{os.getpid()}-0badc0de.tmp"  # a running writer's file is kept
    live.write_text("being written", encoding="utf-8")
    assert runner.invoke(app, args, env={"ANTHROPIC_API_KEY": ""}).exit_code == 2
    assert live.exists()


@pytest.mark.hostile_big
@pytest.mark.skipif(
    os.environ.get("HARNESS_HOSTILE_BIG") != "1",
    reason="expensive sizes (a 200 MB single-line body, about two minutes): run with HARNESS_HOSTILE_BIG=1",
)
def test_scan_of_a_200mb_single_line_body_stays_bounded(tmp_path: Path) -> None:
    """One 200 MB line (a JSON body holding an image-sized base64 payload): once peaked at 2.3 GB
    (the whole text lowered, encoded and decoded at once), at about 2.5 times the file now."""
    import base64
    import resource
    import subprocess
    import sys

    path = tmp_path / "body.json"
    piece = base64.b64encode(os.urandom(3 << 20))  # 4 MiB of base64
    with path.open("wb") as f:
        f.write(b'{"data": "')
        for _ in range(50):
            f.write(piece)
        f.write(f'", "key": "{KEY}"}}'.encode())
    cli = [sys.executable, "-c", "from harness.cli.main import app; app(prog_name='harness')", "scan"]
    done = subprocess.run([*cli, str(path)], capture_output=True, check=False)
    assert done.returncode == 1 and b"anthropic-key" in done.stderr + done.stdout, done.stderr[-300:]
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    assert peak < 3 * path.stat().st_size + (200 << 20), peak
