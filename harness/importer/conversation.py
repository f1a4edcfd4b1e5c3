"""The whole conversation of a request body, or an error: the importer as the closed loop uses it."""

from __future__ import annotations

from typing import Any, cast

from harness.contract.providers import wire_of
from harness.importer import import_request
from harness.model import AnyPart, AssistantMessage, Message, ToolCallPart, ToolResultMessage
from harness.params import CallParams

__all__ = ["import_conversation"]


#: Unrepresented-path prefixes that hold conversation content (the rest are request settings the
#: allowlists speak to): ``import_conversation`` refuses a request whose content it cannot hold.
_CONTENT_PATHS = ("messages", "contents", "input", "system", "systemInstruction", "instructions")


def _mint_gemini_ids(history: list[Message]) -> list[Message]:
    """Gemini may send calls without ids: number them per turn, as the recording clients do, and
    point each id-less result at the call of its turn with the same name."""
    out: list[Message] = []
    pending: list[ToolCallPart] = []
    for message in history:
        if isinstance(message, AssistantMessage):
            parts: list[AnyPart] = []
            pending = []
            for number, part in enumerate(message.parts):
                if isinstance(part, ToolCallPart) and not part.call_id:
                    part = part.model_copy(update={"call_id": f"gemini_call_{number}"})
                if isinstance(part, ToolCallPart):
                    pending.append(part)
                parts.append(part)
            message = message.model_copy(update={"parts": parts})
        elif isinstance(message, ToolResultMessage) and not message.call_id:
            match = next((c for c in pending if c.tool_name == message.tool_name), None)
            if match is not None:
                pending.remove(match)
                message = message.model_copy(update={"call_id": match.call_id})
        out.append(message)
    return out


#: Wires whose calls may come without ids, and how the recording clients number them.
_MINT_IDS = {"gemini": _mint_gemini_ids}


def import_conversation(provider: str, body: Any, uri: str | None = None) -> tuple[list[Message], CallParams]:
    """A provider request body -> (canonical history, call params), with nothing of the conversation lost.

    What the closed loop replays: ``uri`` matters only for Gemini, whose model and streaming
    live in the URL. Raises ValueError on content ``import_request`` cannot represent (a
    block, part or item type it does not know) instead of dropping it; settings it cannot
    represent are left to the caller's allowlist. Gemini calls without ids get the ids the
    recording clients mint.
    """
    imported = import_request(provider, body, uri=uri)
    mint = _MINT_IDS.get(wire_of(provider))
    content = [
        line
        for line in imported.unrepresented
        if line.startswith(_CONTENT_PATHS) and not (mint is not None and ".id: absent" in line)
    ]
    if content:
        raise ValueError(f"{provider}: {content[0]}")
    history = cast(list[Message], imported.history)
    return (mint(history) if mint is not None else history), imported.params
