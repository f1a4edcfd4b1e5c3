"""Strategies for any valid content part, id, timestamp and usage of the canonical model."""

from __future__ import annotations

import base64
import functools
import json
from datetime import UTC, datetime

from hypothesis import strategies as st

from harness.contract.server_items import anthropic_result, call_part, responses_item
from harness.contract.sources import anthropic_citation, responses_annotation
from harness.model import (
    AnyPart,
    FilePart,
    ImageFilePart,
    ImageURLPart,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    Usage,
)

#: The native signature formats a thinking signature part may name (``ThinkingSignaturePart.format``).
SIGNATURE_FORMATS = (
    "anthropic",
    "anthropic-redacted",
    "openai-responses",
    "google",
    "anthropic-claude-v1",
    "openai-responses-v1",
    "google-gemini-v1",
)

#: Any text, including non-ASCII, empty and whitespace; shrinks towards "".
text = st.text(max_size=40)
#: Ids as clients mint them (tool call, item and message ids).
ids = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-.:", min_size=1, max_size=24)
#: An id or None.
optional_ids = st.none() | ids
#: A model name or None.
model_ids = st.none() | st.sampled_from(["claude-sonnet-4-5", "gpt-5", "gemini-3-pro-preview", "o3"])
#: A timezone-aware timestamp between 2020 and 2030, or None.
timestamps = st.none() | st.datetimes(
    min_value=datetime(2020, 1, 1), max_value=datetime(2030, 1, 1), timezones=st.just(UTC)
)
#: A JSON scalar: null, a boolean, a small integer or a short string.
json_scalars = st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=10)


@functools.cache
def json_args() -> st.SearchStrategy[str]:
    """One strategy object for every caller: a composite drawing a fresh one per call had
    hypothesis validate it again each time (strategies are immutable, so sharing is safe)."""

    objects = st.dictionaries(st.text(max_size=8), json_scalars, max_size=3)
    return objects.map(lambda d: json.dumps(d, sort_keys=True)) | st.sampled_from(
        ["", "{}", "{not json", "[1]"]
    )


#: Text parts of any text.
text_parts = st.builds(TextPart, text=text)
#: Real, decodable 1x1 images (each opened and decoded by Pillow when written), so a target
#: or provider that inspects image bytes sees an image, never a bare header.
TINY_IMAGES: dict[str, str] = {
    "image/png": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "image/gif": "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7",
    "image/webp": "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==",
    "image/jpeg": (
        "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRT"
        "c4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2Nj"
        "Y2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAABAAEDASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAw"
        "QFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkK"
        "FhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmq"
        "KjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEB"
        "AQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRob"
        "HBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOE"
        "hYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+P"
        "n6/9oADAMBAAIRAxEAPwDFoooryz7w/9k="
    ),
}
DATA_URLS = tuple(f"data:{mime};base64,{data}" for mime, data in sorted(TINY_IMAGES.items()))

