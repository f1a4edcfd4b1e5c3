"""Secrets never reach a file: deny-by-default headers, the ``key=`` query parameter, key-like strings.

Used on every interaction before a cassette is written, by recording and by the
conversion of third-party recordings alike.
"""

from __future__ import annotations

import re
from typing import Any, cast
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit, urlunsplit

from harness.inputs import InputError, gunzip
from harness.record.secrets import _COMPILED, ACCOUNT_ID_PATTERN, find_secrets, redact  # pyright: ignore[reportPrivateUsage]

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

#: The shared detector's patterns (harness/record/secrets.py): kept under the old name for importers.
KEY_PATTERN = re.compile("|".join(f"(?:{p.pattern})" for _, _, p in _COMPILED))
#: Query parameters whose value is a credential or a signature whatever it looks like.
SIGNATURE_QUERY_PARAMETERS = frozenset(
    {
        "sig",
        "signature",
        "x-amz-signature",
        "x-amz-credential",
        "x-amz-security-token",
        "x-goog-signature",
        "x-goog-credential",
        "client_secret",
        "password",
        "secret",
    }
)


def find_keys(text: str) -> list[str]:
    return [m.value for m in find_secrets(text)]


def scrub_text(text: str) -> str:
    return redact(text, REDACTED)


def _scrub_body(body: Any) -> Any:
    """Scrub a body in any of the shapes vcrpy and the harness format use (str, bytes, ``{string: ...}``)."""
    if isinstance(body, str):
        return scrub_text(body)
    if isinstance(body, bytes):
        if body[:2] == b"\x1f\x8b":  # still compressed: scrubbed inside, stored decompressed
            try:  # (content-encoding is not an allowed header, so the cassette must not say gzip)
                body = gunzip(body, source="(recorded body)")
            except InputError as exc:
                return f"{REDACTED} ({exc.reason})".encode()
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return body  # binary: the cassette stores it as-is
        return scrub_text(text).encode("utf-8")
    if isinstance(body, dict):
        fields = cast(dict[str, Any], body)
        if "string" in fields:
            return {**fields, "string": _scrub_body(fields["string"])}
    return cast(Any, body)


def scrub_uri(uri: str) -> str:
    parts = urlsplit(scrub_text(uri))
    path = unquote(parts.path)
    if find_secrets(path):  # a key in the path (a proxy that takes it there), percent-encoded or not
        parts = parts._replace(path=quote(scrub_text(path), safe="/:@!$&'()*+,;=-._~"))
    if not parts.query:
        return urlunsplit(parts)
    hidden = SECRET_QUERY_PARAMETERS | SIGNATURE_QUERY_PARAMETERS
    query = [
        (k, REDACTED if k.lower() in hidden else scrub_text(v))
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
