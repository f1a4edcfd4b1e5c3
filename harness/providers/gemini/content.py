"""Gemini user content: text, images and files as ``Part`` objects (``{"text"}``, ``inlineData``,
``fileData``). https://ai.google.dev/api/caching#Part
"""

from __future__ import annotations

import posixpath
from typing import Any
from urllib.parse import urlsplit

from harness.contract.warning_codes import Code
from harness.mapping.toolbox import parse_data_url, warn_image_file
from harness.mapping.wire import Warnings, WireUser
from harness.model import FilePart, ImageFilePart, ImageURLPart, TextPart
from harness.providers.gemini import profile
from harness.providers.gemini.files import user_file_part
from harness.providers.gemini.profile import MIME_BY_EXTENSION

__all__ = ["content_part", "user_parts"]

Json = dict[str, Any]


def user_parts(item: WireUser, warnings: Warnings) -> list[Json]:
    """A user (or degraded developer) message: text and image parts.

    https://ai.google.dev/api/caching#Part
    """
    parts: list[Json] = []
    for ci in item.items:
        part = content_part(ci.part, ci.message_index, ci.part_index, warnings)
        if part is not None:
            parts.append(part)
    return parts


def content_part(
    part: TextPart | ImageURLPart | ImageFilePart | FilePart,
    index: int,
    part_index: int | None,
    warnings: Warnings,
) -> Json | None:
    """Text -> ``{"text"}``; images and files -> ``inlineData``/``fileData``; None when dropped (warned)."""
    if isinstance(part, TextPart):
        return {"text": part.text}
    if isinstance(part, FilePart):
        return user_file_part(profile.FILES, part, index, part_index, warnings)
    if isinstance(part, ImageFilePart):
        warn_image_file(warnings, index, part_index, part)
        return None
    return _image_part(part.url, index, part_index, warnings)


def _image_part(url: str, index: int, part_index: int | None, warnings: Warnings) -> Json | None:
    """Base64 data URL -> ``inlineData``; http(s) URL -> ``fileData`` (mime type from the extension).

    https://ai.google.dev/gemini-api/docs/image-understanding (inline data and file URIs)
    """
    data = parse_data_url(url)
    if data is not None:
        return {"inlineData": {"mimeType": data[0], "data": data[1]}}
    scheme = urlsplit(url).scheme.lower()
    if scheme not in ("http", "https"):
        warnings.add(
            index,
            part_index,
            "image_url",
            Code.IMAGE_URL_UNSUPPORTED,
            "image URL is neither http(s) nor a base64 data URL; dropped",
        )
        return None
    file_data: Json = {"fileUri": url}
    mime = _guess_image_mime(url)
    if mime is None:
        warnings.add(
            index,
            part_index,
            "image_url",
            Code.IMAGE_MIME_UNKNOWN,
            "no image type could be told from the URL's extension; fileData sent without mimeType",
        )
    else:
        file_data["mimeType"] = mime
    return {"fileData": file_data}


def _guess_image_mime(url: str) -> str | None:
    """Deterministic guess from the URL path's extension (never from the network)."""
    extension = posixpath.splitext(urlsplit(url).path)[1].lower()
    return MIME_BY_EXTENSION.get(extension)