#: Image parts by URL: an https URL or a ``data:`` URL of a real, decodable image.
image_url_parts = st.builds(
    ImageURLPart,
    url=st.sampled_from(
        [
            "https://example.com/cat.png",
            *DATA_URLS,
        ]
    ),
    id=optional_ids,
)
#: Image parts by file path, with or without mime type, size and digest.
image_file_parts = st.builds(
    ImageFilePart,
    file_path=st.sampled_from(["/tmp/out.png", "images/plot.webp"]),
    mime_type=st.none() | st.sampled_from(["image/png", "image/webp"]),
    byte_size=st.none() | st.integers(0, 10_000),
    sha256=st.none() | st.just("0" * 64),
)
#: Image parts, by URL (http or ``data:``) or by file.
image_parts = image_url_parts | image_file_parts
#: Small real file bodies, base64: a one-page PDF header, UTF-8 text, an MP3 frame header, an MP4 box.
TINY_FILES: dict[str, str] = {
    "application/pdf": "JVBERi0xLjQKJcOkw7zDtsOfCg==",
    "text/plain": "SGVsbG8sIGZpbGUu",
    "text/csv": "YSxiCjEsMgo=",
    "audio/mpeg": "//uQxAAAAAAAAAAAAAAAAAAAAAAA",
    "audio/wav": "UklGRiQAAABXQVZFZm10IBAAAAABAAEA",
    "video/mp4": "AAAAGGZ0eXBtcDQyAAAAAG1wNDJpc29t",
}
_file_media = st.sampled_from(sorted(TINY_FILES))
_inline_files = _file_media.flatmap(
    lambda media: st.builds(
        FilePart,
        media_type=st.just(media),
        data=st.just(TINY_FILES[media]),
        filename=st.none() | st.just("report.pdf" if media == "application/pdf" else "file.bin"),
        title=st.none() | st.just("Quarterly report"),
    )
)
_referenced_files = st.one_of(
    st.builds(
        FilePart,
        media_type=_file_media,
        url=st.sampled_from(["https://example.com/report.pdf", "https://youtu.be/lCdaVNyHtjU"]),
    ),
    st.builds(
        FilePart,
        media_type=_file_media | st.just("image/png"),
        file_id=st.sampled_from(["file-abc123", "file_011Ccn6h", "files/k8plo4aq1e1w"]),
        provider=st.none() | st.sampled_from(["openai", "anthropic", "gemini"]),
    ),
    st.builds(
        FilePart,
        media_type=_file_media | st.just("image/jpeg"),
        uri=st.sampled_from(["gs://bucket/report.pdf", "s3://bucket/clip.mp4"]),
    ),
)
_CHUNKS = ["The grass is green", "The sky is blue", "", "Ünïcode ✓ \U0001d538"]
#: Documents with their options: a custom-content document (text blocks, ``text_chunks``) or a
#: PDF, with or without ``context`` and ``citations``.
_document_options = st.one_of(
    st.lists(st.sampled_from(_CHUNKS), min_size=1, max_size=3)
    .filter(lambda chunks: any(c.strip() for c in chunks))  # an empty document is not a document
    .flatmap(
        lambda chunks: st.builds(
            FilePart,
            media_type=st.just("text/plain"),
            data=st.just(base64.b64encode("".join(chunks).encode("utf-8")).decode("ascii")),
            text_chunks=st.just([len(c) for c in chunks]),
            title=st.none() | st.just("Notes"),
            context=st.none() | st.just("Field notes"),
            citations=st.none() | st.booleans(),
        )
    ),
    st.builds(
        FilePart,
        media_type=st.just("application/pdf"),
        data=st.just(TINY_FILES["application/pdf"]),
        context=st.none() | st.just("Quarterly figures"),
        citations=st.booleans(),
    ),
)
#: A file for the code-execution container (Anthropic ``container_upload``), by file id.
_container_uploads = st.builds(
    FilePart,
    media_type=st.just("application/octet-stream"),
    file_id=st.sampled_from(["file_011CcQH3nbP5brKi4DsVcj7j", "file-abc123"]),
    provider=st.none() | st.sampled_from(["anthropic", "openai"]),
    purpose=st.just("container"),
)
#: File parts of every kind (PDF, text, audio, video, an image by reference) and every source
#: (inline bytes, URL, file id with or without its provider, cloud URI), named or not; documents
#: with context, citations or their own text blocks; container uploads.
file_parts = st.one_of(
    _inline_files,
    _referenced_files,
    # the rarer forms, drawn as one branch so that the common ones keep their share
    st.one_of(_document_options, _container_uploads).map(lambda part: part),
)
#: The parts a user or developer message may hold: text, images and files.
content_parts = text_parts | image_parts | file_parts
#: What a tool result's ``parts`` may hold: images and files.
tool_parts = image_parts | file_parts
#: Thinking text parts, with or without id and model.
thinking_text_parts = st.builds(ThinkingTextPart, id=optional_ids, text=text, model_id=model_ids)
#: Thinking signature parts, with or without id, model and format.
thinking_signature_parts = st.builds(
    ThinkingSignaturePart,
    id=optional_ids,
    signature=st.text(alphabet="ABCDEFabcdef0123456789+/=", max_size=32),
    model_id=model_ids,
    format=st.none() | st.sampled_from(SIGNATURE_FORMATS),
)
#: Tool call parts, their arguments valid JSON objects or not (as models send them).
tool_call_parts = st.builds(
    ToolCallPart,
    call_id=ids,
    tool_name=st.sampled_from(["read", "bash", "search"]),
    arguments_json=json_args(),
    item_id=optional_ids,
)
#: Token counts, each optional count present or not.
usages = st.builds(
    Usage,
    input_tokens=st.integers(0, 10**6),
    output_tokens=st.integers(0, 10**6),
    cached_input_tokens=st.none() | st.integers(0, 10**6),
    cache_creation_input_tokens=st.none() | st.integers(0, 10**6),
    reasoning_tokens=st.none() | st.integers(0, 10**6),
    total_tokens=st.none() | st.integers(0, 10**6),
)
_SERVER_IDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789", min_size=4, max_size=12)
_QUERIES = st.fixed_dictionaries({"query": st.text(alphabet="abcdefghij klmnop", min_size=1, max_size=20)})


