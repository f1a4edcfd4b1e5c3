"""Hosts of providers the harness has no provider id for yet: their calls are not judged, with why.

Why: a provider that speaks a dialect or a wire of its own, judged by another provider's
schema or not read at all, comes out as rejects or as "not a model call". Each gets its own
provider id (the "Beyond five wires" issues, DESIGN.md); until then a call to its host is
listed as not judged, naming the provider id it waits for. Once that id is a provider of the
harness, the row stops applying and the router's verdict stands. Every row's provider has its
id now (Groq, DeepSeek, Z.ai, Cerebras, Hugging Face, Mistral, Bedrock and Cohere); the rows
stay so that a trimmed PROVIDERS never judges them as something else.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from harness.contract.providers import PROVIDERS

__all__ = ["PENDING", "pending_provider"]

#: (host regex, full match; the pinned provider id it will be judged as).
PENDING: tuple[tuple[str, str], ...] = (
    (r"api\.groq\.com", "groq"),
    (r"api\.deepseek\.com", "deepseek"),
    (r"api\.z\.ai|open\.bigmodel\.cn", "zai"),
    (r"api\.cerebras\.ai", "cerebras"),
    (r"(router|api-inference)\.huggingface\.co", "huggingface"),
    (r"api\.cohere\.(com|ai)", "cohere"),
    (r"bedrock-(runtime|mantle)\.[a-z0-9-]+\.(amazonaws\.com|api\.aws)", "bedrock"),
)


def pending_provider(uri: str) -> str | None:
    """Why a call to ``uri`` is not judged (its provider has no id in the harness yet), or None."""
    host = (urlsplit(uri).hostname or "").lower()
    for pattern, provider in PENDING:
        if provider not in PROVIDERS and re.fullmatch(pattern, host):
            return f"provider '{provider}' ({host}) is not a provider of the harness yet; not judged"
    return None
