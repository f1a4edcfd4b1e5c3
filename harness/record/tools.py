"""Scripted tool results for multi-turn recordings: deterministic, so a re-recording differs only by the model.

Without ``--tool-results`` every call gets a text naming the tool and its arguments;
with it, ``{"tool_name": output}`` (a string, or any JSON value sent as JSON text).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from harness.inputs import InputError, loads_json, read_text
from harness.model import AssistantMessage, ToolCallPart, ToolResultMessage

__all__ = ["ToolScript", "ToolScriptError", "load_tool_script"]


class ToolScriptError(ValueError):
    """An unreadable ``--tool-results`` file; ``str()`` is one line."""


@dataclass(frozen=True)
class ToolScript:
    outputs: dict[str, str] = field(default_factory=lambda: {})

    def output_for(self, call: ToolCallPart) -> str:
        if call.tool_name in self.outputs:
            return self.outputs[call.tool_name]
        return f"Result of {call.tool_name} called with arguments {call.arguments_json or '{}'}"

    def results_for(self, message: AssistantMessage) -> list[ToolResultMessage]:
        """One successful result per tool call, in call order, ids verbatim."""
        return [
            ToolResultMessage(
                call_id=part.call_id,
                tool_name=part.tool_name,
                status="success",
                output_text=self.output_for(part),
            )
            for part in message.parts
            if isinstance(part, ToolCallPart)
        ]


def load_tool_script(path: str | Path | None) -> ToolScript:
    if path is None:
        return ToolScript()
    p = Path(path)
    try:
        data: Any = loads_json(read_text(p), source=str(p))
    except InputError as exc:
        raise ToolScriptError(str(exc)) from None
    if not isinstance(data, dict):
        raise ToolScriptError(f"{p}: expected a JSON object mapping tool name -> output")
    outputs = {
        str(name): value if isinstance(value, str) else json.dumps(value, sort_keys=True)
        for name, value in cast(dict[str, Any], data).items()
    }
    return ToolScript(outputs)
