"""File parts as the wires carry them -> canonical ``FilePart``: data URLs, media types told from
a URL or a file name, and the Chat-shaped file parts (``file``, ``input_audio``, ``document_url``,
``video_url``) several wires share."""

from __future__ import annotations

import base64
import posixpath
import re
from typing import Any, Protocol, TypedDict, cast
from urllib.parse import urlsplit

from harness.model import FilePart

Json = dict[str, Any]


class Ledger(Protocol):
    """What a reader here needs of ``harness.importer.common.Ledger`` (which reads user content
    through this module, so this one does not import it)."""

    def rest(self, value: Json, path: str, known: set[str], defaults: Json | None = None) -> None: ...

    def note(self, path: str, reason: str) -> None: ...


def _obj(value: Any) -> Json:
    return cast(Json, value) if isinstance(value, dict) else {}


__all__ = [
    "DocumentOptions",
    "chat_file",
    "chunked_document",
    "document_options",
    "file_from_url",
    "media_type_of",
    "split_data_url",
]

#: Media types a file name's extension names (a fixed table: never the host's mime database).
_BY_EXTENSION = {
    ".pdf": "application/pdf",
    ".txt": "text/plain",
    ".md": "text/markdown",
    ".csv": "text/csv",
    ".html": "text/html",
    ".htm": "text/html",
    ".json": "application/json",
    ".doc": "application/msword",
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ".xls": "application/vnd.ms-excel",
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ".mp3": "audio/mpeg",
    ".wav": "audio/wav",
    ".ogg": "audio/ogg",
    ".flac": "audio/flac",
    ".m4a": "audio/mp4",
    ".aac": "audio/aac",
    ".mp4": "video/mp4",
    ".webm": "video/webm",
    ".mov": "video/quicktime",
    ".mkv": "video/x-matroska",
    ".mpeg": "video/mpeg",
    ".mpg": "video/mpeg",
    ".flv": "video/x-flv",
    ".wmv": "video/x-ms-wmv",
    ".3gp": "video/3gpp",
}

#: Chat ``input_audio.format`` -> media type (InputAudio.format: wav | mp3).
_AUDIO_FORMAT = {"wav": "audio/wav", "mp3": "audio/mpeg"}


def media_type_of(name: str | None, default: str) -> str:
    """The media type a URL's or file name's extension names, else ``default`` (the wire's kind)."""
    if not name:
        return default
    path = urlsplit(name).path if "://" in name else name
    return _BY_EXTENSION.get(posixpath.splitext(path)[1].lower(), default)


def split_data_url(url: str) -> tuple[str, str] | None:
    """``data:<type>;base64,<data>`` -> (type, data); None for any other URL."""
    m = re.match(r"data:([^;,]+)(?:;[^;,]+)*;base64,(.*)\Z", url, re.DOTALL)
    return (m.group(1), m.group(2)) if m else None


def file_from_url(url: str, default_type: str, filename: str | None = None) -> FilePart:
    """A data URL becomes inline bytes, any other URL a URL source (type from its extension)."""
    data = split_data_url(url)
    if data is not None:
        return FilePart(media_type=data[0], data=data[1], filename=filename)
    return FilePart(media_type=media_type_of(filename or url, default_type), url=url, filename=filename)


def chat_file(part: Json, at: str, ledger: Ledger) -> FilePart | None:
    """A Chat-shaped file part (OpenAI ``file`` / ``input_audio``, Mistral ``document_url``,
    OpenRouter ``video_url``), or None when ``part`` is none of them (or, noted, cannot be read)."""
    kind = part.get("type")
    if kind == "file":
        ledger.rest(part, at, {"type", "file"})
        file = _obj(part.get("file"))
        ledger.rest(file, f"{at}.file", {"file_data", "file_id", "filename"})
        name = file.get("filename") if isinstance(file.get("filename"), str) else None
        if isinstance(file.get("file_id"), str):
            return FilePart(
                media_type=media_type_of(name, "application/pdf"), file_id=file["file_id"], filename=name
            )
        return file_from_url(str(file.get("file_data", "")), "application/pdf", name)
    if kind == "input_audio":
        ledger.rest(part, at, {"type", "input_audio"})
        audio = _obj(part.get("input_audio"))
        ledger.rest(audio, f"{at}.input_audio", {"data", "format"})
        fmt = str(audio.get("format") or "")
        if not fmt:
            ledger.note(at, 'user content part "input_audio" not representable (no audio format)')
            return None
        return FilePart(media_type=_AUDIO_FORMAT.get(fmt, f"audio/{fmt}"), data=str(audio.get("data", "")))
    if kind == "document_url":
        ledger.rest(part, at, {"type", "document_url", "document_name"})
        name = part.get("document_name") if isinstance(part.get("document_name"), str) else None
        return file_from_url(str(part.get("document_url", "")), "application/pdf", name)
    if kind == "video_url":
        ledger.rest(part, at, {"type", "video_url"})
        video = _obj(part.get("video_url"))
        ledger.rest(video, f"{at}.video_url", {"url"})
        return file_from_url(str(video.get("url", "")), "video/mp4")
    return None


class DocumentOptions(TypedDict, total=False):
    """A document's fields beyond its source (what ``FilePart`` takes as keywords)."""

    title: str | None
    context: str | None
    citations: bool | None


def document_options(block: Json, path: str, ledger: Ledger, title: str | None) -> DocumentOptions:
    """A document block's ``title`` (as given), ``context`` and ``citations: {enabled}`` (Anthropic
    document blocks, Bedrock DocumentBlock) as ``FilePart`` fields."""
    out = DocumentOptions(title=title)
    if isinstance(block.get("context"), str):
        out["context"] = block["context"]
    citations = block.get("citations")
    if isinstance(citations, dict):
        config = _obj(citations)
        ledger.rest(config, f"{path}.citations", {"enabled"})
        if isinstance(config.get("enabled"), bool):
            out["citations"] = config["enabled"]
    return out


def chunked_document(texts: list[str], options: DocumentOptions) -> FilePart:
    """A document given as its own text blocks: ``text/plain`` whose ``data`` is their UTF-8
    concatenation and whose ``text_chunks`` are their lengths."""
    data = base64.b64encode("".join(texts).encode("utf-8")).decode("ascii")
    return FilePart(media_type="text/plain", data=data, text_chunks=[len(t) for t in texts], **options)
