"""Every recorded response that holds a provider-executed tool or a citation, replayed and counted.

Issue 34's acceptance: "``harness replay`` of every recorded stream that holds server tools or
citations yields them as parts, matching the official SDK's accumulation where an SDK exists".
This module is that census. For each model response of a recording (every form ``replay`` reads):

- ``expected`` counts, from the body's own JSON and by each wire's documented shape, the server
  tool calls, their results, the sources (citations, annotations, grounding chunks, search
  results) and generated images it holds; independently of the parsers (no parser code is used);
- the reference parser replays it, and its message's parts are counted the same way;
- where an official SDK accumulates the same bytes (openai, anthropic; google-genai's parsed
  chunks; botocore's event decoding for Bedrock streams), the provider parts of both
  accumulations are compared (``harness.crosscheck``, after its deliberate differences).

A response "holds parts" when every family it holds comes out in the same number. The table
(``render``) is per provider: responses, responses whose parts all came out, and SDK agreement.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from harness.contract.server_items import (
    ANTHROPIC_SERVER_CALLS,
    GEMINI_SERVER_PARTS,
    RESPONSES_SERVER_ITEMS,
    is_anthropic_result,
)
from harness.model import FilePart, ServerToolCallPart, ServerToolResultPart, SourcePart
from harness.providers.replay import (
    SYNTHETIC_URI,
    Exchange,
    ReplayInputError,
    load_exchanges,
    parser_for,
    per_response,
    replay_exchange,
    resolve_provider,
)
from harness.stream.base import CallResult
from harness.stream.eventstream import frame_payloads

__all__ = [
    "FAMILIES",
    "Row",
    "SdkRefused",
    "census",
    "counted",
    "expected",
    "payloads",
    "render",
    "sdk_disagreements",
]

Json = dict[str, Any]
#: What is counted: server tool calls, their results, sources, and generated images (a Responses
#: ``image_generation_call`` is a file part: its image is what the caller needs).
FAMILIES = ("call", "result", "source", "image")
_SUFFIXES = (".yaml", ".yml", ".yaml.gz", ".yml.gz", ".chunks.txt", ".json", ".sse")
_SELF_CONTAINED = frozenset({"web_search_call", "file_search_call", "code_interpreter_call", "mcp_call"})
#: Wires whose official SDK accumulation judges the parts (Bedrock: botocore's decoding, streams only).
SDK_WIRES = frozenset({"anthropic", "openai-responses", "openai-chat", "gemini", "bedrock-converse"})


def _obj(value: Any) -> Json:
    return cast(Json, value) if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return cast(list[Any], value) if isinstance(value, list) else []


def payloads(body: bytes) -> list[Any]:
    """The JSON documents of a response body: SSE ``data:`` lines, one JSON document (a Gemini
    array is its elements), or the payloads of AWS event-stream frames."""
    frames = frame_payloads(body)
    if frames is not None:
        out: list[Any] = []
        for frame in frames:
            try:
                out.append(json.loads(frame))
            except (json.JSONDecodeError, UnicodeDecodeError):
                continue
        return out
    text = body.decode("utf-8", errors="replace")
    stripped = text.lstrip()
    if stripped[:1] in ("{", "["):
        try:
            document: Any = json.loads(stripped)
        except json.JSONDecodeError:
            document = None
        if document is not None:
            return _list(document) if isinstance(document, list) else [document]
    out = []
    for line in text.splitlines():
        if line.startswith("data:"):
            try:
                out.append(json.loads(line[5:]))
            except json.JSONDecodeError:
                continue
    return out


def _walk(value: Any) -> Iterator[Json]:
    """Every JSON object in ``value``, outermost first."""
    if isinstance(value, dict):
        yield cast(Json, value)
        for child in cast(Json, value).values():
            yield from _walk(child)
    elif isinstance(value, list):
        for child in cast(list[Any], value):
            yield from _walk(child)


def _anthropic(docs: list[Any]) -> Counter[str]:
    out: Counter[str] = Counter()
    blocks = [_obj(d.get("content_block")) for d in map(_obj, docs) if d.get("type") == "content_block_start"]
    blocks += [
        _obj(b) for d in map(_obj, docs) if d.get("type") == "message" for b in _list(d.get("content"))
    ]
    for block in blocks:
        kind = block.get("type")
        if kind in ANTHROPIC_SERVER_CALLS:
            out["call"] += 1
        elif is_anthropic_result(kind):
            out["result"] += 1
        elif kind == "text":
            out["source"] += len(_list(block.get("citations")))
    deltas = [_obj(d.get("delta")) for d in map(_obj, docs) if d.get("type") == "content_block_delta"]
    out["source"] += sum(d.get("type") == "citations_delta" for d in deltas)
    return out


def _responses(docs: list[Any]) -> Counter[str]:
    items: dict[str, Json] = {}
    for position, doc in enumerate(map(_obj, docs)):
        found = [doc.get("item")] if doc.get("type") == "response.output_item.done" else []
        response = _obj(doc.get("response")) if "response" in doc else doc if "output" in doc else {}
        found += _list(response.get("output"))
        for n, item in enumerate(map(_obj, found)):
            items[str(item.get("id") or item.get("call_id") or f"{position}.{n}")] = item
    out: Counter[str] = Counter()
    for item in items.values():
        kind = item.get("type")
        if kind in ("tool_search_output", "mcp_list_tools"):
            out["result"] += 1
        elif kind in RESPONSES_SERVER_ITEMS:
            out["call"] += 1
            out["result"] += kind in _SELF_CONTAINED
        elif kind == "image_generation_call":
            out["image"] += bool(item.get("result"))
        elif kind == "message":
            out["source"] += sum(len(_list(_obj(c).get("annotations"))) for c in _list(item.get("content")))
    return out


def _gemini(docs: list[Any]) -> Counter[str]:
    out: Counter[str] = Counter()
    for doc in map(_obj, docs):
        for candidate in map(_obj, _list(doc.get("candidates"))):
            if candidate.get("index", 0) != 0:
                continue
            for part in map(_obj, _list(_obj(candidate.get("content")).get("parts"))):
                key = next((k for k in GEMINI_SERVER_PARTS if isinstance(part.get(k), dict)), None)
                if key is not None:
                    out["call" if key in ("toolCall", "executableCode") else "result"] += 1
            out["source"] += len(_list(_obj(candidate.get("groundingMetadata")).get("groundingChunks")))
            out["source"] += len(_list(_obj(candidate.get("urlContextMetadata")).get("urlMetadata")))
    return out


def _chat(docs: list[Any]) -> Counter[str]:
    out: Counter[str] = Counter()
    executed: dict[Any, bool] = {}
    searched: dict[Any, int] = {}
    top: list[Any] = []
    for doc in map(_obj, docs):
        found = doc.get("search_results") or doc.get("citations")
        if isinstance(found, list) and found:
            top = cast(list[Any], found)
        for choice in map(_obj, _list(doc.get("choices"))):
            if choice.get("index", 0) != 0:
                continue
            delta = _obj(choice.get("delta") or choice.get("message"))
            out["source"] += len(_list(delta.get("annotations")))
            for position, entry in enumerate(map(_obj, _list(delta.get("executed_tools")))):
                index = entry.get("index", position)
                done = executed.get(index, False) or entry.get("output") is not None
                executed[index] = done
                results = _list(_obj(entry.get("search_results")).get("results"))
                if entry.get("output") is not None:
                    searched[index] = len(results)
    out["call"] += len(executed)
    out["result"] += sum(executed.values())
    out["source"] += sum(searched.values()) + len(top)
    return out


def _cohere(docs: list[Any]) -> Counter[str]:
    out: Counter[str] = Counter()
    for doc in map(_obj, docs):
        if doc.get("type") == "citation-start":
            out["source"] += 1
        elif isinstance(doc.get("message"), dict) and "finish_reason" in doc:
            out["source"] += len(_list(_obj(doc["message"]).get("citations")))
    return out


def _bedrock(docs: list[Any]) -> Counter[str]:
    out: Counter[str] = Counter()
    for doc in docs:
        for value in _walk(doc):
            if _obj(value.get("toolUse")).get("type") == "server_tool_use":
                out["call"] += 1
            if isinstance(value.get("toolResult"), dict):
                out["result"] += 1
            if isinstance(value.get("citation"), dict):
                out["source"] += 1
            out["source"] += len(_list(_obj(value.get("citationsContent")).get("citations")))
    return out


_COUNTERS = {
    "anthropic": _anthropic,
    "openai-responses": _responses,
    "gemini": _gemini,
    "openai-chat": _chat,
    "cohere-v2": _cohere,
    "bedrock-converse": _bedrock,
}


def expected(wire: str | None, body: bytes) -> Counter[str]:
    """What ``body`` holds of each family, read off its JSON by ``wire``'s documented shape."""
    counter = _COUNTERS.get(wire or "")
    return +counter(payloads(body)) if counter else Counter()


