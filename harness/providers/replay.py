"""``harness replay``: recorded provider responses in any of four forms -> final messages.

Forms: a vcrpy cassette (YAML; request bodies as ``string`` or ``parsed_body``), a raw
SSE body, an AI SDK ``.chunks.txt`` file (one JSON payload per line, no framing), or a
JSON document (Gemini's array framing without ``alt=sse``, or one non-streamed body).

Which parser reads a response: the provider and wire format come from the recorded
request URL (``harness.contract.routing``), or for a bare body from its own event types
(``harness.contract.wires``). A ``--provider`` whose wire formats do not include the
recording's is refused in one line rather than parsed into an empty message. A body
holding several responses back to back is split: one result per response.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from harness.contract.chunking import Chunking
from harness.contract.exchange import Exchange
from harness.contract.results import items_to_json
from harness.contract.routing import route
from harness.contract.wires import PROVIDER_WIRES, WIRE_PROVIDER, WIRE_TITLES, sniff_wire, split_responses
from harness.inputs import (
    InputError,
    Limits,
    check_json_bytes,
    check_json_documents,
    gunzip,
    load_yaml,
    read_bytes,
)
from harness.inputs.files import decode_utf8
from harness.inputs.limits import ENV as LIMIT_ENV
from harness.providers import get_parser
from harness.providers.replay_json import result_json
from harness.stream.base import CallResult, StreamParser
from harness.stream.drive import chunked, parse_chunks
from harness.stream.events import derive_events
from harness.stream.eventstream import frame_payloads
from harness.stream.not_utf8 import first_not_utf8, not_utf8_error
from harness.stream.sse import SSEEvent

__all__ = [
    "Exchange",
    "ReplayInputError",
    "chunks_to_sse",
    "load_exchanges",
    "parser_for",
    "per_response",
    "replay_exchange",
    "replay_file",
    "resolve_provider",
    "result_to_json",
]

SYNTHETIC_URI = "(replayed body)"


class ReplayInputError(ValueError):
    """Unreadable replay input; ``str()`` is one line naming the file (and line/field when known)."""


def chunks_to_sse(text: str, provider: str | None) -> bytes:
    """AI SDK fixture lines -> SSE. Anthropic events need ``event: <type>`` lines, so they are synthesized
    (for ``provider`` anthropic, or with no provider when the payloads are Anthropic events)."""
    out: list[str] = []
    if provider is None:
        first = next((line for line in text.split("\n") if line.strip()), "")
        provider = sniff_wire(f"data: {first}\n\n".encode())
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


def _interactions(data: Any) -> list[Any] | str:
    """A cassette's interactions: vcrpy's ``interactions``, or LangChain's ``requests`` and
    ``responses`` paired by position; else the one line that says why not."""
    document = cast(dict[str, Any], data) if isinstance(data, dict) else {}
    if isinstance(document.get("interactions"), list):
        return cast(list[Any], document["interactions"])
    asked, answered = document.get("requests"), document.get("responses")
    if isinstance(asked, list) and isinstance(answered, list):
        asked_, answered_ = cast(list[Any], asked), cast(list[Any], answered)
        if len(asked_) != len(answered_):
            return f"requests: {len(asked_)} requests but {len(answered_)} responses: cannot pair them"
        return [{"request": q, "response": a} for q, a in zip(asked_, answered_, strict=True)]
    return "interactions: not a cassette (no 'interactions' list, nor 'requests' and 'responses' lists)"


def _load_cassette(path: Path, text: str) -> list[Exchange]:
    try:
        data: Any = load_yaml(text, source=str(path))
    except InputError as exc:
        raise ReplayInputError(str(exc)) from None
    interactions = _interactions(data)
    if isinstance(interactions, str):
        raise ReplayInputError(f"{path}: {interactions}")
    exchanges: list[Exchange] = []
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


_JSON_DOCUMENT = re.compile(rb"\s*[\[{]")


def _check_body(body: bytes, source: str, field: str) -> None:
    """Line length, JSON depth, lone surrogate escapes and integer length in a body, before any parser sees it.

    A JSON document body (not a stream) is parsed once here by the C parser: Python's
    integer-length limit is met only by parsing, and it must be this one line, not a
    ValueError in whichever command replays the body later.
    """
    payloads = frame_payloads(body)  # AWS event-stream frames (Bedrock): their JSON payloads
    if payloads is None:
        check_json_bytes(body, source=source, field=field)
    else:
        check_json_documents(payloads, source=source, field=field)
    limit = Limits.from_env().max_int_digits
    if _JSON_DOCUMENT.match(body):
        _check_int_length(body, source, None, field, limit)
        return
    # A stream: only an event holding a run of more digits than the limit can hold such an integer;
    # that event alone is parsed to tell a number from digits inside a string (native search).
    for found in re.finditer(rb"\d{%d}" % (limit + 1), body):
        start = body.rfind(b"\n", 0, found.start()) + 1
        end = body.find(b"\n", found.end())
        line = body[start : end if end >= 0 else len(body)].strip()
        if line.startswith(b"data:"):
            number = body.count(b"\n", 0, start) + 1
            _check_int_length(line[5:], source, number, field, limit)


def _check_int_length(document: bytes, source: str, line: int | None, field: str, limit: int) -> None:
    """Python's integer-length limit is met only by parsing: one line here, not a ValueError in
    whichever command reads the body later."""
    try:
        json.loads(document)
    except json.JSONDecodeError:
        pass  # not JSON after all: replay reports it as the response's own error
    except ValueError as exc:
        if "digits" not in str(exc):
            raise
        reason = f"integer longer than {limit} digits (raise {LIMIT_ENV['max_int_digits']})"
        raise InputError(source, line, field, reason) from None


def load_exchanges(path: str | Path, provider: str | None) -> list[Exchange]:
    """Read any of the replay forms into exchanges: a vcrpy cassette, LangChain's (gzip YAML with
    ``requests`` / ``responses`` lists), a raw SSE or JSON body, an AI SDK ``.chunks.txt``."""
    p = Path(path)
    try:
        raw = read_bytes(p)
        name = p.name.lower()
        if name.endswith((".yaml.gz", ".yml.gz")):  # LangChain's CustomSerializer: gzip-compressed YAML
            return _load_cassette(p, decode_utf8(gunzip(raw, source=str(p), field="(file)"), str(p)))
        if name.endswith((".yaml", ".yml")):
            return _load_cassette(p, decode_utf8(raw, str(p)))
        if raw[:2] == b"\x1f\x8b":
            raw = gunzip(raw, source=str(p), field="(body)")
        _check_body(raw, str(p), "(body)")
    except InputError as exc:
        raise ReplayInputError(str(exc)) from None
    synthetic = SYNTHETIC_URI
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
    parser_class: type[StreamParser], exchange: Exchange, chunk_size: Chunking = None
) -> CallResult:
    """Run one model response through a fresh parser, whatever its framing or status."""
    parser = parser_class()
    if exchange.status >= 400:
        return parser.fail(f"{parser.provider}: {_error_text(exchange)}")
    if "json" in exchange.header("content-type") or _JSON_DOCUMENT.match(
        exchange.body
    ):  # no copy of the body
        bad = first_not_utf8(exchange.body)
        body: bytes | str = exchange.body if bad is None else exchange.body.decode("utf-8", "replace")
        try:
            document = json.loads(body)
        except json.JSONDecodeError as exc:
            return parser.fail(f"{parser.provider}: response body is not valid JSON ({exc.msg} at {exc.pos})")
        if isinstance(document, list):  # Gemini without alt=sse: one GenerateContentResponse per element
            for element in document:  # pyright: ignore[reportUnknownVariableType]
                parser.feed(SSEEvent(None, json.dumps(element)))
        else:
            parser.feed_response(document)
        if bad is not None:
            parser.error(not_utf8_error(parser.provider, bad[0], f"byte {bad[1]} of the body"))
        return parser.finish()
    return parse_chunks(parser, chunked(exchange.body, chunk_size))


def result_to_json(result: CallResult) -> dict[str, Any]:
    return result_json(result, items_to_json(result.items), derive_events(result))


def _wire_of(exchange: Exchange) -> tuple[str | None, str]:
    """(the wire format of ``exchange``, why): from its request URL, else its body's event types."""
    if exchange.uri != SYNTHETIC_URI:
        routed = route(exchange.method, exchange.uri)
        if routed is not None:
            return routed.wire, f"the request went to {routed.reason}"
    if exchange.status >= 400:
        return None, "an HTTP error body"
    wire = sniff_wire(exchange.body)
    return wire, f"the stream holds {WIRE_TITLES[wire]} events" if wire else "no recognisable event"


