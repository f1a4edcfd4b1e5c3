"""Call parameters: everything a request needs besides the history (PARAMS.json)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StrictBool

__all__ = ["CallParams", "ForcedTool", "OutputFormat", "ThinkingParams", "ToolChoice", "ToolSpec"]


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ToolSpec(_Params):
    """A function tool: name, description and a JSON Schema for its arguments.

    ``strict`` is the provider's strict-schema flag (OpenAI ``strict``, Anthropic ``strict``);
    None leaves it to the provider's default (docs/import-check-decisions.md#tool-strict).
    """

    name: str
    description: str = ""
    parameters: dict[str, JsonValue] = Field(
        default_factory=lambda: {"type": "object", "properties": {}}  # pyright: ignore[reportUnknownLambdaType]
    )
    strict: StrictBool | None = None


class ThinkingParams(_Params):
    """Reasoning settings, mapped per provider.

    ``budget_tokens`` drives Anthropic and Gemini 2.5 budgets; ``effort`` drives
    OpenAI reasoning effort, OpenRouter ``reasoning.effort`` and Gemini 3 thinking level.
    """

    enabled: StrictBool = True  # strict: "yes" or 1 is an error, never coerced
    budget_tokens: int | None = Field(default=None, ge=0)  # a negative budget is an error, never sent
    effort: Literal["minimal", "low", "medium", "high"] | None = None
    include_thoughts: StrictBool = True


class ForcedTool(_Params):
    """A tool choice that forces one named tool."""

    name: str


#: ``none`` (no tool), ``required`` (some tool), or one named tool; None is the provider's
#: default, ``auto`` (docs/import-check-decisions.md#tool-choice).
ToolChoice = Literal["none", "required"] | ForcedTool


class OutputFormat(_Params):
    """Structured output: the reply is one JSON value, matching ``json_schema`` when it is given.

    No ``json_schema`` is "any JSON object" (OpenAI ``json_object``, Gemini
    ``responseMimeType: application/json`` alone). ``name``, ``description`` and ``strict``
    are OpenAI's ``json_schema`` fields (docs/import-check-decisions.md#output-format).
    """

    json_schema: dict[str, JsonValue] | None = None
    name: str | None = None
    description: str | None = None
    strict: StrictBool | None = None


class CallParams(_Params):
    """Everything about a model call that is not the history: model, system prompt, tools, limits."""

    model: str | None = None
    system: str | None = None
    tools: list[ToolSpec] | None = None
    tool_choice: ToolChoice | None = None
    output_format: OutputFormat | None = None
    max_tokens: int | None = Field(default=None, ge=1)
    thinking: ThinkingParams | None = None
    temperature: float | None = None
    stream: StrictBool = True
