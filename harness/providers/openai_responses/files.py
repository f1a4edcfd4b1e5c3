"""Responses file parts: ``input_file`` (documents by data URL, URL or file id) and ``input_image``
by file id, in user messages and in ``function_call_output.output``.

SDK types: ResponseInputFileParam (file_data, file_id, file_url, filename),
ResponseInputImageParam (file_id, detail); docs: guides/pdf-files, guides/images-vision.
What the API takes is ``profile.FILES``.
"""

from __future__ import annotations

from typing import Any

from harness.mapping.file_support import file_kind
from harness.mapping.files import admit, default_filename
from harness.mapping.wire import Warnings
from harness.model import FilePart, TextPart
from harness.providers.openai_responses.profile import FILES

__all__ = ["input_file"]


def input_file(
    part: FilePart, message_index: int, part_index: int | None, warnings: Warnings
) -> dict[str, Any] | None:
    """The part as an InputContent entry, or None (warned by ``admit``)."""
    admitted = admit(FILES, part, message_index, part_index, warnings)
    if admitted is None:
        return None
    if isinstance(admitted, TextPart):
        return {"type": "input_text", "text": admitted.text}
    if file_kind(admitted.media_type) == "image":
        return {"type": "input_image", "file_id": admitted.file_id, "detail": "auto"}
    out: dict[str, Any] = {"type": "input_file"}
    if admitted.file_id is not None:
        out["file_id"] = admitted.file_id
    elif admitted.url is not None:
        out["file_url"] = admitted.url
    else:
        out["file_data"] = f"data:{admitted.media_type};base64,{admitted.data}"
    name = admitted.filename or (default_filename(admitted) if admitted.data is not None else None)
    if name is not None:  # inline data needs its filename ("400: Missing required parameter", laravel/ai#324)
        out["filename"] = name
    return out
