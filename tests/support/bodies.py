"""Request bodies the oracle, rule and registry tests share, each valid for its provider's oracles.

Written from the providers' documentation and published schemas (and, for the dialects and
Cohere, in the shapes the recordings of ``traffic/`` show accepted), never from our adapters,
so the oracles are tested independently of them. ``VALID`` and ``HOSTED`` list each valid body
with the allowances it must trigger; ``RICH`` is one rich body per provider.
"""

from __future__ import annotations

import copy
from typing import Any

Body = dict[str, Any]

# 1x1 transparent PNG.
PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="

BEDROCK: dict[str, Any] = {
    "messages": [
        {"role": "user", "content": [{"text": "Weather in Paris?"}, {"image": {"format": "png", "source": {"bytes": PNG}}}]},
        {"role": "assistant", "content": [
            {"reasoningContent": {"reasoningText": {"text": "Look it up.", "signature": "c2ln"}}},
            {"reasoningContent": {"redactedContent": "cmVkYWN0ZWQ="}},
            {"text": "Checking."},
            {"toolUse": {"toolUseId": "tooluse_1", "name": "get_weather", "input": {"city": "Paris"}}},
        ]},
        {"role": "user", "content": [
            {"toolResult": {"toolUseId": "tooluse_1", "content": [{"text": "boom"}], "status": "error"}},
            {"text": "Try again?"},
        ]},
    ],
    "system": [{"text": "Be brief."}],
    "toolConfig": {
        "tools": [{"toolSpec": {"name": "get_weather", "description": "Weather by city",
                                "inputSchema": {"json": {"type": "object", "properties": {"city": {"type": "string"}}}}}}],
        "toolChoice": {"auto": {}},
    },
    "inferenceConfig": {"maxTokens": 8192, "temperature": 1.0},
    "additionalModelRequestFields": {"thinking": {"type": "enabled", "budget_tokens": 4096}},
}  # fmt: skip

_DIALECT_TOOL = {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}


def dialect_chat(model: str, **extra: Any) -> Body:
    """A dialect's tool loop (a call and its result) for ``model``, with ``extra`` top-level fields."""
    body: Body = {
        "model": model,
        "messages": [
            {"role": "system", "content": "be brief"},
            {"role": "user", "content": "weather?"},
            {"role": "assistant", "tool_calls": [
                {"id": "rHU0eZiMa", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "rHU0eZiMa", "content": "sunny"},
        ],
        "tools": [_DIALECT_TOOL],
        "stream": True,
    }  # fmt: skip
    body.update(extra)
    return body


#: One rich Chat Completions body per OpenAI-compatible dialect, in its own fields.
DIALECT_RICH: dict[str, Body] = {
    "mistral": dialect_chat("mistral-large-latest", tool_choice="any", max_tokens=64),
    "groq": dialect_chat(
        "openai/gpt-oss-120b", reasoning_effort="low", reasoning_format="parsed", max_completion_tokens=64
    ),
    "deepseek": dialect_chat("deepseek-v4-flash", thinking={"type": "enabled"}, max_tokens=64),
    "cerebras": dialect_chat("zai-glm-4.7", reasoning_effort="none", max_completion_tokens=64),
    "zai": dialect_chat("glm-4.7", thinking={"type": "enabled", "clear_thinking": False}, max_tokens=64),
    "huggingface": dialect_chat("deepseek-ai/DeepSeek-R1", max_tokens=64),
}


#: Synthetic, in the shapes traffic/pydantic-ai-more/ (api.cohere.com/v2/chat) and
#: traffic/pydantic-ai/models__test_cohere__test_cohere_model_thinking_part.yaml#1 show accepted.
COHERE: Body = {
    "model": "command-a-reasoning-08-2025",
    "messages": [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": [{"type": "text", "text": "weather?"},
                                     {"type": "image_url", "image_url": {"url": "https://x.test/a.png"}}]},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "use the tool"}],
         "tool_plan": "I will check.",
         "tool_calls": [{"id": "get_weather_9gpb31r7h7mj", "type": "function",
                         "function": {"name": "get_weather", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "get_weather_9gpb31r7h7mj", "content": "sunny"},
    ],
    "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}],
    "strict_tools": True,
    "tool_choice": "REQUIRED",
    "thinking": {"type": "enabled", "token_budget": 1024},
    "max_tokens": 64,
    "temperature": 0.3,
    "stream": True,
}  # fmt: skip


PNG_RGB = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
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
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG_RGB}", "detail": "auto"}},
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
            {"type": "input_image", "image_url": f"data:image/png;base64,{PNG_RGB}", "detail": "auto"},
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
            {"type": "input_image", "image_url": f"data:image/png;base64,{PNG_RGB}", "detail": "low"}]},
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
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG_RGB}},
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
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG_RGB}}]},
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
            {"inlineData": {"mimeType": "image/png", "data": PNG_RGB}},
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
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG_RGB}"}},
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
    "bedrock": BEDROCK,
    **DIALECT_RICH,  # the OpenAI-compatible dialects
    "cohere": COHERE,
}


