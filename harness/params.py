"""Call parameters: everything a request needs besides the history (PARAMS.json)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, StrictBool

from harness.model import CacheBreakpoint

__all__ = [
    "CacheBreakpoint",
    "CallParams",
    "Effort",
    "ForcedTool",
    "McpServer",
    "OutputFormat",
    "ServerToolSpec",
    "ThinkingParams",
    "ToolChoice",
    "ToolSpec",
]


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
    defer_loading: StrictBool | None = None
    namespace: str | None = None
    #: Who may call it (Anthropic programmatic tool calling: ``direct``, or a code execution tool
    #: type such as ``code_execution_20250825``); None: the model directly, the default.
    allowed_callers: list[str] | None = None

    #: The prompt cache ends after this definition (tools come first in the cached prefix).
    cache_breakpoint: CacheBreakpoint | None = None


class McpServer(_Params):
    """A remote MCP server a provider calls itself. ``authorization`` and ``headers`` are
    credentials: recordings scrub them and ``harness scan`` reports them."""

    name: str | None = None
    url: str | None = None
    authorization: str | None = None
    headers: dict[str, str] | None = None
    allowed_tools: list[str] | None = None


class ServerToolSpec(_Params):
    """A tool the provider executes itself, declared for a call.

    ``kind`` is the provider-neutral kind (``web_search``, ``web_fetch``, ``code_execution``,
    ``tool_search``, ``mcp``, ``file_search``, ``image_generation``, ``url_context``, or the
    provider's own type name for anything else); ``provider`` whose definition ``raw`` is (the
    provider's own definition object, sent back byte-exact to that provider). The configuration
    fields are the kind's options read off ``raw``, so another provider's adapter can map the
    tool to its own definition or say why not. ``position`` is where the definition stood in the
    provider's tool list (function tools and server tools interleave there); None puts it after
    the function tools. ``slot`` names a top-level list other than ``tools`` that holds it
    (Anthropic ``mcp_servers``).
    """

    kind: str
    provider: str
    name: str | None = None
    allowed_domains: list[str] | None = None
    blocked_domains: list[str] | None = None
    max_uses: int | None = None
    user_location: dict[str, JsonValue] | None = None
    container: JsonValue = None
    mcp_server: McpServer | None = None
    defer_loading: StrictBool | None = None
    position: int | None = None
    slot: str | None = None
    raw: dict[str, JsonValue] | None = None


#: Reasoning effort, the union of the providers' scales (OpenAI ``none``..``xhigh``, Anthropic
#: ``output_config.effort`` ``low``..``max``); each adapter maps it into its own range or warns.
Effort = Literal["none", "minimal", "low", "medium", "high", "xhigh", "max"]


class ThinkingParams(_Params):
    """Reasoning settings, mapped per provider.

    ``budget_tokens`` drives Anthropic and Gemini 2.5 budgets; ``effort`` drives
    OpenAI reasoning effort, OpenRouter ``reasoning.effort``, Anthropic ``output_config.effort``
    and Gemini 3 thinking level. ``adaptive``: the model decides how much to think (Anthropic
    ``thinking.type: "adaptive"``). ``summary``: the detail of the reasoning summary shown when
    ``include_thoughts`` (None: ``auto``; Responses ``reasoning.summary``). ``context``: which
    earlier turns' reasoning the model sees again (Responses ``reasoning.context``; None: auto).
    """

    enabled: StrictBool = True  # strict: "yes" or 1 is an error, never coerced
    budget_tokens: int | None = Field(default=None, ge=0)  # a negative budget is an error, never sent
    effort: Effort | None = None
    include_thoughts: StrictBool = True
    adaptive: StrictBool | None = None
    summary: Literal["concise", "detailed"] | None = None
    context: Literal["auto", "current_turn", "all_turns"] | None = None


class ForcedTool(_Params):
    """A tool choice that forces one named tool."""

    name: str


#: ``none`` (no tool), ``required`` (some tool), ``validated`` (text or a tool call, the call
#: held to its schema: Gemini ``VALIDATED``), or one named tool; None is the provider's
#: default, ``auto`` (docs/import-check-decisions.md#tool-choice).
ToolChoice = Literal["none", "required", "validated"] | ForcedTool


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
    """Everything about a model call that is not the history: model, system prompt, tools, limits,
    sampling, tool choice, reasoning, caching, server-side state and server tools.

    Every optional field's None is the provider's documented default: it is never sent. Each
    adapter maps a field to its provider's native name and range, or warns with a named code
    where the provider has no such control (docs/mapping-decisions.md#call-controls).

    - Sampling: ``top_p``, ``top_k``, ``presence_penalty``, ``frequency_penalty``, ``stop``
      (stop sequences), ``seed``.
    - Tool choice: ``allowed_tools`` (the tools the model may call this turn, a subset of
      ``tools``, which stay declared for the cache), ``parallel_tool_calls`` (on / off).
    - ``service_tier``: the provider's own tier name (``flex``, ``priority``, ``on_demand``...).
    - ``provider_settings``: safety, guardrail and routing settings with no common form, as
      the provider's own top-level body fields (``safetySettings``, ``guardrailConfig``,
      ``moderation``, OpenRouter ``provider``...); sent only to a provider whose profile names
      the field, warned elsewhere.
    - Caching: ``system_cache_breakpoint`` (the cache ends after the system prompt),
      ``cache_breakpoint`` (the provider places one breakpoint itself: Anthropic's top-level
      ``cache_control``), ``cache_key`` (OpenAI ``prompt_cache_key``), ``cache_retention``
      (OpenAI ``prompt_cache_retention``), ``cached_content`` (a reference to content cached
      beforehand: Gemini ``cachedContent``; what it holds is not sent again).
    - Server-side state (Responses): ``previous_response_id`` or ``conversation`` (the history
      sent is only the turns after it), ``store``, ``background``, ``include``.
    - Server tools: ``server_tools`` are the provider-executed tools of the call; ``container``
      the provider's code-execution container (Anthropic's top-level ``container``: an id or an
      object), reused across calls so that files a tool wrote stay reachable;
      ``server_tool_invocations`` asks the provider to return its server tools' calls and
      responses as parts (Gemini ``toolConfig.includeServerSideToolInvocations``), so that they
      can be sent back.
    """

    model: str | None = None
    system: str | None = None
    tools: list[ToolSpec] | None = None
    server_tools: list[ServerToolSpec] | None = None
    container: JsonValue = None
    server_tool_invocations: StrictBool | None = None
    tool_choice: ToolChoice | None = None
    output_format: OutputFormat | None = None
    max_tokens: int | None = Field(default=None, ge=1)
    thinking: ThinkingParams | None = None
    temperature: float | None = None
    stream: StrictBool = True
    top_p: float | None = None
    top_k: int | None = Field(default=None, ge=0)
    presence_penalty: float | None = None
    frequency_penalty: float | None = None
    stop: list[str] | None = None
    seed: int | None = None
    allowed_tools: list[str] | None = None
    parallel_tool_calls: StrictBool | None = None
    service_tier: str | None = None
    provider_settings: dict[str, JsonValue] | None = None
    system_cache_breakpoint: CacheBreakpoint | None = None
    cache_breakpoint: CacheBreakpoint | None = None
    cache_key: str | None = None
    cache_retention: str | None = None
    cached_content: str | None = None
    previous_response_id: str | None = None
    conversation: str | None = None
    store: StrictBool | None = None
    background: StrictBool | None = None
    include: list[str] | None = None
