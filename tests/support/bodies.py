"""Bedrock Converse request bodies the oracle and rule tests share (valid against both oracles)."""

from __future__ import annotations

from typing import Any

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