def resolve_provider(exchange: Exchange, provider: str | None) -> tuple[str, str | None]:
    """(provider, wire) to replay ``exchange`` with; ``provider`` None infers it.

    Raises ReplayInputError (one line, without the file name) when ``provider`` cannot read
    the recording's wire format, or when nothing tells which provider it is.
    """
    routed = route(exchange.method, exchange.uri) if exchange.uri != SYNTHETIC_URI else None
    wire, why = _wire_of(exchange)
    if provider is None:
        if routed is not None:
            return routed.provider, routed.wire
        if wire is None:
            raise ReplayInputError(f"--provider: cannot tell the provider ({why}); pass --provider")
        return WIRE_PROVIDER[wire], wire
    if wire is not None and wire not in PROVIDER_WIRES.get(provider, (provider,)):
        right = routed.provider if routed is not None else WIRE_PROVIDER[wire]
        raise ReplayInputError(
            f"--provider {provider}: the recording is {WIRE_TITLES[wire]} ({why}); replay with --provider {right}"
        )
    return provider, wire


def parser_for(provider: str, exchange: Exchange) -> type[StreamParser]:
    """The reference parser for one exchange: the provider's, in the exchange's wire format."""
    if len(PROVIDER_WIRES.get(provider, ())) < 2:
        return get_parser(provider)
    return get_parser(provider, _wire_of(exchange)[0])