@st.composite
def _anthropic_server_turn(draw: st.DrawFn) -> list[AnyPart]:
    """Anthropic's web search as its blocks (a call, its result, a cited text), read the way the
    importer and the parser read them (``harness.contract``), so a round trip can hold."""
    call_id = "srvtoolu_" + draw(_SERVER_IDS)
    query = draw(_QUERIES)
    call = {"type": "server_tool_use", "id": call_id, "name": "web_search", "input": query}
    url = "https://example.org/" + draw(_SERVER_IDS)
    page = {
        "type": "web_search_result",
        "url": url,
        "title": draw(ids),
        "encrypted_content": draw(_SERVER_IDS),
    }
    result = {"type": "web_search_tool_result", "tool_use_id": call_id, "content": [page]}
    cited = {
        "type": "web_search_result_location",
        "url": url,
        "title": page["title"],
        "cited_text": draw(text),
        "encrypted_index": draw(_SERVER_IDS),
    }
    parts: list[AnyPart] = [
        call_part(call_id, "web_search", "anthropic", query, call),
        anthropic_result(result, "web_search"),
        TextPart(text=draw(st.text(min_size=1, max_size=40))),
        anthropic_citation(cited),
    ]
    return parts[: draw(st.integers(1, len(parts)))]


@st.composite
def _responses_server_turn(draw: st.DrawFn) -> list[AnyPart]:
    """A Responses ``web_search_call`` item and a text with a ``url_citation``."""
    item = {
        "type": "web_search_call",
        "id": "ws_" + draw(_SERVER_IDS),
        "status": "completed",
        "action": {"type": "search", **draw(_QUERIES)},
    }
    said = draw(st.text(min_size=1, max_size=40))
    cite = {
        "type": "url_citation",
        "url": "https://example.org/" + draw(_SERVER_IDS),
        "title": draw(ids),
        "start_index": 0,
        "end_index": len(said),
    }
    parts: list[AnyPart] = [*responses_item(item, {}), TextPart(text=said), responses_annotation(cite)]
    return parts


#: A provider's own server tool blocks and citations (Anthropic's or OpenAI Responses'), as a run of parts.
server_tool_runs = _anthropic_server_turn() | _responses_server_turn()
#: One part of such a run: a server tool call, a result, or a source.
provider_parts = server_tool_runs.flatmap(
    lambda run: st.sampled_from([p for p in run if not isinstance(p, TextPart)] or run)
)
#: Any part an assistant message may hold but the provider-executed ones (drawn by
#: ``server_tool_runs`` / ``provider_parts``: kept apart so that the fixed generated set adopters'
#: known failures are keyed on stays the same).
assistant_parts = content_parts | thinking_text_parts | thinking_signature_parts | tool_call_parts
