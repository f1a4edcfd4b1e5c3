"""Read recorded traffic in the common vcrpy shapes, one interaction at a time.

Shapes accepted (all seen in public test suites): request bodies as a JSON string, as
``parsed_body`` (a mapping), as ``!!binary`` bytes (base64 in YAML), optionally gzip
compressed (by magic bytes or ``content-encoding``); response bodies as
``body.string`` (text or bytes) or ``parsed_body``; files ``*.yaml``, ``*.yml`` and the
same gzip compressed (``*.yaml.gz``); and HAR files (``*.har``, browser/proxy exports:
``log.entries[].request.postData.text``, ``response.content.text`` with its
``encoding``); LangChain's cassettes (``langchain_tests``' ``CustomSerializer``: gzip
compressed YAML with top-level ``requests`` and ``responses`` lists, paired by position,
request bodies as ``!!binary``). YAML is read with the safe loader (the C one when
available): only standard tags, never Python objects. A call whose URL names no host
(LangChain redacts it to ``**REDACTED**``) is routed by its body's shape (``by_shape.py``),
and ``note`` says so.

An unreadable file or interaction never stops a run: it comes back as a
``RecordedCall`` with ``problem`` set (one line naming file and interaction).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from harness.contract.routing import Route, route
from harness.inputs import InputError, gunzip, load_yaml, loads_json, read_bytes, read_text
from harness.traffic.by_shape import has_no_url, route_by_shape
from harness.traffic.hosts import HostMap, map_route

__all__ = ["EDITED", "RecordedCall", "TrafficInputError", "iter_files", "load_file", "load_traffic"]

_SUFFIXES = (".yaml", ".yml", ".yaml.gz", ".yml.gz", ".har")


class TrafficInputError(ValueError):
    """Bad usage (a path that does not exist); ``str()`` is one line."""


@dataclass
class RecordedCall:
    """One recorded interaction; ``body`` is the parsed request JSON when readable."""

    file: str
    index: int
    method: str = ""
    uri: str = ""
    route: Route | None = None
    body: Any = None
    #: Why the request body (or the whole interaction/file) could not be read; None when fine.
    problem: str | None = None
    status: int = 0
    headers: dict[str, list[str]] = field(default_factory=lambda: {})
    response: bytes = b""
    #: The response was stored parsed (``parsed_body``) and is re-serialised here: its key order
    #: is the cassette writer's (pydantic-ai's serializer dumps YAML with sorted keys), not the API's.
    response_reserialised: bool = False
    #: How the call was read when that is not the usual way (routed by shape: the URL was redacted).
    note: str | None = None

    @property
    def where(self) -> str:
        return f"{self.file}#{self.index}"


def iter_files(paths: Iterable[str | Path]) -> list[Path]:
    """Cassette files under ``paths`` (directories recursed), sorted; TrafficInputError for a missing path."""
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found += [p for p in path.rglob("*") if p.is_file() and p.name.endswith(_SUFFIXES)]
        elif path.is_file():
            found.append(path)
        else:
            raise TrafficInputError(f"{path}: no such file or directory")
    return sorted(set(found))


def _decompress(data: bytes, encoding: str = "", *, source: str = "(body)", field: str = "body") -> bytes:
    """Gzip bodies are inflated through the input boundary (size and ratio capped)."""
    if data[:2] == b"\x1f\x8b" or "gzip" in encoding.lower():
        return gunzip(data, source=source, field=field)
    return data


def _header(headers: dict[str, list[str]], name: str) -> str:
    for key, values in headers.items():
        if key.lower() == name.lower() and values:
            return str(values[0])
    return ""


def _headers(raw: Any) -> dict[str, list[str]]:
    if not isinstance(raw, dict):
        return {}
    out: dict[str, list[str]] = {}
    for key, value in cast(dict[Any, Any], raw).items():
        values = cast(list[Any], value) if isinstance(value, list) else [value]
        out[str(key)] = [str(v) for v in values]
    return out


def _as_bytes(value: Any, encoding: str) -> bytes:
    if isinstance(value, bytes):
        return _decompress(value, encoding)
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, dict | list):
        return json.dumps(value).encode("utf-8")
    return b""


def _request_body(request: dict[str, Any], headers: dict[str, list[str]]) -> tuple[Any, str | None]:
    if "parsed_body" in request:  # alias bombs were refused when the file was read (harness.inputs)
        return request["parsed_body"], None
    raw: Any = request.get("body")
    if isinstance(raw, dict):
        raw = cast(dict[str, Any], raw).get("string")
    if raw is None or raw == "" or raw == b"":
        return None, "request body: empty"
    try:
        data = _as_bytes(raw, _header(headers, "content-encoding"))
    except InputError as exc:
        return None, f"request body: {exc.reason}"
    except (OSError, EOFError) as exc:
        return None, f"request body: unreadable bytes ({exc})"
    try:
        return loads_json(data.decode("utf-8"), source="request body"), None
    except InputError as exc:
        problem = f"request body: {exc.reason}"
    except UnicodeDecodeError as exc:
        problem = f"request body: unreadable bytes ({exc})"
    except json.JSONDecodeError as exc:
        problem = f"request body: not JSON ({exc.msg} at char {exc.pos})"
    return None, _edited(problem, data, raw, headers)


#: The prefix of ``RecordedCall.problem`` for a request body that is known not to be what was sent.
EDITED = "request body: not the request sent"


def _edited(problem: str, data: bytes, raw: Any, headers: dict[str, list[str]]) -> str:
    """``problem``, or EDITED when the recording itself shows the body is not the bytes that went out.

    The rule: a body that does not parse, recorded as sent (a string or bytes, not compressed),
    whose length contradicts the request's own recorded ``Content-Length``, was changed after
    recording; it is not evidence of what the API took, so it is not judged (it is listed, with
    why). A body that does not parse and agrees with its ``Content-Length`` (or has none) is an
    unreadable recording: the run fails. Evidence: ``models__test_bedrock__test_bedrock_model_
    other_parameters.yaml#0`` (pydantic-ai-more) records 320 bytes, not JSON, under
    ``content-length: 178`` and the ``amz-sdk-invocation-id`` of ``models__test_bedrock__test_
    bedrock_model_service_tier.yaml#0``, whose body it was copied from. A different length means
    different bytes, whatever the cause; 183 of the 187 string request bodies with a
    ``Content-Length`` in the recorded traffic this rule was measured on agree with it exactly (and
    all of them parse): the public test cassettes of pydantic/pydantic-ai (at 4fda389; bundled in
    ``traffic/``), langchain-ai/langchain, simonw/llm and its plugins, traceloop/openllmetry,
    open-telemetry/opentelemetry-python-contrib and Arize-ai/openinference."""
    declared = _header(headers, "content-length").strip()
    if (
        not declared.isdigit()
        or _header(headers, "content-encoding")
        or not isinstance(raw, str | bytes)
        or data[:2] == b"\x1f\x8b"
        or int(declared) == len(data)
    ):
        return problem
    return f"{EDITED}: {len(data)} bytes recorded under Content-Length {declared} ({problem.removeprefix('request body: ')})"


def _response(response: dict[str, Any]) -> tuple[int, dict[str, list[str]], bytes]:
    status_raw: Any = response.get("status")
    code: Any = cast(dict[str, Any], status_raw).get("code") if isinstance(status_raw, dict) else status_raw
    status = int(code) if isinstance(code, int | str) and str(code).isdigit() else 0
    headers = _headers(response.get("headers"))
    if "parsed_body" in response:
        parsed: Any = response["parsed_body"]
        return status, headers, _as_bytes(parsed, "")
    body: Any = response.get("body")
    if isinstance(body, dict):
        body = cast(dict[str, Any], body).get("string")
    try:
        return status, headers, _as_bytes(body, _header(headers, "content-encoding"))
    except (OSError, EOFError):
        return status, headers, b""


def _call(file: str, index: int, interaction: Any) -> RecordedCall:
    if not isinstance(interaction, dict):
        return RecordedCall(file, index, problem="interaction: not a mapping")
    it = cast(dict[str, Any], interaction)
    request: Any = it.get("request")
    response: Any = it.get("response")
    if not isinstance(request, dict) or not isinstance(response, dict):
        return RecordedCall(file, index, problem="interaction: no request/response mapping")
    req = cast(dict[str, Any], request)
    method, uri = str(req.get("method", "")), str(req.get("uri", ""))
    body, problem = _request_body(req, _headers(req.get("headers")))
    if problem is None and not isinstance(body, dict):
        body, problem = None, "request body: JSON but not an object"
    try:
        status, headers, payload = _response(cast(dict[str, Any], response))
    except InputError as exc:  # a gzip bomb or corrupt body: this interaction only
        return RecordedCall(
            file, index, method, uri, route(method, uri), problem=f"response body: {exc.reason}"
        )
    except (OSError, EOFError) as exc:
        return RecordedCall(
            file, index, method, uri, route(method, uri), problem=f"response body: unreadable ({exc})"
        )
    reserialised = "parsed_body" in cast(dict[str, Any], response)
    found, note = route(method, uri), None
    if found is None and has_no_url(uri):
        found = route_by_shape(method, body, _headers(req.get("headers")))
        if found is not None:
            note = f"the URL is not recorded ({uri or 'empty'}): {found.reason}"
        elif method.upper() == "POST":
            note = f"the URL is not recorded ({uri or 'empty'}) and the body has no model call's shape: not judged"
    return RecordedCall(
        file, index, method, uri, found, body, problem, status, headers, payload, reserialised, note
    )


def _har_entry(file: str, index: int, entry: Any) -> RecordedCall:
    """A HAR entry in the vcrpy shape, then read like any interaction."""
    e = cast(dict[str, Any], entry) if isinstance(entry, dict) else {}
    request = cast(dict[str, Any], e.get("request") or {})
    response = cast(dict[str, Any], e.get("response") or {})
    content = cast(dict[str, Any], response.get("content") or {})
    text: Any = content.get("text", "")
    if content.get("encoding") == "base64" and isinstance(text, str):
        try:
            text = base64.b64decode(text)
        except (binascii.Error, ValueError):
            text = b""

    def headers(raw: Any) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for h in cast(list[Any], raw) if isinstance(raw, list) else []:
            pair = cast(dict[str, Any], h) if isinstance(h, dict) else {}
            out.setdefault(str(pair.get("name", "")), []).append(str(pair.get("value", "")))
        return out

    interaction = {
        "request": {
            "method": request.get("method", ""),
            "uri": request.get("url", ""),
            "headers": headers(request.get("headers")),
            "body": cast(dict[str, Any], request.get("postData") or {}).get("text", ""),
        },
        "response": {"status": {"code": response.get("status", 0)}, "headers": headers(response.get("headers")),
                     "body": {"string": text}},
    }  # fmt: skip
    return _call(file, index, interaction)


def _load_har(name: str, text: str) -> list[RecordedCall]:
    try:  # the input boundary: depth, integer length and Unicode bounded
        document: Any = loads_json(text, source=name)
    except InputError as exc:
        return [RecordedCall(name, exc.line, problem=f"file: {exc.field}: {exc.reason}")]
    log: Any = cast(dict[str, Any], document).get("log") if isinstance(document, dict) else None
    entries: Any = cast(dict[str, Any], log).get("entries") if isinstance(log, dict) else None
    if not isinstance(entries, list):
        return [RecordedCall(name, 0, problem="file: not a HAR file (no 'log.entries' list)")]
    return [_har_entry(name, i, e) for i, e in enumerate(cast(list[Any], entries))]


def load_file(path: Path, hosts: HostMap | None = None) -> list[RecordedCall]:
    """Every interaction of one cassette, each routed with its host's dialect (``hosts.py``; ``hosts``:
    the user's mapping); an unreadable file is one call with ``problem`` set."""
    calls = _load_file(path)
    for call in calls:
        call.route = map_route(call.route, call.uri, hosts)
    return calls


