"""Bedrock Converse file parts: ``document`` and ``video`` blocks (bytes or ``s3Location``) and images
by ``s3Location``, in user turns and inside ``toolResult.content``.

bedrock-runtime service model: DocumentBlock {format: pdf|csv|doc|docx|xls|xlsx|html|txt|md,
name, source: {bytes | s3Location {uri} | content [{text}]}, context, citations {enabled}}, VideoBlock {format: mkv|mov|mp4|webm|flv|mpeg|mpg|wmv|
three_gp, source}, ImageBlock source ``s3Location``; ToolResultContentBlock holds json, text,
image, document and video. https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_DocumentBlock.html
What the models take is ``profile.files_for``.
"""

from __future__ import annotations

import re
from typing import Any

from harness.mapping.file_support import FileSupport, file_kind
from harness.mapping.files import admit
from harness.mapping.wire import Warnings
from harness.model import FilePart, TextPart
from harness.providers.bedrock.profile import DOCUMENT_FORMATS, IMAGE_FORMATS, VIDEO_FORMATS

__all__ = ["document_name", "file_block"]

Json = dict[str, Any]


def document_name(part: FilePart, message_index: int, part_index: int | None) -> str:
    """DocumentBlock.name (required): the part's title, else its filename without extension, in the
    characters the API allows ("alphanumeric characters, whitespace characters (no more than one in a
    row), hyphens, parentheses, and square brackets"), else a name made from where the part stands."""
    raw = part.title or (part.filename.rsplit(".", 1)[0] if part.filename else "")
    name = re.sub(r"\s+", " ", re.sub(r"[^A-Za-z0-9\s\-()\[\]]", " ", raw)).strip()
    return name or f"Document {message_index}-{part_index if part_index is not None else 0}"


def _source(part: FilePart) -> Json:
    if part.text_chunks is not None:  # a document given as its text blocks (DocumentSource.content)
        return {"content": [{"text": t} for t in part.chunk_texts() if t]}  # empty blocks hold nothing
    if part.uri is not None:
        return {"s3Location": {"uri": part.uri}}
    return {"bytes": part.data}


def file_block(
    support: FileSupport, part: FilePart, message_index: int, part_index: int | None, warnings: Warnings
) -> Json | None:
    """The block for a file the model takes, a text block for a text document it takes no file for,
    or None (warned by ``admit``)."""
    admitted = admit(support, part, message_index, part_index, warnings)
    if admitted is None:
        return None
    if isinstance(admitted, TextPart):
        return {"text": admitted.text}
    media = admitted.media_type.lower()
    kind = file_kind(media)
    if kind == "image":
        return {
            "image": {"format": IMAGE_FORMATS.get(media, media.split("/")[-1]), "source": _source(admitted)}
        }
    if kind == "video":
        return {"video": {"format": VIDEO_FORMATS[media], "source": _source(admitted)}}
    document = {
        "format": DOCUMENT_FORMATS[media],
        "name": document_name(admitted, message_index, part_index),
        "source": _source(admitted),
    }
    if admitted.context is not None:
        document["context"] = admitted.context
    if admitted.citations is not None:
        document["citations"] = {"enabled": admitted.citations}
    return {"document": document}