def counted(result: CallResult) -> Counter[str]:
    """What the replayed message holds of each family."""
    out: Counter[str] = Counter()
    for part in result.message.parts:
        if isinstance(part, ServerToolCallPart):
            out["call"] += 1
        elif isinstance(part, ServerToolResultPart):
            out["result"] += 1
        elif isinstance(part, SourcePart):
            out["source"] += 1
        elif isinstance(part, FilePart) and part.media_type.startswith("image/"):
            out["image"] += 1
    return out


@dataclass
class Row:
    """One recorded response that holds something of the families."""

    where: str
    provider: str
    wire: str
    held: Counter[str]
    got: Counter[str]
    #: None: no SDK judges it; else the disagreements of the provider parts (empty: it agrees).
    sdk: list[str] | None = None
    #: Why the official SDK could not accumulate the body at all (its own error), when it could not.
    sdk_refused: str | None = None
    notes: list[str] = field(default_factory=lambda: [])

    @property
    def has_parts(self) -> bool:
        return all(self.got[f] == self.held[f] for f in FAMILIES)


def _files(roots: Iterable[str | Path]) -> list[Path]:
    found: list[Path] = []
    for root in map(Path, roots):
        if root.is_file():
            found.append(root)
        elif root.is_dir():
            found += [p for p in root.rglob("*") if p.is_file() and p.name.lower().endswith(_SUFFIXES)]
    return sorted(set(found))


