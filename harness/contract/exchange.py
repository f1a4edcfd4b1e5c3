"""One recorded HTTP exchange: what replay, the audit and the judges pass around."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Exchange"]

_MODEL_PATHS = re.compile(
    r"/(chat/completions|responses|messages)(\?|$)|:(stream)?[gG]enerateContent(\?|$)"
    r"|/model/[^/]+/converse(-stream)?(\?|$)"  # AWS Bedrock Converse / ConverseStream
    # Bedrock InvokeModel[WithResponseStream] of an Anthropic model (harness.contract.routing)
    r"|/model/([^/]*[./])?anthropic\.[^/]*/invoke(-with-response-stream)?(\?|$)"
    r"|/v2/chat(\?|$)"  # Cohere v2 Chat
)


@dataclass
class Exchange:
    """One recorded HTTP exchange (or a bare response body, with a synthetic request)."""

    method: str
    uri: str
    request_body: Any
    status: int
    headers: dict[str, list[str]] = field(default_factory=dict[str, list[str]])
    body: bytes = b""

    def header(self, name: str) -> str:
        for key, values in self.headers.items():
            if key.lower() == name.lower() and values:
                return values[0]
        return ""

    @property
    def is_model_call(self) -> bool:
        return self.method.upper() == "POST" and _MODEL_PATHS.search(self.uri) is not None
