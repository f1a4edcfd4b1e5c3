"""Model calls the harness recognises but does not judge, each with why: never silently skipped.

Why: a recording holds text-generation calls to APIs whose wire the harness has no oracle
or rules for (ollama's native API, legacy text completions, Cohere's v1 chat, Writer,
Replicate, Bedrock InvokeModel for model families other than Anthropic's Messages). Judged
by another wire's checks they would come out as rejects; left out they would look like
"not a model call". Each is listed as not judged with the wire it is in, so a report says
how much of a recording the verdicts cover.

``not_judged(method, uri, body)`` is consulted before the router's verdict.
"""

from __future__ import annotations

import re
from typing import Any, cast
from urllib.parse import unquote, urlsplit

from harness.contract.routing import bedrock_invoke_model

__all__ = ["not_judged"]

_LOCAL = ("localhost", "127.0.0.1", "0.0.0.0", "::1")

#: (host regex or "" for any host, path regex, what the call is). Full matches, path without a trailing /.
_ENDPOINTS: tuple[tuple[str, str, str], ...] = (
    # ollama's native API (github.com/ollama/ollama/blob/main/docs/api.md): its own message and
    # option shapes; its OpenAI-compatible /v1/chat/completions is judged as a Chat server.
    ("", r"/api/(chat|generate)", "ollama's native API (/api/chat, /api/generate)"),
    # OpenAI's legacy Completions (/v1/completions: prompt in, text out) and Anthropic's legacy
    # Text Completions (/v1/complete): no messages, no tools; the harness judges chat wires only.
    ("", r"(/openai)?(/v1)?/completions", "a legacy text completion (prompt, no messages: /v1/completions)"),
    (r"api\.anthropic\.com", r"/v1/complete", "Anthropic's legacy Text Completions (/v1/complete)"),
    (r"api\.cohere\.(com|ai)", r"/v1/(chat|generate)", "Cohere's v1 API (the harness judges v2 Chat)"),
    (r"api\.writer\.com", r"/v1/(chat|completions)", "Writer's API (no oracle or rules in the harness)"),
    (r"([a-z0-9-]+\.)*replicate\.(com|net)", r".*", "Replicate's predictions API (no chat wire)"),
    (r"api\.portkey\.ai", r"/v1/prompts/.*", "Portkey's prompt templates (the body names a stored prompt)"),
)

#: Bedrock InvokeModel bodies by model family (the id after the region prefix): the family's own format.
_INVOKE_FAMILIES = {
    "amazon": "Amazon's (Titan or Nova) InvokeModel body",
    "meta": "Meta Llama's InvokeModel body",
    "mistral": "Mistral's InvokeModel body",
    "cohere": "Cohere's InvokeModel body",
    "ai21": "AI21's InvokeModel body",
    "deepseek": "DeepSeek's InvokeModel body",
    "writer": "Writer's InvokeModel body",
    "qwen": "Qwen's InvokeModel body",
    "openai": "OpenAI's gpt-oss InvokeModel body",
}


def _invoke(url: str, body: Any) -> str | None:
    model = bedrock_invoke_model(url)
    if model is None:
        return None
    family = re.sub(r"^(arn:.*/)?((us|eu|apac|global|us-gov|jp|au|ca)\.)?", "", model).split(".", 1)[0]
    request = cast(dict[str, Any], body) if isinstance(body, dict) else {}
    if family == "anthropic":
        if "prompt" in request and "messages" not in request:
            return (
                "Bedrock InvokeModel with Anthropic's legacy Text Completions body (prompt, "
                "max_tokens_to_sample): only the Messages body is judged"
            )
        return None
    what = _INVOKE_FAMILIES.get(family, f"a Bedrock InvokeModel body for model {model!r}")
    return f"{what}: the harness judges Anthropic's Messages body on InvokeModel, and Converse"


def not_judged(method: str, uri: str, body: Any) -> str | None:
    """Why this call is a model call the harness does not judge, or None (judged, or not a model call)."""
    if method.upper() != "POST":
        return None
    parts = urlsplit(uri)
    host = (parts.hostname or "").lower()
    path = unquote(parts.path).rstrip("/")
    if host.startswith("bedrock-runtime"):
        return _invoke(uri, body)
    for host_pattern, path_pattern, what in _ENDPOINTS:
        if (not host_pattern or re.fullmatch(host_pattern, host)) and re.fullmatch(path_pattern, path):
            where = "a local server" if host in _LOCAL else host
            return f"{what} at {where}: not judged"
    return None
