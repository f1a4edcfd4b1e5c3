"""Scenarios: thinking in each provider's native format, with REAL tokens."""

# The corpus quotes real model output and tests non-ASCII text on purpose (curly quotes,
# fullwidth punctuation, mathematical letters), so "ambiguous character" warnings are noise here.
# ruff: noqa: RUF001

from __future__ import annotations

from harness.params import CallParams, ThinkingParams, ToolSpec
from harness.scenarios.corpus.common import (
    CLAUDE,
    CODEX,
    GEMINI_3,
    GEMINI_25,
    GPT55,
    OR_CLAUDE,
    OR_O3,
    STR,
)
from harness.scenarios.corpus.real_tokens import (
    ANTHROPIC_SONNET45_SIGNATURE,
    ANTHROPIC_SONNET45_THINKING,
    GEMINI3_CALL_ID,
    GEMINI3_FC_SIGNATURE,
    GEMINI25_REST_OF_ANSWER,
    GEMINI25_SIGNED_TEXT,
    GEMINI25_TEXT_SIGNATURE,
    GEMINI25_THOUGHTS,
    OPENROUTER_CLAUDE45_SIGNATURE,
    OPENROUTER_O3_ANSWER,
    OPENROUTER_O3_ENCRYPTED,
    OPENROUTER_O3_RS_ID,
    RESPONSES_CODEX_ENCRYPTED,
    RESPONSES_CODEX_RS_ID,
    RESPONSES_CODEX_SUMMARY,
    RESPONSES_GPT55_ENCRYPTED,
    RESPONSES_GPT55_RS_ID,
)
from harness.scenarios.dsl import (
    Body,
    assistant,
    call,
    result,
    scenario,
    signature,
    t,
    thinking,
    usage,
    user,
)


@scenario("thinking", "signature-anthropic", "real-tokens", "tools", "tool-single", "tools-given")
def thinking_anthropic_tool_use() -> Body:
    """REAL claude-sonnet-4-5 thinking + signature + tool_use, then the tool result (the recorded turn-2 request, accepted)."""
    get_temperature = call("toolu_01TUGHRCfso8VSw9ekt21nAR", "get_temperature", {"city": "Utrecht"})
    params = CallParams(
        model=CLAUDE,
        max_tokens=4096,
        thinking=ThinkingParams(budget_tokens=1024),
        tools=[
            ToolSpec.model_validate(
                {
                    "name": "get_temperature",
                    "parameters": {
                        "additionalProperties": False,
                        "properties": {"city": STR},
                        "required": ["city"],
                        "type": "object",
                    },
                }
            )
        ],
    )
    return params, [
        user("How warm is it in Utrecht? Use the tool, then answer."),
        assistant(
            thinking(ANTHROPIC_SONNET45_THINKING, CLAUDE),
            signature(ANTHROPIC_SONNET45_SIGNATURE, "anthropic", CLAUDE),
            get_temperature,
            stop="tool_use",
            usage=usage(597, 101, cached=0, cache_creation=0, reasoning=45),
            response_id="msg_011CdoUewPGfNCZ2HiDjJzBP",
        ),
        result(get_temperature, "18°C"),
    ]


CALCULATOR = ToolSpec.model_validate(
    {
        "name": "calculator",
        "description": "A minimal calculator for basic arithmetic. Call it once per step.",
        "parameters": {
            "type": "object",
            "properties": {
                "a": {"type": "number", "description": "First operand."},
                "b": {"type": "number", "description": "Second operand."},
                "op": {
                    "type": "string",
                    "enum": ["add", "subtract", "multiply", "divide"],
                    "default": "add",
                    "description": "Arithmetic operation to perform.",
                },
            },
            "required": ["a", "b", "op"],
            "additionalProperties": False,
        },
    }
)


