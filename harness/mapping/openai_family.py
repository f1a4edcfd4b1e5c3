"""Facts about OpenAI's API and models that more than one provider serves.

OpenAI Chat, OpenAI Responses and OpenRouter (which forwards OpenAI's checks and
serves OpenAI models as ``openai/...``) share them; each provider's ``profile.py``
re-exports what it uses, so no provider reads a sibling's profile.
"""

from __future__ import annotations

import re

from harness.contract.warning_codes import Code
from harness.mapping.toolbox import parse_data_url, warn_image_file
from harness.mapping.toolnames import NameRule
from harness.mapping.wire import Warnings
from harness.model import ImageFilePart, ImageURLPart

__all__ = ["OPENAI_TOOL_NAMES", "accepts_reasoning", "sendable_image_url"]

# OpenAI (Chat, Responses; OpenRouter forwards the same check): "Invalid
# 'tools[0].function.name': string does not match pattern ... ^[a-zA-Z0-9_-]+$" and
# "string too long. Expected a string with maximum length 64".
OPENAI_TOOL_NAMES = NameRule("A-Za-z0-9_-", 64)

# OpenAI model families without reasoning: they reject ``reasoning_effort`` / ``reasoning``
# and Responses' ``include: ["reasoning.encrypted_content"]`` ("Encrypted content is not
# supported with this model"; pydantic/pydantic-ai PR 2867, ShishirPatil/gorilla issue 1148).
# A denylist: an unknown model keeps the reasoning fields it was asked for.
_NON_REASONING_MODEL = re.compile(r"(?:openai/)?(?:gpt-4|gpt-3\.5|chatgpt-4o)")


def accepts_reasoning(model: str) -> bool:
    """False for OpenAI model families known to have no reasoning (``gpt-4*``, ``gpt-3.5*``, ``chatgpt-4o*``)."""
    return _NON_REASONING_MODEL.match(model) is None


def sendable_image_url(
    message_index: int, part_index: int | None, part: ImageURLPart | ImageFilePart, warnings: Warnings
) -> str | None:
    """The URL OpenAI takes for an image (an http(s) URL or a base64 image data URL; guides/images),
    or None with the warning that says why the part was dropped (files on disk are never read)."""
    if isinstance(part, ImageFilePart):
        warn_image_file(warnings, message_index, part_index, part)
        return None
    url = part.url
    data = parse_data_url(url)
    if url.startswith(("http://", "https://")) or (data is not None and data[0].startswith("image/")):
        return url
    warnings.add(
        message_index,
        part_index,
        "image_url",
        Code.IMAGE_URL_UNSUPPORTED,
        "image URL is neither http(s) nor a base64 image data URL; dropped",
    )
    return None
