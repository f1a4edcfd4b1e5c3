"""The traffic loader on every body shape it claims to read.

The variants (JSON string body, gzip and plain ``!!binary`` bodies, ``.yaml.gz`` files)
are built at test time from one real cassette, so each must yield the very same request.
"""

from __future__ import annotations

import base64
import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from harness.traffic import TrafficInputError, iter_files, load_file, load_traffic

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "cassettes" / "anthropic" / "llmanthropic__haiku35_parallel_tool_use_roundtrip.yaml"


def _document() -> dict[str, Any]:
    return yaml.safe_load(SOURCE.read_text(encoding="utf-8"))


def _expected() -> list[Any]:
    return [c.body for c in load_file(SOURCE)]


def _with_request_bodies(tmp: Path, name: str, encode: Callable[[str], object]) -> Path:
    document = _document()
    for interaction in document["interactions"]:
        request = interaction["request"]
        request["body"] = encode(json.dumps(request.pop("parsed_body")))
    path = tmp / name
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    return path


def test_parsed_body_cassette_is_read() -> None:
    calls = load_file(SOURCE)
    assert calls and all(c.problem is None and isinstance(c.body, dict) for c in calls)
    first = calls[0]
    assert first.method == "POST" and first.route is not None and first.route.provider == "anthropic"
    assert first.status == 200 and first.response and first.where.endswith("#0")


Encode = Callable[[str], object]
SHAPES: list[tuple[str, Encode]] = [
    ("string.yaml", lambda text: text),
    ("binary.yaml", lambda text: text.encode("utf-8")),  # PyYAML writes bytes as !!binary (base64)
    ("gzip.yaml", lambda text: gzip.compress(text.encode("utf-8"))),
    ("mapping.yaml", lambda text: {"string": text}),
]


@pytest.mark.parametrize(("name", "encode"), SHAPES)
def test_request_body_shapes(tmp_path: Path, name: str, encode: Encode) -> None:
    path = _with_request_bodies(tmp_path, name, encode)
    if name != "string.yaml" and name != "mapping.yaml":
        assert "!!binary" in path.read_text(encoding="utf-8")
    assert [c.body for c in load_file(path)] == _expected()


def test_gzipped_cassette_file(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml.gz"
    path.write_bytes(gzip.compress(SOURCE.read_bytes()))
    assert [c.body for c in load_file(path)] == _expected()
    assert iter_files([tmp_path]) == [path]


def test_gzip_response_body(tmp_path: Path) -> None:
    document = _document()
    response = document["interactions"][0]["response"]
    raw = response["body"]["string"].encode("utf-8")
    response["body"]["string"] = gzip.compress(raw)
    response["headers"]["content-encoding"] = ["gzip"]
    path = tmp_path / "g.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    assert load_file(path)[0].response == raw


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            "interactions: [\n  - {request: {",
            "file: invalid YAML: did not find expected node content at line 2",
        ),
        ("just: a mapping\n", "file: not a cassette"),
        ("!!python/object/apply:os.system ['true']\n", "file: invalid YAML"),  # never a python tag
    ],
)
def test_unreadable_file_is_one_problem(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    calls = load_file(path)
    assert len(calls) == 1 and calls[0].problem is not None and calls[0].problem.startswith(problem)


def test_unreadable_interaction_names_itself_and_run_goes_on(tmp_path: Path) -> None:
    document = _document()
    document["interactions"][0]["request"].pop("parsed_body")
    document["interactions"][0]["request"]["body"] = "{not json"
    path = tmp_path / "half.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    calls = load_file(path)
    assert calls[0].problem is not None and calls[0].problem.startswith("request body: invalid JSON")
    assert calls[1].problem is None and calls[1].body == _expected()[1]


def test_missing_path_is_bad_usage(tmp_path: Path) -> None:
    with pytest.raises(TrafficInputError, match="no such file"):
        list(load_traffic([tmp_path / "nope"]))


def test_har_file(tmp_path: Path) -> None:
    """A HAR export of the same exchanges (built here from the cassette) reads the same."""
    entries: list[dict[str, Any]] = []
    for i, interaction in enumerate(_document()["interactions"]):
        request, response = interaction["request"], interaction["response"]
        body = json.dumps(request["parsed_body"])
        raw = response["body"]["string"].encode("utf-8")
        encoded = (
            {"text": base64.b64encode(raw).decode(), "encoding": "base64"} if i else {"text": raw.decode()}
        )
        entries.append({
            "request": {"method": request["method"], "url": request["uri"], "headers": [],
                        "postData": {"mimeType": "application/json", "text": body}},
            "response": {"status": response["status"]["code"], "headers": [{"name": "x", "value": "1"}],
                         "content": {"mimeType": "text/event-stream", **encoded}},
        })  # fmt: skip
    path = tmp_path / "export.har"
    path.write_text(json.dumps({"log": {"version": "1.2", "entries": entries}}), encoding="utf-8")
    calls = load_file(path)
    assert [c.body for c in calls] == _expected()
    assert [c.response for c in calls] == [c.response for c in load_file(SOURCE)]
    assert calls[0].headers == {"x": ["1"]} and calls[0].route is not None
    (tmp_path / "bad.har").write_text("{}", encoding="utf-8")
    assert load_file(tmp_path / "bad.har")[0].problem == "file: not a HAR file (no 'log.entries' list)"


def test_a_gzip_bomb_body_is_one_problem_and_the_run_goes_on(tmp_path: Path) -> None:
    import gzip

    bomb = gzip.compress(b"\0" * (80 * 1024 * 1024), compresslevel=9)  # ~80 KB that inflates to 80 MiB
    good = yaml.safe_load(
        (
            Path(__file__).parent.parent / "cassettes/anthropic/pai__sonnet40_thinking_then_text.yaml"
        ).read_text()
    )
    interaction = good["interactions"][0]
    bad = {**interaction, "response": {**interaction["response"], "body": {"string": bomb}}}
    path = tmp_path / "bomb.yaml"
    path.write_text(yaml.safe_dump({"interactions": [bad, interaction]}), encoding="utf-8")
    calls = load_file(path)
    assert calls[0].problem is not None and "response body" in calls[0].problem, calls[0].problem
    assert calls[1].problem is None
