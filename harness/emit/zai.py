"""Z.ai stream emitter (provider id ``zai``): see ``harness.emit.dialects``."""

from __future__ import annotations

from harness.emit.dialects import DialectEmitter
from harness.model import AssistantMessage

__all__ = ["DEFAULT_MODEL", "check", "emit"]

DEFAULT_MODEL = "glm-4.7"
_EMITTER = DialectEmitter("zai", DEFAULT_MODEL, "reasoning_content")


def check(message: AssistantMessage) -> str | None:
    return _EMITTER.check(message)


def emit(message: AssistantMessage, *, response_id: str, model: str) -> bytes:
    return _EMITTER.emit(message, response_id=response_id, model=model)
