"""Provider and model facts the adapters' mapping rules depend on, kept apart from the mapping code.

Each fact names its evidence (provider documentation or the provider's own error text
that real users reported; see docs/field-rules.md). Mapping code asks these functions
instead of testing model names inline.
"""

from __future__ import annotations

import re

from harness.mapping.toolnames import NameRule

__all__ = [
    "ANTHROPIC_IMAGE_MEDIA_TYPES",
    "MEDIA_TYPE_ALIASES",
    "TOOL_NAME_RULES",
    "gemini_accepts_system_instruction",
    "gemini_function_response_parts",
    "gemini_version",
    "normalize_media_type",
    "tool_name_rule",
]

# OpenAI (Chat, Responses; OpenRouter forwards the same check): "Invalid
# 'tools[0].function.name': string does not match pattern ... ^[a-zA-Z0-9_-]+$" and
# "string too long. Expected a string with maximum length 64".
_OPENAI_NAMES = NameRule("A-Za-z0-9_-", 64)

TOOL_NAME_RULES: dict[str, NameRule] = {
    "openai-chat": _OPENAI_NAMES,
    "openai-responses": _OPENAI_NAMES,
    "openrouter": _OPENAI_NAMES,
    # Messages API Tool.name: ^[a-zA-Z0-9_-]{1,128}$.
    "anthropic": NameRule("A-Za-z0-9_-", 128),
    # generativelanguage v1beta FunctionDeclaration.name: "Must be a-z, A-Z, 0-9, or contain
    # underscores, colons, dots, and dashes, with a maximum length of 64"; Vertex adds "Must
    # start with a letter or an underscore". The stricter reading of both is kept.
    "gemini": NameRule("A-Za-z0-9_.:-", 64, first="A-Za-z_"),
}


def tool_name_rule(provider: str) -> NameRule:
    """The tool-name rule of a provider id (the OpenAI rule for an unknown id: the strictest common one)."""
    return TOOL_NAME_RULES.get(provider, _OPENAI_NAMES)


# Non-standard labels seen in real histories for standard image types. Gemini: "Unsupported
# MIME type: image/jpg"; Anthropic accepts only image/jpeg|png|gif|webp.
MEDIA_TYPE_ALIASES: dict[str, str] = {
    "image/jpg": "image/jpeg",
    "image/pjpeg": "image/jpeg",
    "image/x-png": "image/png",
}

# https://docs.claude.com/en/docs/build-with-claude/vision: the four accepted media types.
ANTHROPIC_IMAGE_MEDIA_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})


def normalize_media_type(media_type: str) -> str:
    """The standard label for a media type (lower-cased, known aliases resolved)."""
    lowered = media_type.lower()
    return MEDIA_TYPE_ALIASES.get(lowered, lowered)


def gemini_version(model: str) -> float | None:
    """``gemini-2.5-pro`` -> 2.5, ``gemini-3-pro-preview`` -> 3.0; None for aliases and non-Gemini models."""
    m = re.match(r"(?:models/)?gemini-(\d+(?:\.\d+)?)", model)
    return float(m.group(1)) if m else None


def gemini_accepts_system_instruction(model: str) -> bool:
    """Gemma models on the Gemini API reject ``systemInstruction`` ("Developer instruction is
    not enabled for models/gemma-..."); their system text must travel in the first user turn."""
    return not model.removeprefix("models/").startswith("gemma")


def gemini_function_response_parts(model: str) -> bool:
    """Gemini 3 accepts images inside ``functionResponse.parts`` (multimodal function
    responses, https://ai.google.dev/gemini-api/docs/function-calling); older models do not."""
    version = gemini_version(model)
    return version is not None and version >= 3
