"""Citations and grounding sources in each provider's own shape -> ``SourcePart``.

One reading shared by the request importers and the stream parsers, so that a citation read
off a recorded request and the same citation read off the stream that produced it are the same
part. The provider's own object is kept as ``raw`` (byte-exact; it goes back only to its
provider, attached to the text it cites).
"""

from __future__ import annotations

from typing import Any, cast

from harness.model import SourcePart, SourceType

__all__ = [
    "anthropic_citation",
    "bedrock_citation",
    "cohere_citation",
    "gemini_grounding",
    "responses_annotation",
    "search_result",
]

Json = dict[str, Any]


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _obj(value: Any) -> Json:
    return cast(Json, value) if isinstance(value, dict) else {}


#: Anthropic citation types (https://docs.claude.com/en/docs/build-with-claude/citations,
#: web search ``web_search_result_location``, search results ``search_result_location``).
_ANTHROPIC_TYPES: dict[str, SourceType] = {
    "char_location": "document",
    "page_location": "document",
    "content_block_location": "document",
    "web_search_result_location": "url",
    "search_result_location": "search_result",
}


def anthropic_citation(citation: Json, provider: str = "anthropic") -> SourcePart:
    """One entry of a text block's ``citations`` (or a ``citations_delta``'s ``citation``)."""
    kind = _ANTHROPIC_TYPES.get(str(citation.get("type")), "document")
    document = citation.get("document_index", citation.get("search_result_index"))
    return SourcePart(
        source_type=kind,
        id=_str(citation.get("file_id")) or (None if _int(document) is None else str(document)),
        url=_str(citation.get("url")) or _str(citation.get("source")),
        title=_str(citation.get("title")) or _str(citation.get("document_title")),
        cited_text=_str(citation.get("cited_text")),
        start_index=_int(citation.get("start_char_index")),
        end_index=_int(citation.get("end_char_index")),
        provider=provider,
        raw=dict(citation),
    )


def responses_annotation(annotation: Json, provider: str = "openai-responses") -> SourcePart:
    """One ``annotations`` entry of a Responses ``output_text`` (``url_citation``, ``file_citation``,
    ``container_file_citation``, ``file_path``); the same shape rides on Chat ``annotations``."""
    kind = str(annotation.get("type"))
    nested = _obj(annotation.get(kind))  # Chat nests the citation under its type key
    fields = nested or annotation
    is_url = kind == "url_citation"
    return SourcePart(
        source_type="url" if is_url else "document",
        id=_str(fields.get("file_id")),
        url=_str(fields.get("url")),
        title=_str(fields.get("title")) or _str(fields.get("filename")),
        start_index=_int(fields.get("start_index")),
        end_index=_int(fields.get("end_index")),
        provider=provider,
        raw=dict(annotation),
    )


def gemini_grounding(metadata: Json, provider: str = "gemini") -> list[SourcePart]:
    """A candidate's ``groundingMetadata`` (or ``urlContextMetadata``): one source per grounding
    chunk (``web``, ``retrievedContext``, ``maps``) or per retrieved URL, the span of the first
    grounding support that cites it (``segment`` byte offsets into the answer's text)."""
    spans: dict[int, tuple[int | None, int | None, str | None]] = {}
    for support in map(_obj, cast(list[Any], metadata.get("groundingSupports") or [])):
        segment = _obj(support.get("segment"))
        for chunk in cast(list[Any], support.get("groundingChunkIndices") or []):
            if isinstance(chunk, int) and chunk not in spans:
                spans[chunk] = (
                    _int(segment.get("startIndex")),
                    _int(segment.get("endIndex")),
                    _str(segment.get("text")),
                )
    out: list[SourcePart] = []
    for i, chunk in enumerate(map(_obj, cast(list[Any], metadata.get("groundingChunks") or []))):
        kind = next((k for k in ("web", "retrievedContext", "maps") if k in chunk), None)
        body = _obj(chunk.get(kind)) if kind else {}
        start, end, text = spans.get(i, (None, None, None))
        out.append(
            SourcePart(
                source_type="url" if kind in ("web", "maps") else "document",
                url=_str(body.get("uri")),
                title=_str(body.get("title")),
                cited_text=text,
                start_index=start,
                end_index=end,
                provider=provider,
                raw=dict(chunk),
            )
        )
    for entry in map(_obj, cast(list[Any], metadata.get("urlMetadata") or [])):
        out.append(
            SourcePart(
                source_type="url",
                url=_str(entry.get("retrievedUrl")),
                provider=provider,
                raw=dict(entry),
            )
        )
    return out


#: Bedrock ``CitationLocation`` members (botocore bedrock-runtime service model) -> the kind of source.
_BEDROCK_LOCATIONS: dict[str, SourceType] = {
    "web": "url",
    "documentChar": "document",
    "documentPage": "document",
    "documentChunk": "document",
    "searchResultLocation": "search_result",
}


def bedrock_citation(citation: Json, provider: str = "bedrock") -> SourcePart:
    """One Converse ``Citation`` (a ``citationsContent`` block's entry, or a streamed
    ``contentBlockDelta.delta.citation``): ``title``, ``source``, ``sourceContent`` (the cited
    text pieces) and ``location`` (one member: ``web`` with its url, a document's char / page /
    chunk span, or a search result's)."""
    location = _obj(citation.get("location"))
    member = next((k for k in _BEDROCK_LOCATIONS if k in location), None)
    where = _obj(location.get(member)) if member else {}
    index = where.get("documentIndex", where.get("searchResultIndex"))
    pieces = [_str(_obj(p).get("text")) for p in cast(list[Any], citation.get("sourceContent") or [])]
    cited = "".join(p for p in pieces if p) or None
    return SourcePart(
        source_type=_BEDROCK_LOCATIONS[member] if member else "document",
        id=None if _int(index) is None else str(index),
        url=_str(where.get("url")) or _str(citation.get("source")),
        title=_str(citation.get("title")),
        cited_text=cited,
        start_index=_int(where.get("start")),
        end_index=_int(where.get("end")),
        provider=provider,
        raw=dict(citation),
    )


def cohere_citation(citation: Json, provider: str = "cohere") -> SourcePart:
    """One Cohere v2 ``Citation`` (``message.citations`` entry, or a ``citation-start`` event's
    ``delta.message.citations``): the cited span (``start``/``end``/``text``) and its ``sources``
    (``document`` with the document's fields, or ``tool`` with the tool output it cites). One
    source part per citation, named by its first source; ``raw`` keeps every source."""
    sources = [_obj(s) for s in cast(list[Any], citation.get("sources") or [])]
    first = sources[0] if sources else {}
    document = _obj(first.get("document"))
    return SourcePart(
        source_type="document",
        id=_str(first.get("id")),
        url=_str(document.get("url")),
        title=_str(document.get("title")),
        cited_text=_str(citation.get("text")),
        start_index=_int(citation.get("start")),
        end_index=_int(citation.get("end")),
        provider=provider,
        raw=dict(citation),
    )


def search_result(result: Any, provider: str) -> SourcePart:
    """A Chat dialect's top-level search result (Perplexity ``search_results``: title, url, date) or
    a bare ``citations`` URL string (kept as ``{"url": ...}``: the string is all there is)."""
    entry: Json = {"url": result} if isinstance(result, str) else _obj(result)
    return SourcePart(
        source_type="search_result" if not isinstance(result, str) else "url",
        url=_str(entry.get("url")),
        title=_str(entry.get("title")),
        provider=provider,
        raw=dict(entry),
    )
