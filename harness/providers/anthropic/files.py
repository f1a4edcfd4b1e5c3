"""Anthropic file parts: ``document`` blocks (PDF by base64, URL or file id; plain text; custom
content, with ``title``, ``context`` and ``citations``), images by file id, in user turns and inside
``tool_result`` content, and ``container_upload`` blocks (a file id put in the code-execution container).

Implements https://docs.claude.com/en/api/messages (DocumentBlockParam: Base64PDFSource,
URLPDFSource, PlainTextSource, FileDocumentSource; ImageBlockParam with a file source) and
https://docs.claude.com/en/docs/build-with-claude/pdf-support. What the API takes is
``profile.FILES``.
"""

from __future__ import annotations

from typing import Any

from harness.mapping.file_support import file_kind
from harness.mapping.files import admit, decoded_text
from harness.mapping.wire import Warnings
from harness.model import FilePart, TextPart
from harness.providers.anthropic.profile import FILES

__all__ = ["file_block"]

Json = dict[str, Any]


def _source(part: FilePart) -> Json:
    if part.text_chunks is not None:  # a custom-content document: its text blocks (ContentBlockSource);
        # an empty block holds no character and the API takes none ("shorter than 1 character")
        return {"type": "content", "content": [{"type": "text", "text": t} for t in part.chunk_texts() if t]}
    if part.file_id is not None:
        return {"type": "file", "file_id": part.file_id}
    if part.url is not None:
        return {"type": "url", "url": part.url}
    text = decoded_text(part)
    if text is not None:
        return {"type": "text", "media_type": "text/plain", "data": text}
    return {"type": "base64", "media_type": part.media_type, "data": part.data}


def file_block(part: FilePart, message_index: int, part_index: int | None, warnings: Warnings) -> Json | None:
    """The block for a file (a ``document``, or an ``image`` by file id), a text block for a text
    document it takes no file for, or None (warned by ``admit``)."""
    admitted = admit(FILES, part, message_index, part_index, warnings)
    if admitted is None:
        return None
    if isinstance(admitted, TextPart):
        return {"type": "text", "text": admitted.text}
    if admitted.purpose == "container":  # BetaContainerUploadBlockParam: into the container's input dir
        return {"type": "container_upload", "file_id": admitted.file_id}
    if file_kind(admitted.media_type) == "image":
        return {"type": "image", "source": _source(admitted)}
    block: Json = {"type": "document", "source": _source(admitted)}
    if admitted.title is not None:
        block["title"] = admitted.title
    if admitted.context is not None:
        block["context"] = admitted.context
    if admitted.citations is not None:
        block["citations"] = {"enabled": admitted.citations}
    return block
