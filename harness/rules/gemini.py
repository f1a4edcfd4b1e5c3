"""Gemini generateContent hard rules its Discovery schema cannot express."""

from __future__ import annotations

from typing import Any

from harness.rules.base import Rule, RuleFinding, as_dict, as_list

__all__ = ["GEMINI_RULES"]

#: Non-standard aliases Gemini rejects; the registered types are image/jpeg, image/png, ...
_BAD_MIME = {"image/jpg": "image/jpeg", "image/pjpeg": "image/jpeg", "image/x-png": "image/png"}


def _inline_mimes(body: dict[str, Any]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []

    def parts(raw: Any, path: str) -> None:
        for j, p in enumerate(as_list(raw)):
            part = as_dict(p)
            for key in ("inlineData", "inline_data", "fileData", "file_data"):
                data = as_dict(part.get(key))
                for mkey in ("mimeType", "mime_type"):
                    if isinstance(m := data.get(mkey), str):
                        out.append((f"{path}/{j}/{key}/{mkey}", m))
            for key in ("functionResponse", "function_response"):
                parts(as_dict(part.get(key)).get("parts"), f"{path}/{j}/{key}/parts")

    for i, content in enumerate(as_list(body.get("contents"))):
        parts(as_dict(content).get("parts"), f"contents/{i}/parts")
    return out


def _fix(mime: str) -> str:
    if "/" not in mime:
        return "a MIME type is type/subtype, e.g. image/png"
    return f"use {_BAD_MIME[mime.lower()]}"


def _mime_type(provider: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    return [
        MIME_TYPE.finding(
            path,
            f"Unsupported MIME type: {mime} ({_fix(mime)})",
            {"mimeType": mime},
            "the API answers 400 INVALID_ARGUMENT for the whole request",
        )
        for path, mime in _inline_mimes(body)
        if mime.lower() in _BAD_MIME or "/" not in mime
    ]


MIME_TYPE = Rule(
    "gemini-mime-type",
    ("gemini",),
    "reject",
    "media parts use registered MIME types (`image/jpeg`, not the alias `image/jpg` nor a bare `png`)",
    (
        "https://ai.google.dev/gemini-api/docs/image-understanding#supported-formats (PNG image/png, "
        "JPEG image/jpeg, WEBP, HEIC, HEIF)",
        "https://github.com/CherryHQ/cherry-studio/issues/3189 (API error '[400] Unsupported MIME type: image/jpg')",
        "https://github.com/charmbracelet/crush/issues/995 (API error 'Unsupported MIME type: png': no media type)",
    ),
    _mime_type,
)

GEMINI_RULES: tuple[Rule, ...] = (MIME_TYPE,)
