"""The one thinking-pairing rule both sides share: which signatures are a provider's own, and model identity.

Why here: the reference adapters decide what to send as native reasoning and the judges
check that decision; if each kept its own copy, a judge could agree with an adapter's
bug. DESIGN "Thinking pairing" is the source.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from harness.contract.providers import PROVIDER_TABLE
from harness.model import AnyPart, ThinkingSignaturePart

__all__ = ["NATIVE_SIGNATURE_FORMATS", "REDACTED_FORMATS", "google_signature_carrier", "same_model"]

#: Signature formats that are a whole redacted reasoning unit of their own: they never pair with a text.
REDACTED_FORMATS = frozenset({"anthropic-redacted", "bedrock-redacted"})

#: Signature formats each provider accepts as its own reasoning state (``ProviderEntry.signature_formats``).
NATIVE_SIGNATURE_FORMATS: dict[str, frozenset[str]] = {e.id: e.signature_formats for e in PROVIDER_TABLE}


_SNAPSHOT_SUFFIX = re.compile(r"-(\d{8}|\d{4}-\d{2}-\d{2}|latest)$")


def same_model(produced_by: str, model: str) -> bool:
    """Whether two model ids name the same model: an alias and its dated snapshot match.

    Providers report the snapshot that answered (``claude-sonnet-4-5-20250929``,
    ``gpt-5.5-2026-04-23``) while requests name the alias (``claude-sonnet-4-5``,
    ``gpt-5.5``); the signature is the same model's either way.
    """
    return _SNAPSHOT_SUFFIX.sub("", produced_by) == _SNAPSHOT_SUFFIX.sub("", model)


def google_signature_carrier(parts: Sequence[AnyPart], index: int) -> int | None:
    """Gemini's pairing rule, stated once: the ``google`` signature at ``index`` belongs to
    the part right before it, whatever that part is (text, function call, thinking text,
    image); None when no part is before it or that part is another signature."""
    if index == 0 or isinstance(parts[index - 1], ThinkingSignaturePart):
        return None
    return index - 1
