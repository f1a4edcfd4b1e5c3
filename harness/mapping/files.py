"""File parts (documents, audio, video, file references) on a provider: what it takes, stated once.

Each provider's ``profile.py`` states a ``FileSupport``: which file kinds a user message and a
tool result take, by which source (inline bytes, URL, file id, cloud URI), with the evidence.
``fits`` and ``admit`` apply it to one part before the adapter maps it: the part is sent
natively, or as its decoded text (a text document where no file is taken), or not at all, each
change with the warning that names it. Nothing is dropped silently.
"""

from __future__ import annotations

import base64
import binascii

from harness.contract.warning_codes import Code
from harness.mapping.file_support import FileKind, FileSource, FileSupport, file_kind
from harness.mapping.wire import (
    ContentItem,
    Warnings,
    WireItem,
    WireToolResult,
    map_content,
)
from harness.model import FilePart, TextPart

__all__ = [
    "FileKind",
    "FileSource",
    "FileSupport",
    "admit",
    "decoded_text",
    "default_filename",
    "drop_document_options",
    "drop_video_metadata",
    "file_kind",
    "fits",
    "warn_json_as_text",
    "warn_moved",
    "warn_order_lost",
]


def decoded_text(part: FilePart) -> str | None:
    """A text document's bytes as UTF-8 text, or None when it has no inline bytes or is not UTF-8."""
    if part.data is None or file_kind(part.media_type) != "text":
        return None
    try:
        return base64.b64decode(part.data, validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return None


def fits(support: FileSupport, part: FilePart, *, in_tool: bool) -> bool:
    """Whether the part goes as it is where it stands (inside a tool result, or in a user message)."""
    if part.source == "file_id" and part.provider is not None and part.provider != support.provider:
        return False
    if part.purpose == "container":  # a container upload: a user block by the provider's own file id
        return support.container_upload and not in_tool and part.source == "file_id"
    table = support.tool if in_tool else support.user
    return (
        part.source in table.get(file_kind(part.media_type), frozenset())
        and _scheme_ok(support, part)
        and support.takes_type(part.media_type)
    )


def admit(
    support: FileSupport, part: FilePart, message_index: int, part_index: int | None, warnings: Warnings
) -> FilePart | TextPart | None:
    """The part as a user message can carry it: the part itself (native), a ``TextPart`` with a
    text document's decoded text (``file-text-inlined``), or None, warned: a foreign file id
    (``file-id-foreign``), a kind not taken (``file-kind-unsupported``) or a source not taken
    for it (``file-source-unsupported``)."""
    if fits(support, part, in_tool=False):
        return part
    kind = file_kind(part.media_type)
    title = support.title or support.provider
    if part.purpose == "container":
        where = "by a file id of its own" if support.container_upload else "for the code-execution container"
        warnings.add(
            message_index,
            part_index,
            "file",
            Code.FILE_CONTAINER_UNSUPPORTED,
            f"{title} takes no file upload {where} ('{part.file_id or part.url or part.uri or part.media_type}'); dropped",
        )
        return None
    if part.source == "file_id" and part.provider is not None and part.provider != support.provider:
        warnings.add(
            message_index,
            part_index,
            "file",
            Code.FILE_ID_FOREIGN,
            f"file id '{part.file_id}' was issued by {part.provider}, not {title}; dropped",
        )
        return None
    text = decoded_text(part)
    if text is not None:
        warnings.add(
            message_index,
            part_index,
            "file",
            Code.FILE_TEXT_INLINED,
            f"{title} takes no '{part.media_type}' file here; sent as its decoded text",
        )
        return TextPart(text=text)
    sources = support.user.get(kind)
    if sources and not support.takes_type(part.media_type):
        allowed = ", ".join(sorted(support.media_types.get(kind, frozenset())))
        warnings.add(
            message_index,
            part_index,
            "file",
            Code.FILE_KIND_UNSUPPORTED,
            f"{title} takes {kind} only as {allowed}, not '{part.media_type}'; dropped",
        )
        return None
    if not sources:
        warnings.add(
            message_index,
            part_index,
            "file",
            Code.FILE_KIND_UNSUPPORTED,
            f"{title} takes no {kind} file ('{part.media_type}'); dropped",
        )
        return None
    if part.uri is not None and "uri" in sources:
        schemes = " or ".join(support.uri_schemes) or "no scheme"
        warnings.add(
            message_index,
            part_index,
            "file",
            Code.FILE_SOURCE_UNSUPPORTED,
            f"{title} reads cloud URIs only as {schemes}, not '{part.uri}'; dropped",
        )
        return None
    taken = " or ".join(_SOURCE_WORDS[s] for s in sorted(sources))
    shown = f" '{part.uri}'" if part.uri is not None else f" '{part.url}'" if part.url is not None else ""
    warnings.add(
        message_index,
        part_index,
        "file",
        Code.FILE_SOURCE_UNSUPPORTED,
        f"{title} takes a {kind} file only by {taken}, not by {_SOURCE_WORDS[part.source]}{shown}; dropped",
    )
    return None


#: A file name's extension per media type, for a name a wire requires and the part lacks.
_EXTENSIONS = {
    "application/pdf": "pdf",
    "text/plain": "txt",
    "text/csv": "csv",
    "text/markdown": "md",
    "text/html": "html",
}


def default_filename(part: FilePart) -> str:
    """A name for inline bytes where the wire requires one (OpenAI ``file_data`` needs its ``filename``):
    the title's, else ``document`` with the media type's extension."""
    extension = _EXTENSIONS.get(part.media_type.lower(), part.media_type.split("/")[-1] or "bin")
    return f"{part.title or 'document'}.{extension}"


def warn_moved(warnings: Warnings, message_index: int, part_index: int | None, where: str) -> None:
    """A tool result's file sent after the results (one wording: ``where`` says where it went)."""
    warnings.add(
        message_index,
        part_index,
        "file",
        Code.TOOL_FILE_MOVED,
        f"the tool result cannot hold this file; {where}",
    )


def warn_json_as_text(warnings: Warnings, message_index: int | None, title: str) -> None:
    """A structured result sent as its ``output_text`` (the provider takes tool results as text)."""
    warnings.add(
        message_index,
        None,
        None,
        Code.TOOL_JSON_AS_TEXT,
        f"{title} takes a tool result as text; the structured value is sent as output_text",
    )


def warn_order_lost(warnings: Warnings, item: WireToolResult, title: str) -> None:
    """A result whose text follows an image or file (``part_positions``) on a wire that keeps a
    tool result's text and files apart: the text goes first, its order with the files is lost."""
    if item.interleaved:
        warnings.add(
            item.index,
            None,
            "part_positions",
            Code.TOOL_RESULT_ORDER_LOST,
            f"{title} holds a tool result's text apart from its images and files; "
            "the text the tool gave after an image or file is sent before it",
        )


_SOURCE_WORDS: dict[str, str] = {
    "data": "inline bytes",
    "url": "URL",
    "file_id": "file id",
    "uri": "cloud URI",
}


def _scheme_ok(support: FileSupport, part: FilePart) -> bool:
    """A cloud URI goes only where its scheme is read (``gs://`` on Google, ``s3://`` on Bedrock)."""
    if part.uri is None:
        return True
    return part.uri.lower().startswith(support.uri_schemes) if support.uri_schemes else False


def drop_video_metadata(items: list[WireItem], warnings: Warnings) -> None:
    """A file's ``video_metadata`` where the provider has no field for it: the video goes without
    its frame rate and clip offsets, warned (the file itself is sent or dropped as usual)."""

    def strip(ci: ContentItem) -> ContentItem:
        if not isinstance(ci.part, FilePart) or ci.part.video_metadata is None:
            return ci
        warnings.add(
            ci.message_index,
            ci.part_index,
            "file",
            Code.FILE_VIDEO_METADATA_DROPPED,
            f"video_metadata {sorted(ci.part.video_metadata)} has no field here; the file is sent without it",
        )
        return ContentItem(
            ci.message_index, ci.part_index, ci.part.model_copy(update={"video_metadata": None})
        )

    map_content(items, FilePart, strip)


def drop_document_options(items: list[WireItem], warnings: Warnings) -> None:
    """A document's ``context``, ``citations`` and ``text_chunks`` where the provider has no field
    for them: the document goes as usual (its text whole), without them, warned."""

    def strip(ci: ContentItem) -> ContentItem:
        part = ci.part
        if not isinstance(part, FilePart):
            return ci
        given = [name for name in ("context", "citations", "text_chunks") if getattr(part, name) is not None]
        if not given:
            return ci
        warnings.add(
            ci.message_index,
            ci.part_index,
            "file",
            Code.FILE_DOCUMENT_OPTIONS_DROPPED,
            f"document {', '.join(given)} {'has' if len(given) == 1 else 'have'} no field here; "
            "the document is sent without them",
        )
        update = dict.fromkeys(given)
        return ContentItem(ci.message_index, ci.part_index, part.model_copy(update=update))

    map_content(items, FilePart, strip)
