"""What a provider takes as files (the data half of ``harness.mapping.files``; the wire keeps one)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["NO_FILES", "FileKind", "FileSource", "FileSupport", "file_kind"]

#: What a file is, as providers tell files apart: by media type.
FileKind = Literal["pdf", "text", "audio", "video", "image", "other"]
#: Which source field a file part carries.
FileSource = Literal["data", "url", "file_id", "uri"]


def file_kind(media_type: str) -> FileKind:
    """``application/pdf`` -> pdf, ``text/*`` -> text, ``audio/*``, ``video/*``, ``image/*``; else other."""
    lowered = media_type.lower()
    if lowered == "application/pdf":
        return "pdf"
    if lowered.startswith("text/"):
        return "text"
    if lowered.startswith("audio/"):
        return "audio"
    if lowered.startswith("video/"):
        return "video"
    if lowered.startswith("image/"):
        return "image"  # an image by file id or cloud URI (inline and URL images are image_url parts)
    return "other"


@dataclass(frozen=True)
class FileSupport:
    """What one provider (or model family) takes as files.

    ``user`` / ``tool``: for each kind a user message / a tool result takes, the sources it
    takes it by (a kind not listed is not taken). A kind a tool result cannot hold but a user
    message can is moved after the results (``tool-file-moved``). ``provider``: whose file ids
    are native (a file id issued elsewhere is dropped, ``file-id-foreign``). ``evidence``: where
    the facts come from.
    """

    provider: str
    user: Mapping[FileKind, frozenset[FileSource]] = field(default_factory=lambda: {})
    tool: Mapping[FileKind, frozenset[FileSource]] = field(default_factory=lambda: {})
    evidence: str = ""
    #: Cloud URI schemes the provider reads (``gs://`` on Gemini/Vertex, ``s3://`` on Bedrock).
    uri_schemes: tuple[str, ...] = ()
    #: The provider's words for what it is, in warnings.
    title: str = ""
    #: The wire's native form for a kind where a wire has several (Chat dialects: ``file``,
    #: ``input_audio``, ``document_url``, ``video_url``).
    forms: Mapping[FileKind, str] = field(default_factory=lambda: {})
    #: Where a kind is taken only in some media types, those (lower-case; a kind absent: any).
    media_types: Mapping[FileKind, frozenset[str]] = field(default_factory=lambda: {})
    #: Whether a file part's ``video_metadata`` (frame rate, clip offsets) has a native field
    #: (Gemini's ``Part.videoMetadata``); elsewhere it is dropped with ``file-video-metadata-dropped``.
    video_metadata: bool = False
    #: Whether a document's ``context``, ``citations`` and ``text_chunks`` have native fields
    #: (Anthropic document blocks, Bedrock DocumentBlock); elsewhere ``file-document-options-dropped``.
    document_options: bool = False
    #: Whether a file for the code-execution container (``purpose: container``) has a block
    #: (Anthropic ``container_upload``, by a file id of its own); elsewhere ``file-container-unsupported``.
    container_upload: bool = False

    def takes_type(self, media_type: str) -> bool:
        """Whether the media type is among those its kind is taken in."""
        allowed = self.media_types.get(file_kind(media_type))
        return allowed is None or media_type.lower() in allowed


#: Takes no file (the default of a wire conversation nobody stated support for).
NO_FILES = FileSupport(provider="", title="this provider", evidence="no file input is documented")
