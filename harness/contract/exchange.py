"""One recorded HTTP exchange: what replay, the audit and the judges pass around."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Exchange"]

#: The end of a model call's path: a query, a fragment (the mistralai SDK's ``#stream``, as vcrpy
#: stores the URL it was given: a fragment is never sent), or nothing.
_END = r"([?#]|$)"
_MODEL_PATHS = re.compile(
    rf"/(chat/completions|responses|messages){_END}|:(stream)?[gG]enerateContent{_END}"
    rf"|/model/[^/]+/converse(-stream)?{_END}"  # AWS Bedrock Converse / ConverseStream
    # Bedrock InvokeModel[WithResponseStream] of an Anthropic model (harness.contract.routing)
    rf"|/model/([^/]*[./])?anthropic\.[^/]*/invoke(-with-response-stream)?{_END}"
    rf"|/v2/chat{_END}"  # Cohere v2 Chat
)


@dataclass
class Exchange:
    """One recorded HTTP exchange (or a bare response body, with a synthetic request)."""

    method: str
    uri: str
    request_body: Any
    status: int
    headers: dict[str, list[str]] = field(default_factory=lambda: {})
    body: bytes = b""

    def header(self, name: str) -> str:
        for key, values in self.headers.items():
            if key.lower() == name.lower() and values:
                return values[0]
        return ""

    @property
    def is_model_call(self) -> bool:
        return self.method.upper() == "POST" and _MODEL_PATHS.search(self.uri) is not None
