"""Scenarios: request-level controls (tool strict flags, tool choice, structured output).

Each one sets a ``CallParams`` field the adapters once ignored silently
(docs/import-check-decisions.md#tool-strict, #tool-choice, #output-format), so the goldens
show every provider's documented form, or the warning where a provider has none.
"""

from __future__ import annotations

from harness.model import CacheBreakpoint, TextPart
from harness.params import CallParams, ForcedTool, OutputFormat, ToolSpec
from harness.scenarios.corpus.common import STR
from harness.scenarios.dsl import Body, assistant, call, result, scenario, tool, usage, user

_WEATHER = tool("get_weather", "Current weather for a city.", {"city": STR}, ["city"])
_CITY_SCHEMA: dict[str, object] = {
    "type": "object",
    "properties": {"city": STR, "country": STR},
    "required": ["city", "country"],
    "additionalProperties": False,
}


def _strict(spec: ToolSpec, flag: bool) -> ToolSpec:
    """The tool with its strict flag; a strict schema closes its object (OpenAI and Anthropic require it)."""
    parameters = {**spec.parameters, "additionalProperties": False} if flag else spec.parameters
    return spec.model_copy(update={"strict": flag, "parameters": parameters})


@scenario("tool-strict", "tool-choice")
def tool_strict_required_choice() -> Body:
    """One strict and one non-strict tool, and a tool call required: each provider's strict flag and "any tool"."""
    lookup = tool("lookup_city", "Look a city up by name.", {"name": STR}, ["name"])
    params = CallParams(tools=[_strict(_WEATHER, True), _strict(lookup, False)], tool_choice="required")
    return params, [user("What's the weather in Paris?")]


@scenario("tool-choice")
def tool_choice_forced_tool() -> Body:
    """A forced tool whose name breaks OpenAI's name rule: the choice names the tool as it is sent (mapped)."""
    read = tool("files.read", "Read a file.", {"path": STR}, ["path"])
    params = CallParams(tools=[_WEATHER, read], tool_choice=ForcedTool(name="files.read"))
    return params, [user("Show me README.md.")]


@scenario("tools", "tools-given", "tool-single", "tool-choice")
def tool_choice_none_after_result() -> Body:
    """Tool choice none after a tool round: the model must answer in text (Anthropic none, Gemini NONE)."""
    paris = call("call_Wx1Pa2Ri3Sx4", "get_weather", {"city": "Paris"})
    return CallParams(tools=[_WEATHER], tool_choice="none"), [
        user("What's the weather in Paris?"),
        assistant(paris, stop="tool_use", usage=usage(40, 12)),
        result(paris, "18°C, light rain"),
    ]


@scenario("output-format")
def output_format_json_schema() -> Body:
    """Structured output with a named strict JSON Schema: response_format, text.format, output_config, responseJsonSchema."""
    fmt = OutputFormat.model_validate({"json_schema": _CITY_SCHEMA, "name": "city_answer", "strict": True})
    return CallParams(output_format=fmt), [user("What is the largest city in Mexico?")]


@scenario("output-format")
def output_format_json_object() -> Body:
    """JSON output without a schema: json_object / application/json; Anthropic has no such mode (warned, not sent)."""
    return CallParams(output_format=OutputFormat()), [user("Give me Mexico's largest city as a JSON object.")]


@scenario("tools", "tools-given", "tool-single", "call-controls")
def sampling_and_tool_controls() -> Body:
    """Every sampling control, stop sequences, a seed, parallel tool calls off and a service tier:
    each provider's own field name and range, or control-not-sent where it has none."""
    paris = call("call_Wx1Pa2Ri3Sx4", "get_weather", {"city": "Paris"})
    params = CallParams(
        tools=[_WEATHER],
        top_p=0.9,
        top_k=40,
        presence_penalty=0.5,
        frequency_penalty=0.25,
        stop=["\n\nUser:"],
        seed=42,
        parallel_tool_calls=False,
        service_tier="default",
    )
    return params, [
        user("What's the weather in Paris?"),
        assistant(paris, stop="tool_use", usage=usage(40, 12)),
        result(paris, "18°C, light rain"),
    ]


@scenario("tools", "tools-given", "tool-single", "cache-breakpoints", "system-in-params")
def cache_breakpoints_agent_loop() -> Body:
    """Prompt-cache breakpoints after the tools and the system prompt (1 h, longer lifetimes first),
    the user turn (5 min) and the latest tool result: Anthropic cache_control, Bedrock cachePoint,
    and cache-breakpoint-automatic where the provider caches on its own."""
    paris = call("call_Wx1Pa2Ri3Sx4", "get_weather", {"city": "Paris"})
    weather = _WEATHER.model_copy(update={"cache_breakpoint": CacheBreakpoint(ttl="1h")})
    params = CallParams(
        system="You are a weather assistant. Answer in one sentence.",
        system_cache_breakpoint=CacheBreakpoint(ttl="1h"),
        tools=[weather],
    )
    ask = user(TextPart(text="What's the weather in Paris?", cache_breakpoint=CacheBreakpoint(ttl="5m")))
    answer = result(paris, "18°C, light rain").model_copy(update={"cache_breakpoint": CacheBreakpoint()})
    return params, [ask, assistant(paris, stop="tool_use", usage=usage(40, 12)), answer]


@scenario("server-state")
def server_state_continuation() -> Body:
    """A Responses turn that continues a stored response by reference: only the new turn is sent,
    with previous_response_id and store; other providers keep no server-side state (warned)."""
    params = CallParams(
        model="gpt-5",
        previous_response_id="resp_68c1f0a2b3c4d5e6",
        store=True,
        include=["reasoning.encrypted_content"],
    )
    return params, [user("And tomorrow?")]
