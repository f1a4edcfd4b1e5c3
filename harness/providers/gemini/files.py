"""Gemini file parts: documents, audio, video and file references as ``inlineData`` / ``fileData``.

https://ai.google.dev/api/caching#Part (``inlineData``: Blob {mimeType, data}; ``fileData``:
FileData {mimeType, fileUri}); https://ai.google.dev/gemini-api/docs/document-processing,
/audio, /video (YouTube URLs in ``fileData.fileUri``), /files (Files API: ``files/<id>``,
sent as its URI). What the models take is ``profile.FILES``.
"""

from __future__ import annotations

from typing import Any

from harness.mapping.file_support import FileSupport
from harness.mapping.files import admit, fits
from harness.mapping.wire import Warnings
from harness.model import FilePart, TextPart

__all__ = ["FILES_API", "file_blob", "user_file_part"]

Json = dict[str, Any]

#: A Files API name (``files/<id>``) is sent as its URI under this base (the files.get resource).
FILES_API = "https://generativelanguage.googleapis.com/v1beta/"


def file_blob(part: FilePart) -> Json:
    """The part as Gemini carries it: bytes as ``inlineData``, anything else as ``fileData``;
    ``video_metadata`` as the part's ``videoMetadata`` beside it."""
    extra: Json = {} if part.video_metadata is None else {"videoMetadata": dict(part.video_metadata)}
    if part.data is not None:
        return {"inlineData": {"mimeType": part.media_type, "data": part.data}, **extra}
    if part.file_id is not None:
        uri = part.file_id if "://" in part.file_id else FILES_API + part.file_id
    else:
        uri = part.url or part.uri or ""
    return {"fileData": {"fileUri": uri, "mimeType": part.media_type}, **extra}


def user_file_part(
    support: FileSupport, part: FilePart, index: int, part_index: int | None, warnings: Warnings
) -> Json | None:
    """A file in a user (or model) content, or None when dropped (warned by ``admit``)."""
    admitted = admit(support, part, index, part_index, warnings)
    if admitted is None:
        return None
    if isinstance(admitted, TextPart):
        return {"text": admitted.text}
    return file_blob(admitted)


def inside_response(support: FileSupport, part: FilePart) -> bool:
    """Whether the file goes inside ``functionResponse.parts`` (multimodal function responses)."""
    return fits(support, part, in_tool=True)