@scenario("thinking", "signature-openai-responses", "real-tokens", "tools", "tool-single", "tools-given")
def thinking_openai_responses_tool_chain() -> Body:
    """REAL gpt-5.1-codex-max reasoning item (rs_ id, summary, encrypted_content) and fc_ item ids across a 4-response calculator chain."""
    add = call(
        "call_AB6AaRZ1FYZB2RwS6A5vbdqn",
        "calculator",
        '{"a":12,"b":7,"op":"add"}',
        "fc_01830d662ab3856501693c32151234819091cfca267e98cc5f",
    )
    mul3 = call(
        "call_Q6pW65MUgW9vF59BmItYGos3",
        "calculator",
        '{"a":19,"b":3,"op":"multiply"}',
        "fc_01830d662ab3856501693c32165be4819098c08f205f8932ef",
    )
    mul10 = call(
        "call_Zl5vIMnD7dVAjgU6FkhmiCZh",
        "calculator",
        '{"a":57,"b":10,"op":"multiply"}',
        "fc_01830d662ab3856501693c32173d5081908f2121e1c3ff2901",
    )
    params = CallParams(model=CODEX, thinking=ThinkingParams(effort="high"), tools=[CALCULATOR])
    return params, [
        user(
            "Use the calculator one step per call: add 12 and 7, multiply the result by 3, then multiply that by 10."
        ),
        assistant(
            thinking(RESPONSES_CODEX_SUMMARY, CODEX, id=RESPONSES_CODEX_RS_ID),
            signature(RESPONSES_CODEX_ENCRYPTED, "openai-responses", CODEX, id=RESPONSES_CODEX_RS_ID),
            add,
            stop="tool_use",
            usage=usage(134, 28, cached=0, reasoning=0),
            response_id="resp_01830d662ab3856501693c321345c88190b0de00f3b9975691",
        ),
        result(add, "19"),
        assistant(
            mul3,
            stop="tool_use",
            usage=usage(221, 26, cached=0, reasoning=0),
            response_id="resp_01830d662ab3856501693c3215903881909b710d150ff65014",
        ),
        result(mul3, "57"),
        assistant(
            mul10,
            stop="tool_use",
            usage=usage(260, 26, cached=0, reasoning=0),
            response_id="resp_01830d662ab3856501693c3216bef88190bf0e034cff24137b",
        ),
        result(mul10, "570"),
        assistant(
            "The final result is **570**.",
            stop="stop",
            usage=usage(299, 12, cached=0, reasoning=0),
            response_id="resp_01830d662ab3856501693c3217ba4c8190a3ddf6c839d4f12a",
        ),
        user("Now divide that by 4."),
    ]


@scenario("thinking", "signature-google-text", "real-tokens", "system-in-params")
def thinking_google_signature_on_text() -> Body:
    """REAL gemini-2.5-pro thought parts, then a thoughtSignature carried by the first answer text part (stands right after it)."""
    params = CallParams(
        model=GEMINI_25, system="You are a helpful assistant.", thinking=ThinkingParams(include_thoughts=True)
    )
    return params, [
        user("How do I cross the street?"),
        assistant(
            *(thinking(text, GEMINI_25) for text in GEMINI25_THOUGHTS),
            t(GEMINI25_SIGNED_TEXT),
            signature(GEMINI25_TEXT_SIGNATURE, "google", GEMINI_25),
            t(GEMINI25_REST_OF_ANSWER),
            stop="stop",
            usage=usage(34, 1256, reasoning=787),
            response_id="beHBaJfEMIi-qtsP3769-Q8",
        ),
        user("What changes when it is dark outside?"),
    ]


