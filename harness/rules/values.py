"""Rules on values a schema cannot judge: the bytes behind an inline image, sampling ranges.

- OpenAI reads an inline image (a base64 ``data:`` URL) as PNG, JPEG, GIF or WebP whatever
  its declared media type, and answers 400 "You uploaded an unsupported image" for other
  bytes. A client that fetched an image and got an HTML error page sends that page as
  ``data:image/jpeg;base64,...``: OpenLLMetry's recording sends Wikimedia's 403 text
  ("Please set a user-agent...") so, answered 400 (its test_vision_base64 cassettes). Only the
  first bytes are decoded (the signature), so a large image costs nothing.
- Gemini's ``generationConfig`` sampling values have documented ranges (temperature 0.0-2.0,
  topP 0.0-1.0, topK and candidateCount positive); the Discovery document types them as plain
  numbers, so the schema oracle passes ``temperature: 1000``, which Vertex AI answers 400.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

from harness.rules.base import Rule, RuleFinding, as_dict, as_list

__all__ = ["IMAGE_BYTES", "SAMPLING_RANGE", "VALUE_RULES", "image_format"]

_DATA_URL = re.compile(r"data:(image/[A-Za-z0-9.+-]+);base64,([A-Za-z0-9+/=_-]{8,})", re.ASCII)
_SIGNATURES = (
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"GIF87a", "gif"),
    (b"GIF89a", "gif"),
)


def image_format(head: bytes) -> str | None:
    """The image format the first bytes announce (PNG, JPEG, GIF, WebP), or None."""
    for magic, name in _SIGNATURES:
        if head.startswith(magic):
            return name
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webp"
    return None


def _head(payload: str) -> bytes | None:
    chunk = payload[:24]  # 18 bytes: every signature above
    try:
        return base64.b64decode(
            chunk + "=" * (-len(chunk) % 4), altchars=b"-_" if "-" in chunk or "_" in chunk else None
        )
    except (binascii.Error, ValueError):
        return None


def _image_urls(body: dict[str, Any]) -> list[tuple[str, str]]:
    """(path, url) of every image URL in a Chat or Responses body."""
    out: list[tuple[str, str]] = []
    for i, raw in enumerate(as_list(body.get("messages")) + as_list(body.get("input"))):
        key = "messages" if "messages" in body else "input"
        for j, part in enumerate(as_list(as_dict(raw).get("content"))):
            block = as_dict(part)
            url: Any = (
                as_dict(block.get("image_url")).get("url") if block.get("type") == "image_url" else None
            )
            if block.get("type") == "input_image":
                url = block.get("image_url")
            if isinstance(url, str):
                out.append((f"{key}/{i}/content/{j}", url))
    return out


def _image_bytes(provider: str, wire: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    out: list[RuleFinding] = []
    for path, url in _image_urls(body):
        match = _DATA_URL.match(url)
        head = _head(match.group(2)) if match else None
        if match is None or head is None or image_format(head) is not None:
            continue
        out.append(
            IMAGE_BYTES.finding(
                path,
                "You uploaded an unsupported image. Please make sure your image has of one the following "
                f"formats: ['png', 'jpeg', 'gif', 'webp'] (declared {match.group(1)}, the bytes start {head[:12]!r})",
                url[:80],
                "the API answers 400 for the whole request; the bytes are not an image (often an error page "
                "fetched in its place)",
            )
        )
    return out


IMAGE_BYTES = Rule(
    "openai-image-bytes",
    ("openai-chat", "openai-responses"),
    "reject",
    "an inline (base64 data URL) image's bytes are PNG, JPEG, GIF or WebP",
    (
        "https://platform.openai.com/docs/guides/images-vision (supported file types: PNG, JPEG, WEBP, non-animated GIF)",
        "OpenAI's 400 'You uploaded an unsupported image. Please make sure your image has of one the following "
        "formats: ['png', 'jpeg', 'gif', 'webp']' for a data:image/jpeg URL holding an HTML error page's text "
        "(OpenLLMetry's test_vision_base64_with_events_with_content.yaml#3, not bundled: 3 MB)",
    ),
    _image_bytes,
    invariant="I12",
    hosts=("api.openai.com",),
)

#: generationConfig field -> (lowest, highest or None), from the Gemini API reference (GenerationConfig).
_RANGES: dict[str, tuple[float, float | None]] = {
    "temperature": (0.0, 2.0),
    "topP": (0.0, 1.0),
    "topK": (1, None),
    "candidateCount": (1, None),
}


def _sampling_range(provider: str, wire: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    config = as_dict(body.get("generationConfig"))
    out: list[RuleFinding] = []
    for name, (low, high) in _RANGES.items():
        value = config.get(name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        if value < low or (high is not None and value > high):
            span = f"[{low}, {high}]" if high is not None else f">= {low}"
            out.append(
                SAMPLING_RANGE.finding(
                    f"generationConfig/{name}",
                    f"{name} {value} is out of range {span}",
                    {name: value},
                    "the API answers 400 for the whole request",
                )
            )
    return out


SAMPLING_RANGE = Rule(
    "gemini-sampling-range",
    ("gemini",),
    "reject",
    "generationConfig sampling values are in their documented ranges (temperature 0-2, topP 0-1, topK >= 1)",
    (
        "https://ai.google.dev/api/generate-content#generationconfig (temperature: range [0.0, 2.0]; topP; topK)",
        "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/GenerationConfig "
        "(temperature: range 0.0 - 2.0)",
    ),
    _sampling_range,
    invariant="I12",
)

VALUE_RULES: tuple[Rule, ...] = (IMAGE_BYTES, SAMPLING_RANGE)
