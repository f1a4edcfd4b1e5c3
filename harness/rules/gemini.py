"""Gemini generateContent hard rules its Discovery schema cannot express."""

from __future__ import annotations

from itertools import pairwise
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


def _mime_type(provider: str, wire: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
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
    (),
    "reject",
    "media parts use registered MIME types (`image/jpeg`, not the alias `image/jpg` nor a bare `png`)",
    (
        "https://ai.google.dev/gemini-api/docs/image-understanding#supported-formats (PNG image/png, "
        "JPEG image/jpeg, WEBP, HEIC, HEIF)",
        "https://github.com/CherryHQ/cherry-studio/issues/3189 (API error '[400] Unsupported MIME type: image/jpg')",
        "https://github.com/charmbracelet/crush/issues/995 (API error 'Unsupported MIME type: png': no media type)",
    ),
    _mime_type,
    invariant="I12",
    wires=("gemini",),
)


def _parts_with(content: dict[str, Any], key: str) -> int:
    return sum(1 for p in as_list(content.get("parts")) if key in as_dict(p))


def _turns(body: dict[str, Any]) -> list[tuple[int, str, list[dict[str, Any]]]]:
    """Runs of consecutive contents with one role (the API reads such a run as one turn):
    (index of the run's first content, role, contents)."""
    turns: list[tuple[int, str, list[dict[str, Any]]]] = []
    for i, raw in enumerate(as_list(body.get("contents"))):
        content = as_dict(raw)
        role = str(content.get("role") or "user")
        if turns and turns[-1][1] == role:
            turns[-1][2].append(content)
        else:
            turns.append((i, role, [content]))
    return turns


def _calls_answered(provider: str, wire: str, body: dict[str, Any], model: str | None) -> list[RuleFinding]:
    """A model turn with function calls is followed by a user turn answering each call.

    A turn is a run of consecutive contents of one role: recorded accepted requests send a
    call, then another model content with a call, then both responses (pydantic-ai's
    tool-search replays). A request that ends on the calls has nothing to answer them yet.
    """
    turns = _turns(body)
    out: list[RuleFinding] = []
    for (start, role, contents), (nxt, next_role, answers) in pairwise(turns):
        calls = sum(_parts_with(c, "functionCall") for c in contents)
        if role != "model" or not calls:
            continue
        responses = sum(_parts_with(c, "functionResponse") for c in answers) if next_role != "model" else 0
        if responses != calls:
            out.append(
                CALLS_ANSWERED.finding(
                    f"contents/{nxt}",
                    "Please ensure that the number of function response parts is equal to the number of "
                    f"function call parts of the function call turn (calls in contents/{start}: {calls}, "
                    f"responses in the next turn: {responses})",
                    {"role": next_role, "functionResponse parts": responses},
                    "the API answers 400 INVALID_ARGUMENT: every call of a turn needs its response in the next turn",
                )
            )
    return out


CALLS_ANSWERED = Rule(
    "gemini-function-calls-answered",
    (),
    "reject",
    "a model content with function calls is followed by a user content with one function response per call",
    (
        "https://github.com/google-gemini/gemini-cli/issues/4217 and "
        "https://github.com/google-gemini/gemini-cli/issues/16415 (API error 'Please ensure that the number "
        "of function response parts is equal to the number of function call parts of the function call turn.')",
        "https://ai.google.dev/gemini-api/docs/function-calling (the function response turn follows the call)",
    ),
    _calls_answered,
    invariant="I7",
    wires=("gemini",),
)

GEMINI_RULES: tuple[Rule, ...] = (MIME_TYPE, CALLS_ANSWERED)
