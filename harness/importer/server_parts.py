"""Provider-executed tool calls and results, sources and server-tool definitions, as importers read them.

Every reader keeps the provider's own block or item in ``raw`` (byte-exact: it goes back as it
came), and reads the provider-neutral fields off it so that another provider's adapter can say
what it drops.
"""

from __future__ import annotations

from typing import Any, cast

from harness.importer.common import Json, obj
from harness.params import McpServer, ServerToolSpec

__all__ = ["kind_of", "server_tool"]

#: Provider-neutral kinds by the prefix of a provider's own type name (Anthropic's dated types,
#: Responses tool types, Gemini tool keys).
KINDS: tuple[tuple[str, str], ...] = (
    ("web_search", "web_search"),
    ("googleSearch", "web_search"),
    ("google_search", "web_search"),
    ("web_fetch", "web_fetch"),
    ("urlContext", "url_context"),
    ("url_context", "url_context"),
    ("code_execution", "code_execution"),
    ("codeExecution", "code_execution"),
    ("code_interpreter", "code_execution"),
    ("tool_search", "tool_search"),
    ("mcp", "mcp"),
    ("file_search", "file_search"),
    ("fileSearch", "file_search"),
    ("image_generation", "image_generation"),
)


def kind_of(native: str) -> str:
    """The provider-neutral kind of a provider's tool type, or the type itself when none fits."""
    return next((kind for prefix, kind in KINDS if native.startswith(prefix)), native)


def _raw(value: Json) -> dict[str, Any]:
    return dict(value)


def _strings(value: Any) -> list[str] | None:
    return [str(v) for v in cast(list[Any], value)] if isinstance(value, list) else None


def server_tool(
    native: str, provider: str, definition: Json, position: int | None, slot: str | None = None
) -> ServerToolSpec:
    """One server-tool definition, ``raw`` byte-exact; options read where the provider puts them
    (top level in Anthropic, ``filters`` in Responses web search)."""
    filters = obj(definition.get("filters"))
    allowed = definition.get("allowed_domains", filters.get("allowed_domains"))
    blocked = definition.get("blocked_domains", filters.get("blocked_domains"))
    max_uses = definition.get("max_uses")
    location = definition.get("user_location")
    mcp: McpServer | None = None
    if kind_of(native) == "mcp" or slot == "mcp_servers":
        headers = definition.get("headers")
        auth = definition.get("authorization", definition.get("authorization_token"))
        mcp = McpServer(
            name=_str(
                definition.get("server_label", definition.get("name", definition.get("mcp_server_name")))
            ),
            url=_str(definition.get("server_url", definition.get("url"))),
            authorization=_str(auth),
            headers={str(k): str(v) for k, v in obj(headers).items()} if isinstance(headers, dict) else None,
            allowed_tools=_strings(definition.get("allowed_tools")),
        )
    return ServerToolSpec(
        kind="mcp" if slot == "mcp_servers" else kind_of(native),
        provider=provider,
        name=_str(definition.get("name")),
        allowed_domains=_strings(allowed),
        blocked_domains=_strings(blocked),
        max_uses=max_uses if isinstance(max_uses, int) else None,
        user_location=obj(location) if isinstance(location, dict) else None,
        container=cast(Any, definition.get("container")),
        mcp_server=mcp,
        defer_loading=definition["defer_loading"]
        if isinstance(definition.get("defer_loading"), bool)
        else None,
        position=position,
        slot=slot,
        raw=_raw(definition),
    )


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None