def with_changes(body: Body, **changes: Any) -> Body:
    """A copy of ``body`` with top-level fields changed (``None``: removed)."""
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
    ("openai-chat-nonstreaming", "openai-chat", with_changes(CHAT, stream=None, stream_options=None), set()),
    ("openai-responses-string-input", "openai-responses", {"model": "gpt-4o", "input": "hi", "stream": False}, set()),
    ("anthropic-minimal", "anthropic",
     {"model": "claude-haiku-4-5", "max_tokens": 16, "messages": [{"role": "user", "content": "hi"}]}, set()),
    ("anthropic-temperature", "anthropic", with_changes(ANTHROPIC, thinking=None, temperature=0.5),
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
    ("openrouter-reasoning-budget", "openrouter", with_changes(OPENROUTER, reasoning={"max_tokens": 2048, "exclude": True}),
     {"openrouter-sdk-reasoning-controls"}),
    ("openrouter-reasoning-enabled", "openrouter", with_changes(OPENROUTER, reasoning={"enabled": True}),
     {"openrouter-sdk-reasoning-controls"}),
    ("openrouter-verbosity", "openrouter", with_changes(OPENROUTER, verbosity="low"), {"openrouter-sdk-verbosity"}),
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
    ("anthropic-top-p-top-k", "anthropic", with_changes(ANTHROPIC, thinking=None, top_p=0.9, top_k=40),
     {"anthropic-sdk-no-sampling"}),
    ("openrouter-route-include-reasoning", "openrouter",
     with_changes(OPENROUTER, route="fallback", models=["a/b", "c/d"], include_reasoning=True),
     {"openrouter-sdk-routing-fields"}),
])  # fmt: skip

# (case id, provider, host, body, allowances it needs): bodies valid on one host only.
VERTEX_BODY: Body = {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "labels": {"team": "a"},
                     "modelArmorConfig": {"promptTemplateName": "projects/p/locations/l/templates/t"}}  # fmt: skip
# The custom tool call item as langchain-openai 1.8.1 sent it back (test_codex_custom_tool.yaml.gz#1, answered 200).
VALID.append((
    "openai-responses-custom-tool-call-status", "openai-responses",
    {"model": "gpt-5.5", "store": False, "input": [
        {"role": "user", "content": "What is 3**3? Use the tool.", "type": "message"},
        {"call_id": "call_WDWil5S7cfIgnSEoQicE5Sbl", "input": "print(3**3)", "name": "execute_code",
         "type": "custom_tool_call", "id": "ctc_0be5b6096ebc9a5e016a0e8d5568dc819a8870c5783ee6c0b7",
         "status": "completed"},
        {"type": "custom_tool_call_output", "call_id": "call_WDWil5S7cfIgnSEoQicE5Sbl", "output": "27"}],
     "tools": [{"type": "custom", "name": "execute_code", "description": "Run Python code."}]},
    {"responses-custom-tool-call-status"},
))  # fmt: skip
# Items as other clients sent them back (traffic/clients2/, each answered 200).
VALID.extend([
    ("openai-responses-assistant-item-without-type", "openai-responses",
     {"model": "gpt-4.1-nano", "input": [
         {"role": "user", "content": "Tell me a joke"},
         {"role": "assistant", "content": [{"type": "output_text", "text": "Why did the chicken cross?"}]},
         {"role": "user", "content": "Another one"}]},
     {"responses-assistant-item-type-optional", "responses-message-id-optional", "responses-message-status-optional",
      "responses-output-text-annotations-optional", "responses-output-text-no-logprobs"}),
    ("openai-responses-input-image-without-detail", "openai-responses",
     {"model": "gpt-4o", "input": [{"role": "user", "content": [
         {"type": "input_text", "text": "Describe it"},
         {"type": "input_image", "image_url": "https://example.com/a.png"}]}]},
     {"responses-input-image-detail-optional"}),
    ("openai-responses-stored-hosted-calls", "openai-responses",
     {"model": "gpt-4.1", "input": [
         {"role": "user", "content": "Draw it", "type": "message"},
         {"type": "image_generation_call", "id": "ig_684db37c3778819eacf271d64895d6050330c5adabe0c42a"},
         {"type": "code_interpreter_call", "id": "ci_685d92cd87f8819c95eb8de32fc3d4540971e611825089f6",
          "container_id": "cntr_685d92c34aa4819180b0c39f10ff14c802dd2cca49a992f7", "code": "print(3**3)",
          "status": "completed"},
         {"role": "user", "content": "Again", "type": "message"}]},
     {"responses-stored-image-result", "responses-stored-call-status", "responses-stored-code-outputs"}),
])  # fmt: skip
HOSTED: list[tuple[str, str, str, Body, set[str]]] = [
    (
        "gemini-vertex-fields",
        "gemini",
        "aiplatform.googleapis.com",
        VERTEX_BODY,
        {"gemini-vertex-request-fields"},
    ),
]
