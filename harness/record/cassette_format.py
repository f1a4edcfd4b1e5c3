"""A vcrpy serializer that reviews well: JSON request bodies as parsed YAML, SSE bodies as literal text.

Register with ``vcr.VCR().register_serializer("harness", harness.record.cassette_format)``.
On disk a request carries ``parsed_body`` (a mapping) instead of an escaped JSON
string, and a response body is a ``|`` block with one SSE line per line, so a
re-recorded cassette diffs line by line. Keys are sorted for stable diffs.
"""

from __future__ import annotations

import json
from typing import Any, cast

import yaml

from harness.inputs import load_yaml

__all__ = ["deserialize", "dump_cassette", "is_binary_stream", "serialize"]

#: Bodies kept as bytes (YAML ``!!binary``) even when they happen to decode as UTF-8: AWS
#: event-stream frames (Bedrock ConverseStream), as cassettes/bedrock/*.yaml store them.
_BINARY_TYPES = ("application/vnd.amazon.eventstream",)


def is_binary_stream(headers: Any) -> bool:
    """Whether a response's ``content-type`` (vcrpy headers: name -> list of values) is a binary framing."""
    if not isinstance(headers, dict):
        return False
    for name, value in cast(dict[Any, Any], headers).items():
        values = cast(list[Any], value) if isinstance(value, list) else [value]
        if str(name).lower() == "content-type" and any(
            str(v).lower().startswith(_BINARY_TYPES) for v in values
        ):
            return True
    return False


class _Dumper(yaml.SafeDumper):
    """Block style for multi-line strings; never YAML aliases (they read badly in review)."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    if "\n" in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")  # pyright: ignore[reportUnknownMemberType]
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)  # pyright: ignore[reportUnknownMemberType]


_Dumper.add_representer(str, _str)


def _to_disk_request(request: dict[str, Any]) -> dict[str, Any]:
    out = dict(request)
    body = out.pop("body", None)
    if isinstance(body, bytes):
        body = body.decode("utf-8", errors="replace")
    if isinstance(body, str) and body.strip():
        try:
            out["parsed_body"] = json.loads(body)
        except json.JSONDecodeError:
            out["body"] = body
    elif "parsed_body" not in out:
        out["body"] = body or ""
    return out


def _to_disk_response(response: dict[str, Any]) -> dict[str, Any]:
    out = dict(response)
    if "parsed_body" in out:  # a JSON (non-streamed) body already stored readably
        out.pop("body", None)
        return out
    body: Any = out.get("body") or {}
    text = cast(dict[str, Any], body).get("string", b"") if isinstance(body, dict) else body
    if isinstance(text, bytes) and is_binary_stream(out.get("headers")):
        out["body"] = {"string": text}  # frames stay bytes: !!binary on disk
        return out
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            return out  # binary stays binary
    out["body"] = {"string": text}
    return out


def dump_cassette(data: dict[str, Any]) -> str:
    interactions = [
        {"request": _to_disk_request(i["request"]), "response": _to_disk_response(i["response"])}
        for i in data.get("interactions", [])
    ]
    document = {k: v for k, v in data.items() if k != "interactions"}
    document["interactions"] = interactions
    document.setdefault("version", 1)
    return yaml.dump(document, Dumper=_Dumper, sort_keys=True, allow_unicode=True, width=1_000_000)


def serialize(cassette_dict: dict[str, Any]) -> str:
    return dump_cassette(cassette_dict)


def deserialize(cassette_string: str) -> dict[str, Any]:
    """Raises ``harness.inputs.InputError`` on hostile YAML (alias bombs, depth, lone surrogates)."""
    data: Any = load_yaml(cassette_string, source="(cassette)") or {}
    document = cast(dict[str, Any], data)
    # vcrpy wants string bodies back; JSON bodies are stored parsed for review.
    for interaction in cast(list[dict[str, Any]], document.get("interactions", [])):
        request = interaction["request"]
        if "parsed_body" in request:
            request["body"] = json.dumps(request.pop("parsed_body"))
        response = interaction["response"]
        if "parsed_body" in response:
            response["body"] = {"string": json.dumps(response.pop("parsed_body"))}
    return document
