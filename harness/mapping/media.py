"""Image media type labels: the standard label for the aliases real histories carry.

``prepare()`` standardises base64 image labels before any provider sees them (field
report: Gemini "Unsupported MIME type: image/jpg"); which labels a provider then accepts
is a model fact in its ``profile.py``.
"""

from __future__ import annotations

__all__ = ["MEDIA_TYPE_ALIASES", "normalize_media_type"]

# Non-standard labels seen in real histories for standard image types. Gemini: "Unsupported
# MIME type: image/jpg"; Anthropic accepts only image/jpeg|png|gif|webp.
MEDIA_TYPE_ALIASES: dict[str, str] = {
    "image/jpg": "image/jpeg",
    "image/pjpeg": "image/jpeg",
    "image/x-png": "image/png",
}


def normalize_media_type(media_type: str) -> str:
    """The standard label for a media type (lower-cased, known aliases resolved)."""
    lowered = media_type.lower()
    return MEDIA_TYPE_ALIASES.get(lowered, lowered)
