"""Mistral stream emitter (provider id ``mistral``): see ``harness.emit.dialects``."""

from __future__ import annotations

from harness.emit.dialects import MistralEmitter
from harness.model import AssistantMessage

__all__ = ["DEFAULT_MODEL", "check", "emit"]

DEFAULT_MODEL = "mistral-large-latest"
_EMITTER = MistralEmitter(DEFAULT_MODEL)


def check(message: AssistantMessage) -> str | None:
    return _EMITTER.check(message)


def emit(message: AssistantMessage, *, response_id: str, model: str) -> bytes:
    return _EMITTER.emit(message, response_id=response_id, model=model)