def _responses_of(path: Path) -> Iterator[tuple[str, str, str, Exchange]]:
    try:
        exchanges = load_exchanges(path, None)
    except ReplayInputError:
        return
    for n, exchange in enumerate(exchanges):
        if exchange.status >= 400 or (not exchange.is_model_call and exchange.uri != SYNTHETIC_URI):
            continue
        try:
            provider, wire = resolve_provider(exchange, None)
        except ReplayInputError:
            continue
        if wire is None:
            continue
        for k, one in enumerate(per_response(exchange, wire)):
            yield f"{path}#{n}" + (f".{k}" if k else ""), provider, wire, one


def census(roots: Iterable[str | Path], *, sdk: bool = True) -> list[Row]:
    """A row per recorded response under ``roots`` holding a server tool, a citation or a generated
    image: what it holds, what replay yields, and (``sdk``) whether the official SDK agrees."""
    rows: list[Row] = []
    for path in _files(roots):
        for where, provider, wire, exchange in _responses_of(path):
            held = expected(wire, exchange.body)
            if not held:
                continue
            result = replay_exchange(parser_for(provider, exchange), exchange)
            row = Row(where, provider, wire, held, counted(result), notes=list(result.notes))
            if sdk and wire in SDK_WIRES:
                try:
                    row.sdk = sdk_disagreements(provider, wire, exchange, result)
                except SdkRefused as exc:
                    row.sdk_refused = str(exc)
            rows.append(row)
    return rows


_PROVIDER_PARTS = ("server_tool_call", "server_tool_result", "source")


class SdkRefused(Exception):
    """The official SDK raised on the body: it accumulates nothing to compare."""


def sdk_disagreements(provider: str, wire: str, exchange: Exchange, result: CallResult) -> list[str] | None:
    """The provider parts of our accumulation against the official SDK's: the disagreements
    (empty: they agree), or None when no SDK accumulates this body."""
    if wire == "bedrock-converse":
        from harness.crosscheck.bedrock import botocore_accumulate, project

        if exchange.body.lstrip()[:1] == b"{":
            return None  # botocore parses a Converse body with no accumulation to compare
        theirs = [p for b in botocore_accumulate(exchange.body)["blocks"] for p in b["pieces"]]
        keys = ("server_tool_call", "server_tool_result", "source")
        mine = [p for p in project(result.message) if any(k in p for k in keys)]
        theirs = [p for p in theirs if any(k in p for k in keys)]
        return [] if mine == theirs else [f"ours {mine!r:.200} != botocore {theirs!r:.200}"]
    from harness.crosscheck.accumulate import sdk_accumulate
    from harness.crosscheck.calls import recorded_calls
    from harness.crosscheck.compare import compare

    judged = recorded_calls(provider, "census", [exchange])
    if len(judged) != 1:
        return None
    call = judged[0]
    try:
        sdk = sdk_accumulate(call.provider, call.body)
    except Exception as exc:  # the SDK refusing the body: no accumulation to compare, reported
        raise SdkRefused(f"{type(exc).__name__}: {str(exc)[:160]}") from None
    verdict = compare(call.provider, result, sdk, call.body)
    mine = [p for p in verdict.ours["parts"] if p[0] in _PROVIDER_PARTS]
    theirs = [p for p in verdict.sdk["parts"] if p[0] in _PROVIDER_PARTS]
    out: list[str] = []
    for n in range(max(len(mine), len(theirs))):
        a = mine[n] if n < len(mine) else None
        b = theirs[n] if n < len(theirs) else None
        if a != b:
            out.append(f"provider part {n}: ours {a!r:.160} != sdk {b!r:.160}")
    return out


def render(rows: list[Row]) -> str:
    """The census as a Markdown table per provider (sorted; deterministic)."""
    lines = [
        "| provider | responses holding server tools / citations | replayed with all their parts "
        "| SDK agrees (of judged) | held (call/result/source/image) |",
        "|---|---|---|---|---|",
    ]
    for provider in sorted({r.provider for r in rows}):
        mine = [r for r in rows if r.provider == provider]
        judged = [r for r in mine if r.sdk is not None]
        agree = sum(not r.sdk for r in judged)
        refused = sum(r.sdk_refused is not None for r in mine)
        held: Counter[str] = Counter()
        for r in mine:
            held.update(r.held)
        sdk = f"{agree}/{len(judged)}" if judged else "none judged"
        if refused:
            sdk += f" ({refused} the SDK cannot accumulate)"
        totals = "/".join(str(held[f]) for f in FAMILIES)
        lines.append(f"| {provider} | {len(mine)} | {sum(r.has_parts for r in mine)} | {sdk} | {totals} |")
    return "\n".join(lines) + "\n"
