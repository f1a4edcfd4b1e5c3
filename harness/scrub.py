"""Secrets never reach a file: deny-by-default headers, the ``key=`` query parameter, key-like strings.

Used on every interaction before a cassette is written, by recording and by the
conversion of third-party recordings alike.
"""

from __future__ import annotations

import re
from typing import Any, cast
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

__all__ = [
    "ACCOUNT_ID_PATTERN",
    "ALLOWED_REQUEST_HEADERS",
    "ALLOWED_RESPONSE_HEADERS",
    "KEY_PATTERN",
    "REDACTED",
    "SECRET_HEADERS",
    "find_keys",
    "scrub_headers",
    "scrub_interaction",
    "scrub_text",
    "scrub_uri",
]

REDACTED = "REDACTED"

#: Headers kept in cassettes; every other header (auth, cookies, org/project ids, tracing) is dropped.
ALLOWED_REQUEST_HEADERS = frozenset(
    {"content-type", "accept", "anthropic-version", "anthropic-beta", "openai-beta"}
)
ALLOWED_RESPONSE_HEADERS = frozenset({"content-type"})
SECRET_QUERY_PARAMETERS = frozenset({"key", "api_key", "api-key", "apikey", "access_token", "token"})
#: Never allowed, whatever the allow-lists become (tests assert they stay disjoint): credentials,
#: cookies, and the organization/project ids that tie a recording to an account.
SECRET_HEADERS = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "x-api-key",
        "api-key",
        "x-goog-api-key",
        "cookie",
        "set-cookie",
        "openai-organization",
        "openai-project",
        "anthropic-organization-id",
        "x-request-id",
        "request-id",
        "cf-ray",
    }
)

#: Provider API key shapes. Bounded on the left so base64 signatures that merely contain "sk-" don't match
#: ("=" may precede a key: ``x=sk-...`` in a query string; in base64 it is only trailing padding).
KEY_PATTERN = re.compile(
    r"(?<![A-Za-z0-9_+/-])("
    r"sk-ant-[A-Za-z0-9_-]{20,}"
    r"|sk-or-v1-[A-Za-z0-9]{20,}"
    r"|sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}"
    r"|AIza[0-9A-Za-z_-]{30,}"
    r"|gsk_[A-Za-z0-9]{20,}"
    r"|xai-[A-Za-z0-9]{20,}"
    r"|[Bb]earer\s+[A-Za-z0-9._~+/-]{20,}=*"
    r")"
)

#: Organization and project ids (OpenAI ``org-``/``proj_``): not secrets, but they name the account
#: that recorded, and OpenAI quotes them in error bodies ("... in organization org-...").
ACCOUNT_ID_PATTERN = re.compile(r"(?<![A-Za-z0-9_-])(org-[A-Za-z0-9]{20,}|proj_[A-Za-z0-9]{20,})")


def find_keys(text: str) -> list[str]:
    return [m.group(1) for m in KEY_PATTERN.finditer(text)]


def scrub_text(text: str) -> str:
    return ACCOUNT_ID_PATTERN.sub(REDACTED, KEY_PATTERN.sub(REDACTED, text))


def _scrub_body(body: Any) -> Any:
    """Scrub a body in any of the shapes vcrpy and the harness format use (str, bytes, ``{string: ...}``)."""
    if isinstance(body, str):
        return scrub_text(body)
    if isinstance(body, bytes):
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return body  # binary (e.g. still gzip-compressed): the cassette stores it as-is
        return scrub_text(text).encode("utf-8")
    if isinstance(body, dict):
        fields = cast(dict[str, Any], body)
        if "string" in fields:
            return {**fields, "string": _scrub_body(fields["string"])}
    return cast(Any, body)


def scrub_uri(uri: str) -> str:
    parts = urlsplit(scrub_text(uri))
    if not parts.query:
        return urlunsplit(parts)
    query = [
        (k, REDACTED if k.lower() in SECRET_QUERY_PARAMETERS else v)
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
    ]
    return urlunsplit(parts._replace(query=urlencode(query, safe=":/")))


def scrub_headers(headers: Any, allowed: frozenset[str]) -> dict[str, Any]:
    """Only allow-listed headers, lower-cased and sorted; their values scrubbed of key-like strings too."""
    items = cast(dict[str, Any], dict(headers or {})).items()
    return {
        k.lower(): _scrub_json(v)
        for k, v in sorted(items, key=lambda kv: kv[0].lower())
        if k.lower() in allowed and k.lower() not in SECRET_HEADERS
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
    request["headers"] = scrub_headers(request.get("headers"), ALLOWED_REQUEST_HEADERS)
    response["headers"] = scrub_headers(response.get("headers"), ALLOWED_RESPONSE_HEADERS)
    for part in (request, response):
        if "parsed_body" in part:
            part["parsed_body"] = _scrub_json(part["parsed_body"])
        if "body" in part:
            part["body"] = _scrub_body(part["body"])
    return {"request": request, "response": response}