@scenario(
    "thinking",
    "signature-google-function-call",
    "real-tokens",
    "tools",
    "tool-single",
    "tools-given",
    "tool-args-empty-object",
)
def thinking_google_signature_on_function_call() -> Body:
    """REAL gemini-3-pro-preview functionCall with its thoughtSignature right after it, then the function response (recorded turn 2)."""
    get_country = call(GEMINI3_CALL_ID, "get_country", "{}")
    params = CallParams(
        model=GEMINI_3,
        tools=[
            ToolSpec.model_validate(
                {
                    "name": "get_country",
                    "parameters": {"additionalProperties": False, "properties": {}, "type": "object"},
                }
            )
        ],
    )
    return params, [
        user("What is the capital of the user country? Call the tool"),
        assistant(
            get_country,
            signature(GEMINI3_FC_SIGNATURE, "google", GEMINI_3),
            stop="tool_use",
            usage=usage(29, 212, reasoning=202),
            response_id="QUVVadTSNJ6_qtsPvN7J8Q0",
        ),
        result(get_country, "Mexico"),
    ]


@scenario("thinking", "signature-openrouter-anthropic", "real-tokens")
def thinking_openrouter_anthropic_claude_v1() -> Body:
    """REAL OpenRouter anthropic/claude-sonnet-4.5 reasoning text + signature (reasoning_details format anthropic-claude-v1)."""
    params = CallParams(model=OR_CLAUDE, thinking=ThinkingParams())
    return params, [
        user("What is 2+2?"),
        assistant(
            thinking("This is a simple arithmetic question. 2+2 equals 4.", OR_CLAUDE),
            signature(OPENROUTER_CLAUDE45_SIGNATURE, "anthropic-claude-v1", OR_CLAUDE),
            "2 + 2 = 4",
            stop="stop",
            usage=usage(43, 36, cached=0, reasoning=13),
            response_id="gen-1765226419-AGrwjunAftQIAgweibL8",
        ),
        user("And 2+3?"),
    ]


@scenario("thinking", "signature-openrouter-openai", "signature-orphan", "real-tokens")
def thinking_openrouter_openai_responses_v1() -> Body:
    """REAL OpenRouter openai/o3 reasoning.encrypted entry (format openai-responses-v1, rs_ id, no summary text) before the answer."""
    params = CallParams(model=OR_O3)
    return params, [
        user("Who are you"),
        assistant(
            signature(OPENROUTER_O3_ENCRYPTED, "openai-responses-v1", OR_O3, id=OPENROUTER_O3_RS_ID),
            OPENROUTER_O3_ANSWER,
            stop="stop",
            usage=usage(9, 104, cached=0, reasoning=0),
            response_id="gen-1762141316-q3fB64DDMstJO0ZakdSK",
        ),
        user("Can you look things up on the web?"),
    ]


@scenario(
    "thinking",
    "signature-orphan",
    "signature-openai-responses",
    "real-tokens",
    "tools",
    "tool-single",
    "tools-given",
    "system-in-params",
)
def signature_orphan_responses_no_summary() -> Body:
    """REAL gpt-5.5 reasoning item with an empty summary: a lone openai-responses signature (rs_ id) before text and a call."""
    get_capital = call(
        "call_LabG58Uhrq9kZvR52BYKjToD",
        "get_capital",
        '{"country":"PotatoLand"}',
        "fc_0fabc13af1ee0049006a691dff0c1481a1b4a0eec7e3c753bb",
    )
    params = CallParams(
        model=GPT55,
        system="Briefly narrate what you are about to do before calling each tool.",
        tools=[
            ToolSpec.model_validate(
                {
                    "name": "get_capital",
                    "parameters": {
                        "additionalProperties": False,
                        "properties": {"country": STR},
                        "required": ["country"],
                        "type": "object",
                    },
                }
            )
        ],
    )
    return params, [
        user("What is the capital of PotatoLand?"),
        assistant(
            signature(RESPONSES_GPT55_ENCRYPTED, "openai-responses", GPT55, id=RESPONSES_GPT55_RS_ID),
            "I’ll check the capital lookup tool for “PotatoLand.”",
            get_capital,
            stop="tool_use",
            usage=usage(63, 69, cached=0, reasoning=26),
            response_id="resp_0fabc13af1ee0049006a691dfdab8881a1a75f2db7ff78cb83",
        ),
        result(get_capital, "Potato City"),
    ]
