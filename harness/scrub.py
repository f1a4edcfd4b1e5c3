"""Secrets never reach a file: deny-by-default headers, the ``key=`` query parameter, key-like strings.

Used on every interaction before a cassette is written, by recording and by the
conversion of third-party recordings alike.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

__all__ = ["KEY_PATTERN", "REDACTED", "find_keys", "scrub_interaction", "scrub_text", "scrub_uri"]

REDACTED = "REDACTED"

#: Headers kept in cassettes; every other header (auth, cookies, org/project ids, tracing) is dropped.
ALLOWED_REQUEST_HEADERS = frozenset(
    {"content-type", "accept", "anthropic-version", "anthropic-beta", "openai-beta"}
)
ALLOWED_RESPONSE_HEADERS = frozenset({"content-type"})
SECRET_QUERY_PARAMETERS = frozenset({"key", "api_key", "api-key", "apikey", "access_token", "token"})

#: Provider API key shapes. Bounded on the left so base64 signatures that merely contain "sk-" don't match.
KEY_PATTERN = re.compile(
    r"(?<![A-Za-z0-9_+/=-])("
    r"sk-ant-[A-Za-z0-9_-]{20,}"
    r"|sk-or-v1-[A-Za-z0-9]{20,}"
    r"|sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"
    r"|AIza[0-9A-Za-z_-]{30,}"
    r"|[Bb]earer\s+[A-Za-z0-9._~+/-]{20,}=*"
    r")"
)


def find_keys(text: str) -> list[str]:
    return [m.group(1) for m in KEY_PATTERN.finditer(text)]


def scrub_text(text: str) -> str:
    return KEY_PATTERN.sub(REDACTED, text)


def scrub_uri(uri: str) -> str:
    parts = urlsplit(uri)
    if not parts.query:
        return uri
    query = [
        (k, REDACTED if k.lower() in SECRET_QUERY_PARAMETERS else v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
    ]
    return urlunsplit(parts._replace(query=urlencode(query, safe=":/")))


def _headers(headers: dict[str, Any], allowed: frozenset[str]) -> dict[str, Any]:
    return {
        k.lower(): v for k, v in sorted(headers.items(), key=lambda kv: kv[0].lower()) if k.lower() in allowed
    }


def _scrub_json(value: Any) -> Any:
    if isinstance(value, str):
        return scrub_text(value)
    if isinstance(value, list):
        return [_scrub_json(v) for v in value]  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, dict):
        return {k: _scrub_json(v) for k, v in value.items()}  # pyright: ignore[reportUnknownVariableType]
    return value


def scrub_interaction(interaction: dict[str, Any]) -> dict[str, Any]:
    """A scrubbed copy of one vcrpy interaction dict (request + response)."""
    request = dict(interaction["request"])
    response = dict(interaction["response"])
    request["uri"] = scrub_uri(str(request.get("uri", "")))
    request["headers"] = _headers(request.get("headers") or {}, ALLOWED_REQUEST_HEADERS)
    response["headers"] = _headers(response.get("headers") or {}, ALLOWED_RESPONSE_HEADERS)
    if "parsed_body" in request:
        request["parsed_body"] = _scrub_json(request["parsed_body"])
    if isinstance(request.get("body"), str):
        request["body"] = scrub_text(request["body"])
    body = response.get("body")
    if isinstance(body, dict) and isinstance(body.get("string"), str):  # pyright: ignore[reportUnknownMemberType]
        response["body"] = {"string": scrub_text(body["string"])}  # pyright: ignore[reportUnknownArgumentType]
    return {"request": request, "response": response}