def per_response(exchange: Exchange, wire: str | None) -> list[Exchange]:
    """The exchange once per response its body holds (a multi-step capture holds several): whatever
    compares one response (a replay, the audit's replay vs the reference) takes them one by one."""
    if wire is None or exchange.status >= 400:
        return [exchange]
    bodies = split_responses(wire, exchange.body)
    if len(bodies) == 1:
        return [exchange]
    return [
        Exchange(
            exchange.method, exchange.uri, exchange.request_body, exchange.status, exchange.headers, body
        )
        for body in bodies
    ]


def _unrouted_response(exchange: Exchange) -> str | None:
    """Why a call that is no known model call is replayed all the same (None: it is not):

    - its URL is not recorded (LangChain writes ``**REDACTED**``) and its response is a model's
      (its events or keys name a wire);
    - its request recorded no body (a retrieval such as Responses' ``GET /v1/responses/{id}
      ?stream=true``, or a recorder that kept none) and its response is a model's event stream.
      A JSON answer to such a request (a model listing, an embedding) is not a model's, however
      its keys read.
    """
    if exchange.status >= 400:
        return None
    wire = sniff_wire(exchange.body)
    if wire is None:
        return None
    if "://" not in exchange.uri:
        return f"the request URL is not recorded ({exchange.uri!r}), but the response is {WIRE_TITLES[wire]}"
    if exchange.request_body in (None, "", b"") and exchange.body.lstrip()[:1] not in (b"{", b"["):
        return f"no request body and no model call's path, but the response is a {WIRE_TITLES[wire]} stream"
    return None


def replay_file(
    path: str | Path,
    provider: str | None,
    *,
    replay: Callable[[str, Exchange], CallResult] | None = None,
    on_note: Callable[[str], None] | None = None,
) -> list[CallResult]:
    """One CallResult per model response in the file; non-model calls (e.g. GET /models) are skipped.

    ``provider`` None infers it per exchange (request URL, else event types). ``replay``
    runs one response for a provider (a target's output side); the reference parser by default.
    """
    if provider is not None:
        get_parser(provider)  # an unknown provider id fails before the file is read

    def reference(provider_: str, exchange: Exchange) -> CallResult:
        return replay_exchange(parser_for(provider_, exchange), exchange)

    run = replay or reference
    results: list[CallResult] = []
    inferred: set[str] = set()
    p = Path(path)
    for number, exchange in enumerate(load_exchanges(p, provider)):
        if not exchange.is_model_call and exchange.uri != SYNTHETIC_URI:
            why = _unrouted_response(exchange)
            if why is None:
                if on_note:
                    on_note(f"skipped {exchange.method} {exchange.uri}: not a model call")
                continue
            if on_note:
                on_note(f"{exchange.method} {exchange.uri}: {why}: replayed")
            exchange = Exchange(
                exchange.method, SYNTHETIC_URI, None, exchange.status, exchange.headers, exchange.body
            )  # read as a bare body: its events name the wire
        try:
            chosen, wire = resolve_provider(exchange, provider)
        except ReplayInputError as exc:
            where = f"interactions[{number}]: " if exchange.uri != SYNTHETIC_URI else ""
            raise ReplayInputError(f"{p}: {where}{exc}") from None
        said = f"replayed as {chosen}" + (f" ({WIRE_TITLES[wire]})" if wire else "")
        if provider is None and on_note and said not in inferred:
            inferred.add(said)
            on_note(said)
        parts = per_response(exchange, wire)
        if len(parts) > 1 and on_note:
            on_note(f"{exchange.uri}: one body holds {len(parts)} responses; replayed one by one")
        for part in parts:
            result = run(chosen, part)
            if on_note:
                for note in result.notes:
                    on_note(note)
            results.append(result)
    return results
