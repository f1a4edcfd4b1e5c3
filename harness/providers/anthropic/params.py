"""Anthropic request parameters: max_tokens, the thinking budget, temperature, tools and system.

Model facts (defaults, budgets) are in ``profile.py``; the decisions are in DECISIONS.md."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from harness.contract.warning_codes import Code
from harness.mapping.call_controls import fold_effort
from harness.mapping.wire import (
    Prepared,
    Warnings,
)
from harness.params import (
    CallParams,
    ForcedTool,
    OutputFormat,
    ServerToolSpec,
    ThinkingParams,
    ToolChoice,
    ToolSpec,
)
from harness.providers.anthropic.profile import (
    ADAPTIVE_EFFORTS,
    DEFAULT_MAX_TOKENS,
    DEFAULT_THINKING_BUDGET,
    EFFORT_BUDGETS,
    MIN_THINKING_BUDGET,
    THINKING_TOP_P,
)

__all__ = [
    "Thinking",
    "adaptive_effort",
    "given_max_tokens",
    "input_schema",
    "output_config",
    "parallel_tool_use",
    "requested_budget",
    "resolve_tokens",
    "sampling_under_thinking",
    "system_blocks",
    "temperature_value",
    "tool_choice_value",
    "tool_definitions",
]

Json = dict[str, Any]


@dataclass(frozen=True)
class Thinking:
    """The resolved thinking setting: the JSON to send (or None) and whether it is on."""

    config: Json | None
    enabled: bool


def requested_budget(thinking: ThinkingParams) -> int:
    """The budget asked for: explicit, else from effort, else the default."""
    if thinking.budget_tokens is not None:
        return thinking.budget_tokens
    if thinking.effort is not None:
        return EFFORT_BUDGETS[
            fold_effort(thinking.effort, {k: k for k in EFFORT_BUDGETS}, Warnings(), "anthropic")
        ]
    return DEFAULT_THINKING_BUDGET


def given_max_tokens(params: CallParams, warnings: Warnings) -> int | None:
    """The caller's ``max_tokens`` if valid (the spec's minimum is 0)."""
    if params.max_tokens is not None and params.max_tokens < 0:
        warnings.add(
            None, None, None, Code.MAX_TOKENS_INVALID, f"max_tokens {params.max_tokens} < 0; default used"
        )
        return None
    return params.max_tokens


def resolve_tokens(params: CallParams, loop_blocked: bool, warnings: Warnings) -> tuple[int, Thinking]:
    """``max_tokens`` and the thinking config, keeping 1024 <= budget_tokens < max_tokens.

    Implements CreateMessageParams.max_tokens (required) and ThinkingConfigEnabled;
    ``loop_blocked`` is field lesson 3 (see ``_tool_loop_needs_thinking``).
    """
    thinking = params.thinking
    max_tokens = given_max_tokens(params, warnings)
    off = (DEFAULT_MAX_TOKENS if max_tokens is None else max_tokens), Thinking({"type": "disabled"}, False)
    if thinking is None:
        return off[0], Thinking(None, False)
    if not thinking.enabled:
        return off
    if loop_blocked:
        warnings.add(
            None,
            None,
            None,
            Code.THINKING_DISABLED,
            "the open tool-use turn does not start with a native thinking block (lost or foreign); "
            "thinking is disabled for this request, as Anthropic would reject it",
        )
        return off
    if thinking.adaptive:
        # ThinkingConfigAdaptive: the model decides how much to think; effort goes in
        # output_config.effort (adaptive_effort), a budget is not taken.
        if thinking.budget_tokens is not None:
            warnings.add(
                None,
                None,
                None,
                Code.THINKING_BUDGET_IGNORED,
                "adaptive thinking takes no token budget; budget_tokens not sent",
            )
        adaptive: Json = {"type": "adaptive"}
        if not thinking.include_thoughts:
            adaptive["display"] = "omitted"
        return (DEFAULT_MAX_TOKENS if max_tokens is None else max_tokens), Thinking(adaptive, True)
    budget = requested_budget(thinking)
    explicit = thinking.budget_tokens is not None
    if budget < MIN_THINKING_BUDGET:
        if explicit:
            warnings.add(
                None, None, None, Code.THINKING_BUDGET_RAISED, f"budget_tokens {budget} raised to 1024"
            )
        budget = MIN_THINKING_BUDGET
    if max_tokens is None:
        max_tokens = budget + DEFAULT_MAX_TOKENS
    elif budget >= max_tokens:
        if max_tokens - 1 < MIN_THINKING_BUDGET:
            warnings.add(
                None,
                None,
                None,
                Code.THINKING_DISABLED,
                f"max_tokens {max_tokens} leaves no room for the minimum thinking budget of 1024",
            )
            return off
        if explicit:
            warnings.add(
                None,
                None,
                None,
                Code.THINKING_BUDGET_CLAMPED,
                f"budget_tokens {budget} must be below max_tokens {max_tokens}; sent {max_tokens - 1}",
            )
        budget = max_tokens - 1
    config: Json = {"type": "enabled", "budget_tokens": budget}
    if not thinking.include_thoughts:
        config["display"] = "omitted"
    return max_tokens, Thinking(config, True)


def input_schema(tool: ToolSpec, warnings: Warnings) -> Json:
    """Tool.input_schema must be an object schema (``type: "object"``)."""
    schema: Json = dict(tool.parameters)
    kind = schema.get("type")
    if kind == "object":
        return schema
    if kind is None:
        warnings.add(
            None,
            None,
            None,
            Code.TOOL_SCHEMA_DEGRADED,
            f"tool '{tool.name}' schema has no type; sent as an object",
        )
        return {"type": "object", **schema}
    warnings.add(
        None,
        None,
        None,
        Code.TOOL_SCHEMA_DEGRADED,
        f"tool '{tool.name}' schema has type {kind!r}, not object; sent a permissive object schema",
    )
    return {"type": "object", "properties": {}, "additionalProperties": True}


def tool_definitions(tools: Sequence[ToolSpec], warnings: Warnings) -> list[Json]:
    """Client tool definitions (spec ``Tool``): name, description, input_schema."""
    out: list[Json] = []
    seen: set[str] = set()
    for tool in tools:
        if tool.name in seen:
            warnings.add(
                None, None, None, Code.TOOL_DUPLICATE, f"second definition of tool '{tool.name}' dropped"
            )
            continue
        seen.add(tool.name)
        spec: Json = {"name": tool.name, "input_schema": input_schema(tool, warnings)}
        if tool.description:
            spec["description"] = tool.description
        if tool.strict is not None:
            spec["strict"] = tool.strict
        if tool.defer_loading is not None:  # loaded only when tool search finds it
            spec["defer_loading"] = tool.defer_loading
        if tool.allowed_callers is not None:  # programmatic tool calling: code execution may call it
            spec["allowed_callers"] = list(tool.allowed_callers)
        out.append(spec)
    return out


#: Anthropic's current type for each provider-neutral server tool kind another provider declared
#: (https://docs.claude.com/en/docs/agents-and-tools/tool-use/web-search-tool, web-fetch-tool,
#: code-execution-tool); the options each takes are copied, the others named in a warning.
SERVER_TOOL_TYPES: dict[str, tuple[str, str, tuple[str, ...]]] = {
    "web_search": (
        "web_search_20250305",
        "web_search",
        ("allowed_domains", "blocked_domains", "max_uses", "user_location"),
    ),
    "web_fetch": ("web_fetch_20250910", "web_fetch", ("allowed_domains", "blocked_domains", "max_uses")),
    "code_execution": ("code_execution_20250825", "code_execution", ()),
    # finds the deferred tools (recorded accepted beside them:
    # traffic/pydantic-ai/models__test_anthropic__test_anthropic_lazy_advertisement_live.yaml#0)
    "tool_search": ("tool_search_tool_bm25_20251119", "tool_search_tool_bm25", ()),
}


def server_tool_definition(spec: ServerToolSpec) -> Json | None:
    """Another provider's server tool declared as Anthropic's own kind, or None when it has none."""
    known = SERVER_TOOL_TYPES.get(spec.kind)
    if known is None:
        return None
    kind, name, options = known
    out: Json = {"type": kind, "name": name}
    for option in options:
        value = getattr(spec, option)
        if value is not None:
            out[option] = value
    return out


def tool_choice_value(choice: ToolChoice | None, thinking: Thinking, warnings: Warnings) -> Json | None:
    """ToolChoiceNone / ToolChoiceAny / ToolChoiceTool; None (auto) sends nothing.

    With extended thinking Anthropic accepts only ``auto`` and ``none`` ("Thinking may not be
    enabled when tool_choice forces tool use"): a forced choice is then not sent, with a warning.
    Adaptive thinking takes a forced choice (recorded accepted: ``any`` with adaptive thinking on
    claude-opus-4-6, models__test_anthropic__test_anthropic_opus_46_adaptive_thinking_accepts_tool_output).
    """
    if choice is None:
        return None
    if choice == "none":
        return {"type": "none"}
    adaptive = thinking.config is not None and thinking.config.get("type") == "adaptive"
    if thinking.enabled and not adaptive:
        warnings.add(
            None,
            None,
            None,
            Code.TOOL_CHOICE_NOT_SENT,
            "Anthropic allows only auto and none tool choices with extended thinking; forced choice not sent",
        )
        return None
    if isinstance(choice, ForcedTool):
        return {"type": "tool", "name": choice.name}
    return {"type": "any"}


def adaptive_effort(thinking: ThinkingParams | None, warnings: Warnings) -> Json:
    """``output_config.effort`` with adaptive thinking (recorded accepted: ``high`` on
    claude-opus-4-6, ``xhigh`` on claude-opus-4-7); a level Anthropic lacks folds to the nearest."""
    if thinking is None or not thinking.adaptive or not thinking.enabled or thinking.effort is None:
        return {}
    return {"effort": fold_effort(thinking.effort, {e: e for e in ADAPTIVE_EFFORTS}, warnings, "anthropic")}


def output_config(fmt: OutputFormat | None, warnings: Warnings) -> Json | None:
    """OutputConfig.format (JsonOutputFormat: ``json_schema`` with its schema, which is required).

    Anthropic has no schema-less JSON mode: "any JSON object" is not sent, with a warning.
    """
    if fmt is None:
        return None
    if fmt.json_schema is None:
        warnings.add(
            None,
            None,
            None,
            Code.OUTPUT_FORMAT_NOT_SENT,
            "Anthropic structured output needs a JSON Schema; JSON output without a schema not sent",
        )
        return None
    return {"format": {"type": "json_schema", "schema": fmt.json_schema}}


def system_blocks(prepared: Prepared) -> list[Json]:
    """System prompt as text blocks, one per collected entry (``system``: RequestTextBlock[])."""
    blocks: list[Json] = []
    for index, text in prepared.system:
        if text.strip():
            blocks.append({"type": "text", "text": text})
        else:
            prepared.warnings.add(index, None, "text", Code.EMPTY_TEXT, "whitespace-only system text dropped")
    return blocks


def temperature_value(params: CallParams, thinking: Thinking, warnings: Warnings) -> float | None:
    """``temperature`` is 0..1, and must be 1 (or unset) while thinking is on."""
    value = params.temperature
    if value is None:
        return None
    if not math.isfinite(value):
        warnings.add(
            None, None, None, Code.TEMPERATURE_DROPPED, f"temperature {value} is not a number; not sent"
        )
        return None
    if thinking.enabled and value != 1:
        warnings.add(
            None,
            None,
            None,
            Code.TEMPERATURE_DROPPED,
            "Anthropic requires temperature 1 with thinking; not sent",
        )
        return None
    clamped = min(1.0, max(0.0, value))
    if clamped != value:
        warnings.add(
            None, None, None, Code.TEMPERATURE_CLAMPED, f"temperature {value} clamped to Anthropic's 0..1"
        )
    return clamped


def parallel_tool_use(
    choice: Json | None, params: CallParams, tools: Sequence[ToolSpec], warnings: Warnings
) -> Json | None:
    """``parallel_tool_calls: false`` is ``disable_parallel_tool_use: true`` on the tool choice
    (ToolChoiceAuto / Any / Tool; docs: agents-and-tools/tool-use/implement-tool-use#parallel-tool-use).

    ToolChoiceNone has no such field: with no tool to call, there is nothing to serialise. True
    is the API's default and is not sent.
    """
    if params.parallel_tool_calls is not False:
        return choice
    if not tools:
        warnings.add(
            None, None, None, Code.CONTROL_NOT_SENT, "parallel_tool_calls given without tools; not sent"
        )
        return choice
    if choice is not None and choice.get("type") == "none":
        return choice
    return {**(choice or {"type": "auto"}), "disable_parallel_tool_use": True}


def sampling_under_thinking(params: CallParams, thinking: Thinking, warnings: Warnings) -> CallParams:
    """With extended thinking Anthropic takes no ``top_k`` and ``top_p`` only in 0.95..1 (docs:
    build-with-claude/extended-thinking, "Feature compatibility"): the params to map, repaired."""
    if not thinking.enabled:
        return params
    update: dict[str, Any] = {}
    if params.top_k is not None:
        warnings.add(
            None, None, None, Code.CONTROL_NOT_SENT, "Anthropic takes no top_k with thinking; not sent"
        )
        update["top_k"] = None
    low, high = THINKING_TOP_P
    if params.top_p is not None and not low <= params.top_p <= high:
        clamped = min(high, max(low, params.top_p))
        warnings.add(
            None,
            None,
            None,
            Code.CONTROL_CLAMPED,
            f"top_p {params.top_p} clamped to {clamped}: Anthropic takes {low}..{high} with thinking",
        )
        update["top_p"] = clamped
    return params.model_copy(update=update) if update else params
