"""``harness replay``: recorded provider responses in any of four forms -> final messages.

Forms: a vcrpy cassette (YAML; request bodies as ``string`` or ``parsed_body``), a raw
SSE body, an AI SDK ``.chunks.txt`` file (one JSON payload per line, no framing), or a
JSON document (Gemini's array framing without ``alt=sse``, or one non-streamed body).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from harness.contract.exchange import Exchange
from harness.inputs import InputError, check_json_text, gunzip, load_yaml, read_bytes
from harness.inputs.files import decode_utf8
from harness.stream import CallResult, StreamParser, get_parser
from harness.stream.base import item_to_json
from harness.stream.drive import chunked, parse_chunks
from harness.stream.events import derive_events
from harness.stream.sse import SSEEvent

__all__ = [
    "Exchange",
    "ReplayInputError",
    "chunks_to_sse",
    "load_exchanges",
    "replay_exchange",
    "replay_file",
    "result_to_json",
]


class ReplayInputError(ValueError):
    """Unreadable replay input; ``str()`` is one line naming the file (and line/field when known)."""


def chunks_to_sse(text: str, provider: str) -> bytes:
    """AI SDK fixture lines -> SSE. Anthropic events need ``event: <type>`` lines, so they are synthesized."""
    out: list[str] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        if provider == "anthropic":
            try:
                kind = json.loads(line).get("type", "")
            except (json.JSONDecodeError, AttributeError):
                raise ReplayInputError(f"line {number}: not a JSON object") from None
            out.append(f"event: {kind}\ndata: {line}\n\n")
        else:
            out.append(f"data: {line}\n\n")
    return "".join(out).encode()


def _body_bytes(stored: Any) -> bytes:
    body: Any = stored
    if isinstance(stored, dict):
        fields = cast(dict[str, Any], stored)
        body = fields.get("string", fields.get("parsed_body", b""))
        if isinstance(body, dict | list):
            return json.dumps(body).encode()
    if isinstance(body, bytes):
        return body
    if isinstance(body, str):
        return body.encode("utf-8")
    return b""


def _request_body(request: dict[str, Any]) -> Any:
    if "parsed_body" in request:
        return request["parsed_body"]
    raw: Any = request.get("body")
    if isinstance(raw, dict):
        raw = cast(dict[str, Any], raw).get("string")
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8", errors="replace")
    if isinstance(raw, str) and raw.strip():
        try:
            return json.loads(raw)
        except json.JSONDecodeError:
            return raw
    return None


def _load_cassette(path: Path, text: str) -> list[Exchange]:
    try:
        data: Any = load_yaml(text, source=str(path))
    except InputError as exc:
        raise ReplayInputError(str(exc)) from None
    if not isinstance(data, dict) or not isinstance(cast(dict[str, Any], data).get("interactions"), list):
        raise ReplayInputError(f"{path}: interactions: not a vcrpy cassette (no 'interactions' list)")
    exchanges: list[Exchange] = []
    interactions = cast(list[Any], cast(dict[str, Any], data)["interactions"])
    for n, item in enumerate(interactions):
        try:
            request: dict[str, Any] = item["request"]
            response: dict[str, Any] = item["response"]
            headers: dict[str, list[str]] = dict(response.get("headers") or {})
            body = (
                json.dumps(response["parsed_body"]).encode()
                if "parsed_body" in response
                else _body_bytes(response.get("body"))
            )
            encoding = next((v[0] for k, v in headers.items() if k.lower() == "content-encoding" and v), "")
            if encoding == "gzip" or body[:2] == b"\x1f\x8b":
                body = gunzip(body, source=str(path), field=f"interactions[{n}].response.body")
            _check_body(body, str(path), f"interactions[{n}].response.body")
            exchanges.append(
                Exchange(
                    method=str(request.get("method", "POST")),
                    uri=str(request.get("uri", "")),
                    request_body=_request_body(request),
                    status=int(response.get("status", {}).get("code", 200)),
                    headers=headers,
                    body=body,
                )
            )
        except InputError as exc:
            raise ReplayInputError(str(exc)) from None
        except (KeyError, TypeError, AttributeError, ValueError, OSError) as exc:
            raise ReplayInputError(
                f"{path}: interactions[{n}]: malformed interaction ({type(exc).__name__}: {exc})"
            ) from None
    return exchanges


def _check_body(body: bytes, source: str, field: str) -> None:
    """JSON depth and lone surrogate escapes in a response body, before any parser sees it."""
    check_json_text(body.decode("utf-8", errors="replace"), source=source, field=field)


def load_exchanges(path: str | Path, provider: str) -> list[Exchange]:
    """Read any of the four replay forms into exchanges."""
    p = Path(path)
    try:
        raw = read_bytes(p)
        name = p.name.lower()
        if name.endswith((".yaml", ".yml")):
            return _load_cassette(p, decode_utf8(raw, str(p)))
        if raw[:2] == b"\x1f\x8b":
            raw = gunzip(raw, source=str(p), field="(body)")
        _check_body(raw, str(p), "(body)")
    except InputError as exc:
        raise ReplayInputError(str(exc)) from None
    synthetic = "(replayed body)"
    if name.endswith(".chunks.txt"):
        try:
            body = chunks_to_sse(raw.decode("utf-8"), provider)
        except ReplayInputError as exc:
            raise ReplayInputError(f"{p}:{exc}") from None
        return [Exchange("POST", synthetic, None, 200, {"content-type": ["text/event-stream"]}, body)]
    return [Exchange("POST", synthetic, None, 200, {}, raw)]


def _error_text(exchange: Exchange) -> str:
    detail = exchange.body.decode("utf-8", errors="replace").strip()
    try:
        payload = json.loads(detail)
        err: Any = (
            cast(dict[str, Any], payload).get("error", payload) if isinstance(payload, dict) else payload
        )
        if isinstance(err, dict) and "message" in err:
            detail = str(cast(dict[str, Any], err)["message"])
    except json.JSONDecodeError:
        pass
    return f"HTTP {exchange.status}: {detail[:300]}"


def replay_exchange(
    parser_class: type[StreamParser], exchange: Exchange, chunk_size: int | None = None
) -> CallResult:
    """Run one model response through a fresh parser, whatever its framing or status."""
    parser = parser_class()
    if exchange.status >= 400:
        return parser.fail(f"{parser.provider}: {_error_text(exchange)}")
    stripped = exchange.body.lstrip()
    if "json" in exchange.header("content-type") or stripped[:1] in (b"[", b"{"):
        try:
            document = json.loads(exchange.body)
        except json.JSONDecodeError as exc:
            return parser.fail(f"{parser.provider}: response body is not valid JSON ({exc.msg} at {exc.pos})")
        if isinstance(document, list):  # Gemini without alt=sse: one GenerateContentResponse per element
            for element in document:  # pyright: ignore[reportUnknownVariableType]
                parser.feed(SSEEvent(None, json.dumps(element)))
        else:
            parser.feed_response(document)
        return parser.finish()
    return parse_chunks(parser, chunked(exchange.body, chunk_size))


def result_to_json(result: CallResult) -> dict[str, Any]:
    return {
        "errors": [e.model_dump(mode="json", exclude_none=True) for e in result.errors],
        "events": derive_events(result),
        "items": [item_to_json(i) for i in result.items],
        "message": result.message.model_dump(mode="json", exclude_none=True),
    }


def replay_file(
    path: str | Path,
    provider: str,
    *,
    replay: Callable[[Exchange], CallResult] | None = None,
    on_note: Callable[[str], None] | None = None,
) -> list[CallResult]:
    """One CallResult per model response in the file; non-model calls (e.g. GET /models) are skipped.

    ``replay`` runs one exchange (a target's output side); the reference parser by default.
    """
    parser_class = get_parser(provider)

    def reference(exchange: Exchange) -> CallResult:
        return replay_exchange(parser_class, exchange)

    run = replay or reference
    results: list[CallResult] = []
    for exchange in load_exchanges(path, provider):
        if not exchange.is_model_call and exchange.uri != "(replayed body)":
            if on_note:
                on_note(f"skipped {exchange.method} {exchange.uri}: not a model call")
            continue
        result = run(exchange)
        if on_note:
            for note in result.notes:
                on_note(note)
        results.append(result)
    return results