def _load_file(path: Path) -> list[RecordedCall]:
    name = str(path)
    if path.name.endswith(".har"):
        try:
            return _load_har(name, read_text(path))
        except InputError as exc:
            return [RecordedCall(name, 0, problem=f"file: {exc.reason}")]
    try:  # the input boundary: regular files only, bounded size, depth, aliases and gzip
        data = read_bytes(path)
        if path.name.endswith(".gz"):
            data = gunzip(data, source=name, field="(file)")
        document: Any = load_yaml(data.decode("utf-8"), source=name)
    except InputError as exc:
        where = f" at line {exc.line}" if exc.line else ""
        return [RecordedCall(name, 0, problem=f"file: {exc.reason}{where}")]
    except UnicodeDecodeError as exc:
        return [RecordedCall(name, 0, problem=f"file: not UTF-8 ({exc.reason} at byte {exc.start})")]
    interactions: Any = (
        cast(dict[str, Any], document).get("interactions") if isinstance(document, dict) else None
    )
    if not isinstance(interactions, list):
        interactions = _paired(cast(dict[str, Any], document)) if isinstance(document, dict) else None
    if isinstance(interactions, str):
        return [RecordedCall(name, 0, problem=f"file: {interactions}")]
    if not isinstance(interactions, list):
        return [
            RecordedCall(
                name,
                0,
                problem="file: not a cassette (no 'interactions' list, nor 'requests' and 'responses' lists)",
            )
        ]
    return [_call(name, i, x) for i, x in enumerate(cast(list[Any], interactions))]


def _paired(document: dict[str, Any]) -> list[dict[str, Any]] | str | None:
    """LangChain's layout (top-level ``requests`` and ``responses``, the n-th response answering the
    n-th request) as vcrpy interactions; a string when the two lists do not pair; None for another layout."""
    requests: Any = document.get("requests")
    responses: Any = document.get("responses")
    if not isinstance(requests, list) or not isinstance(responses, list):
        return None
    asked, answered = cast(list[Any], requests), cast(list[Any], responses)
    if len(asked) != len(answered):
        return f"{len(asked)} requests but {len(answered)} responses: cannot pair them"
    return [{"request": q, "response": a} for q, a in zip(asked, answered, strict=True)]


def load_traffic(paths: Iterable[str | Path], hosts: HostMap | None = None) -> Iterator[RecordedCall]:
    """Every interaction of every cassette under ``paths``, in sorted file order."""
    for path in iter_files(paths):
        yield from load_file(path, hosts)
