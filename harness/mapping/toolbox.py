"""Small mapping helpers every provider's ``request.py`` shares (one wording per warning).

Data URLs, tool arguments, image files that are never read, and whether a thinking
part may be replayed as native to a provider and model.
"""

from __future__ import annotations

import json
import re

from harness.contract.thinking import NATIVE_SIGNATURE_FORMATS, same_model
from harness.contract.warning_codes import Code
from harness.mapping.media import normalize_media_type
from harness.mapping.wire import ThinkingUnit, Warnings
from harness.model import ImageFilePart, ThinkingSignaturePart, ThinkingTextPart

__all__ = [
    "PLACEHOLDER_USER_TEXT",
    "normalized_data_url",
    "parse_arguments",
    "parse_data_url",
    "placeholder_user",
    "same_model",
    "signature_drop_code",
    "signature_problem",
    "thinking_text_problem",
    "warn_image_file",
    "warn_media_type",
    "warn_signature_dropped",
]


def warn_image_file(
    warnings: Warnings, message_index: int, part_index: int | None, part: ImageFilePart
) -> None:
    """An image on disk is never inlined: adapters are pure and read no files (one wording everywhere)."""
    warnings.add(
        message_index,
        part_index,
        "image_file",
        Code.IMAGE_FILE_NOT_INLINED,
        f"image file '{part.file_path}' is not inlined (adapters do not read files); dropped",
    )


def parse_data_url(url: str) -> tuple[str, str] | None:
    """``data:image/png;base64,XXXX`` -> (media type, base64 data); None if not a base64 data URL."""
    m = re.match(r"data:([^;,]+)((?:;[^;,]+)*);base64,(.*)\Z", url, re.DOTALL)
    return (m.group(1), m.group(3)) if m else None


def normalized_data_url(url: str) -> tuple[str, bool]:
    """A base64 data URL with its media type label standardised (``image/jpg`` -> ``image/jpeg``).

    Returns the URL to send and whether the label changed. Other URLs come back unchanged.
    """
    m = re.match(r"data:([^;,]+)(.*)\Z", url, re.DOTALL)
    if m is None or parse_data_url(url) is None:
        return url, False
    standard = normalize_media_type(m.group(1))
    fixed = f"data:{standard}{m.group(2)}"
    if standard == m.group(1) or parse_data_url(fixed) is None:
        return url, False
    return fixed, True


def warn_media_type(
    warnings: Warnings,
    message_index: int,
    part_index: int | None,
    original: str,
    sent: str,
    part_type: str = "image_url",
) -> None:
    """One wording for a normalised media type label (the image or file itself is still sent)."""
    warnings.add(
        message_index,
        part_index,
        part_type,
        Code.MEDIA_TYPE_NORMALIZED,
        f"media type '{original}' is not a standard label; sent as '{sent}'",
    )


def parse_arguments(arguments_json: str) -> tuple[dict[str, object], str | None]:
    """Tool arguments as an object for providers that need one; the error reason if it was not one."""
    if arguments_json.strip() == "":
        return {}, None
    try:
        value = json.loads(arguments_json)
    except json.JSONDecodeError as exc:
        return {}, f"arguments_json is not valid JSON ({exc.msg}); sent as an empty object"
    if not isinstance(value, dict):
        return {}, f"arguments_json is a JSON {type(value).__name__}, not an object; sent as an empty object"
    return value, None  # pyright: ignore[reportUnknownVariableType]


def signature_problem(sig: ThinkingSignaturePart, provider: str, model: str | None) -> str | None:
    """Why a signature must not be sent to this provider/model as native, or None if it may."""
    native = NATIVE_SIGNATURE_FORMATS.get(provider, frozenset())
    if not sig.signature:
        return "signature is empty (an interrupted stream); replaying it as signed is rejected"
    if sig.format is None:
        return "signature has no format, so it cannot be proven native"
    if sig.format not in native:
        return f"signature format '{sig.format}' is not native to {provider}"
    if sig.model_id and model and not same_model(sig.model_id, model):
        return f"signature was produced by model '{sig.model_id}', not '{model}'"
    return None


def thinking_text_problem(text: ThinkingTextPart, model: str | None) -> str | None:
    if text.model_id and model and not same_model(text.model_id, model):
        return f"thinking was produced by model '{text.model_id}', not '{model}'"
    return None


def signature_drop_code(sig: ThinkingSignaturePart) -> Code:
    """The warning code for a signature that cannot be sent: an empty signature is an
    interrupted stream, so the thinking is unsigned (field lesson 2), not another provider's."""
    return Code.THINKING_UNSIGNED if not sig.signature else Code.THINKING_FOREIGN


def warn_signature_dropped(warnings: Warnings, message_index: int, unit: ThinkingUnit, carrier: str) -> None:
    """``unit``'s signature (if any) is dropped: ``carrier`` (the wire's reasoning field) holds text only."""
    sig = unit.signature
    if sig is None:
        return
    warnings.add(
        message_index,
        unit.signature_index,
        "thinking_signature",
        signature_drop_code(sig),
        f"{carrier} carries text only; a '{sig.format}' signature cannot be sent; dropped",
    )


#: The text of the user message put first when a request would have no user turn to start with.
PLACEHOLDER_USER_TEXT = "(conversation start)"


def placeholder_user(warnings: Warnings, reason: str, text: str = PLACEHOLDER_USER_TEXT) -> str:
    """A request needs a user turn for the model to answer (first, for Gemini): warn and return its text.

    ``text``: ``""`` where the API accepts an empty user message as that turn (Responses;
    docs/import-check-decisions.md#placeholder-turns).
    """
    warnings.add(None, None, None, Code.PLACEHOLDER_USER, reason)
    return text
