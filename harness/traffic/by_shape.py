"""The wire of a recorded model call whose URL was redacted, read from the body's shape.

Why: LangChain's cassettes replace the request URI of its OpenAI calls (and some Anthropic
ones) with ``**REDACTED**`` (``langchain_tests`` conftest, ``CustomSerializer``), so 182 of
its 248 calls carry no host. The body still says which wire it is in; the router
(``harness.contract.routing``) decides by URL alone, so a call with no URL is routed here,
and every report says so in a ``note:`` (a route by shape cannot tell OpenAI from an
OpenAI-compatible host, nor Anthropic's API from Bedrock's, so it is the wire's first-party
provider).

The shapes, each a required part of the wire's own request:

- Responses: ``input`` (a string or a list of items) and no ``messages``;
- Gemini: ``contents``;
- Bedrock Converse: ``messages`` whose content blocks have no ``type`` (``{"text": ...}``),
  or ``inferenceConfig``;
- Anthropic Messages: ``messages`` with ``max_tokens`` (required there, optional in Chat)
  and either an ``anthropic-version`` request header (its name survives the redaction of
  its value) or a field only Anthropic has (``system`` as a list of blocks, a content block
  of Anthropic's own types, ``thinking`` as an object);
- Chat Completions: ``messages`` otherwise.
"""

from __future__ import annotations

from typing import Any, cast
from urllib.parse import urlsplit

from harness.contract.routing import Route

__all__ = ["has_no_url", "route_by_shape"]

#: Content block types only Anthropic's Messages wire has (Chat's are text, image_url,
#: input_audio, file, refusal).
_ANTHROPIC_BLOCKS = frozenset(
    {"tool_use", "tool_result", "thinking", "redacted_thinking", "document", "image", "server_tool_use",
     "search_result", "container_upload", "mcp_tool_use", "mcp_tool_result"}
)  # fmt: skip


def has_no_url(uri: str) -> bool:
    """The recorded URI names no host (redacted, or not a URL at all)."""
    return not urlsplit(uri).hostname


def _blocks(messages: list[Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for m in messages:
        content = cast(dict[str, Any], m).get("content") if isinstance(m, dict) else None
        if isinstance(content, list):
            out += [cast(dict[str, Any], b) for b in cast(list[Any], content) if isinstance(b, dict)]
    return out


def _anthropic(body: dict[str, Any], blocks: list[dict[str, Any]], headers: dict[str, list[str]]) -> bool:
    if "max_tokens" not in body:
        return False
    if any(k.lower() == "anthropic-version" or k.lower() == "anthropic-beta" for k in headers):
        return True
    return (
        isinstance(body.get("system"), list)
        or isinstance(body.get("thinking"), dict)
        or any(b.get("type") in _ANTHROPIC_BLOCKS for b in blocks)
    )


def route_by_shape(method: str, body: Any, headers: dict[str, list[str]]) -> Route | None:
    """The route of a POST whose URL names no host, from its body; None when no wire's shape fits."""
    if method.upper() != "POST" or not isinstance(body, dict):
        return None
    request = cast(dict[str, Any], body)
    why = "URL redacted: routed by the body's shape"
    if "contents" in request:
        return Route("gemini", "gemini", f"{why} (contents)")
    messages: Any = request.get("messages")
    if "input" in request and messages is None:
        return Route("openai-responses", "openai-responses", f"{why} (input)")
    if not isinstance(messages, list):
        return None
    blocks = _blocks(cast(list[Any], messages))
    if "inferenceConfig" in request or any("type" not in b for b in blocks):
        return Route("bedrock", "bedrock-converse", f"{why} (messages with untyped content blocks)")
    if _anthropic(request, blocks, headers):
        return Route("anthropic", "anthropic", f"{why} (messages with Anthropic's max_tokens and fields)")
    return Route("openai-chat", "openai-chat", f"{why} (messages)")
