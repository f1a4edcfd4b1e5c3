"""Secrets never reach a file: deny-by-default headers, credential query parameters, detected and known secrets.

Used on every interaction before a cassette is written, by recording and by the
conversion of third-party recordings alike. Two sources of truth, both applied to every
field (URL path segment, query value, body) and every encoding of it:

- **what the detector finds** (``harness/record/secrets.py``), in the field as written and in its
  decoded views: JSON string values (and SSE ``data:`` lines), percent-decoding, base64
  runs, gzip, bytes that are not UTF-8;
- **what the recorder knows** (``Known``): every credential it sent, from the environment,
  the headers and the URL, redacted verbatim, JSON-escaped, percent-encoded, inside base64,
  and in the masked forms providers echo back (``sk-abc…xyz``, ``***wxyz``, OpenAI's
  ``sk-abc*****wxyz``).
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast
from urllib.parse import parse_qsl, quote, quote_plus, unquote, urlencode, urlsplit, urlunsplit

from harness.inputs import InputError, gunzip
from harness.record.secrets import (
    ACCOUNT_ID_PATTERN,
    base64_runs,
    bytes_text,
    field_views,
    find_secrets,
    redact,
    secret_spans,
)

__all__ = [
    "ACCOUNT_ID_PATTERN",
    "ALLOWED_REQUEST_HEADERS",
    "ALLOWED_RESPONSE_HEADERS",
    "NO_KNOWN",
    "REDACTED",
    "SECRET_HEADERS",
    "Known",
    "credentials_sent",
    "env_credentials",
    "find_keys",
    "scrub_headers",
    "scrub_interaction",
    "scrub_mcp_credentials",
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
        "x-amz-security-token",  # AWS temporary credentials (SigV4, harness/record/aws.py)
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
_HIDDEN_QUERY = SECRET_QUERY_PARAMETERS | SIGNATURE_QUERY_PARAMETERS
#: Environment variables that hold a credential, by name (``OPENAI_API_KEY``, ``HF_TOKEN``...).
_CREDENTIAL_ENV = re.compile(r"(?i)(?:api_?key|token|secret|passw(?:or)?d|credential|access_?key|auth)")
#: Below this length a known value is only redacted where the detector also sees it
#: (replacing a short word everywhere would wreck bodies).
_MIN_KNOWN = 8
_MASK = r"(?:[*\u2022\u00b7xX]{3,}|\u2026|\.{3})"


def _prefix_chain(chars: str) -> str:
    """A regex matching any non-empty prefix of ``chars``: ``a(?:b(?:c)?)?``."""
    out = ""
    for ch in reversed(chars[1:]):
        out = f"(?:{re.escape(ch)}{out})?"
    return re.escape(chars[0]) + out


def _suffix_chain(chars: str, least: int) -> str:
    """A regex matching any suffix of ``chars`` at least ``least`` long."""
    fixed, optional = chars[-least:], chars[:-least]
    out = ""
    for ch in optional:
        out = f"(?:{out}{re.escape(ch)})?"
    return out + re.escape(fixed)


@dataclass(frozen=True)
class Known:
    """Credentials the recorder sent: redacted wherever and however they reappear."""

    values: frozenset[str] = frozenset()
    masked: re.Pattern[str] | None = field(default=None, compare=False)

    @classmethod
    def of(cls, values: Iterable[str]) -> Known:
        kept = frozenset(v for v in values if len(v) >= _MIN_KNOWN)
        forms = [
            f"(?:{_prefix_chain(v[:12])})?{_MASK}{_suffix_chain(v[-6:], 3)}(?![A-Za-z0-9])"
            for v in sorted(kept)
            if len(v) >= 12
        ]
        return cls(kept, re.compile("|".join(forms)) if forms else None)

    def __or__(self, other: Known) -> Known:
        return Known.of(self.values | other.values)

    def found_in(self, text: str) -> bool:
        """Whether ``text`` holds a known value, in any of its written forms or a masked one."""
        if any(form in text for v in self.values for form in _forms(v)):
            return True
        return self.masked is not None and self.masked.search(text) is not None


NO_KNOWN = Known()


def env_credentials(environ: Mapping[str, str] | None = None) -> Known:
    """Every environment value named like a credential (the recorder's API key among them)."""
    env = os.environ if environ is None else environ
    return Known.of(v for k, v in env.items() if _CREDENTIAL_ENV.search(k) and v.strip())


def credentials_sent(headers: Mapping[str, Any], uri: str) -> Known:
    """The credentials in a request: secret headers (``Bearer X``: X; ``Basic``: user and password;
    SigV4 ``AWS4-HMAC-SHA256``: the access key id and the signature), credential query parameters,
    and the URL's userinfo."""
    values: list[str] = []
    for name, raw in headers.items():
        if name.lower() not in SECRET_HEADERS or name.lower() in ("content-type",):
            continue
        for value in cast(list[Any], raw if isinstance(raw, list) else [raw]):
            text = str(value)
            values += [text, *text.split()[1:]]
            scheme, _, token = text.partition(" ")
            if scheme.upper() == "AWS4-HMAC-SHA256":  # Credential=AKID/date/region/service/aws4_request
                pairs = (f.strip().partition("=") for f in token.split(","))
                fields = {name: value for name, _, value in pairs}
                values += [fields.get("Credential", "").split("/")[0], fields.get("Signature", "")]
            if scheme.lower() == "basic":
                try:
                    user, _, password = base64.b64decode(token.strip()).decode("utf-8").partition(":")
                except (binascii.Error, UnicodeDecodeError):
                    continue
                values += [user, password]
    parts = urlsplit(uri)
    values += [v for k, v in parse_qsl(parts.query, keep_blank_values=True) if k.lower() in _HIDDEN_QUERY]
    if "@" in parts.netloc:
        user, _, password = parts.netloc.rpartition("@")[0].partition(":")
        values += [unquote(user), unquote(password), password]
    return Known.of(values)


def _forms(value: str) -> set[str]:
    """How a value may be written: verbatim, JSON-escaped (``/`` as ``\\/`` too, as PHP and some
    Java encoders write it: base64 credentials such as AWS session tokens hold slashes), percent-encoded."""
    escaped = json.dumps(value)[1:-1]
    return {
        value,
        escaped,
        escaped.replace("/", "\\/"),
        json.dumps(value, ensure_ascii=False)[1:-1],
        quote(value, safe=""),
        quote_plus(value),
    }


def find_keys(text: str) -> list[str]:
    return [m.value for m in find_secrets(text)]


def _replace_all(text: str, values: Iterable[str]) -> str:
    for value in sorted(values, key=len, reverse=True):
        for form in sorted(_forms(value), key=len, reverse=True):
            if form and form in text:
                text = text.replace(form, REDACTED)
    return text


def _hides_secret(raw: bytes, known: Known) -> bool:
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gunzip(raw, source="(recorded body)", field="(base64 gzip payload)")
        except InputError:
            return True  # cannot be inspected: treated as holding a secret
    text = bytes_text(raw)
    return known.found_in(text) or bool(secret_spans(text))


#: Passes of ``scrub_text`` at most: a secret packed between other secrets can read as part of one
#: long encoded run (``secrets._inside_blob``) until they are redacted; a pass that changes
#: nothing ends the loop (one pass for text without secrets).
_PASSES = 3


def scrub_text(text: str, known: Known = NO_KNOWN) -> str:
    """``text`` with every detected secret, identifier and known credential replaced, in any encoding,
    repeated until a pass finds nothing more."""
    for _ in range(_PASSES):
        scrubbed = _scrub_once(text, known)
        if scrubbed == text:
            break
        text = scrubbed
    return text


def _scrub_once(text: str, known: Known) -> str:
    found = {m.value for view in field_views(text) for m in secret_spans(view) if len(m.value) >= _MIN_KNOWN}
    text = redact(_replace_all(text, found | known.values), REDACTED)
    if known.masked is not None:
        text = known.masked.sub(REDACTED, text)
    for start, end, raw in reversed(list(base64_runs(text))):
        if _hides_secret(raw, known):
            text = text[:start] + REDACTED + text[end:]
    return text


def _scrub_body(body: Any, known: Known) -> Any:
    """Scrub a body in any of the shapes vcrpy and the harness format use (str, bytes, ``{string: ...}``)."""
    if isinstance(body, str):
        return scrub_text(body, known)
    if isinstance(body, bytes):
        if body[:2] == b"\x1f\x8b":  # still compressed: scrubbed inside, stored decompressed
            try:  # (content-encoding is not an allowed header, so the cassette must not say gzip)
                body = gunzip(body, source="(recorded body)")
            except InputError as exc:
                return f"{REDACTED} ({exc.reason})".encode()
        text = bytes_text(body)  # bytes that are not UTF-8 are scrubbed too, and kept as they were
        scrubbed = scrub_text(text, known)
        return body if scrubbed == text else scrubbed.encode("utf-8", errors="surrogateescape")
    if isinstance(body, dict):
        fields = cast(dict[str, Any], body)
        if "string" in fields:
            return {**fields, "string": _scrub_body(fields["string"], known)}
    return cast(Any, body)


def _scrub_field(name: str, value: str, known: Known) -> str:
    """A query value, judged with its name in front (a rule may need ``name=``); REDACTED whole
    when the secret found reaches into the name."""
    joined = f"{name}={value}"
    scrubbed = scrub_text(joined, known)
    if scrubbed == joined:
        return value
    head, sep, tail = scrubbed.partition("=")
    return tail if sep and head == name else REDACTED


def scrub_uri(uri: str, known: Known = NO_KNOWN) -> str:
    """The URL without userinfo, its path and every query value checked, whatever their names."""
    parts = urlsplit(uri)
    if "@" in parts.netloc:  # user:pass@host never reaches disk
        known = known | credentials_sent({}, uri)
        parts = parts._replace(netloc=parts.netloc.rpartition("@")[2])
    path = unquote(parts.path)  # a key in the path (a proxy that takes it there), percent-encoded or not
    # each segment on its own as well: a key between '/' is a field, not part of a long base64 run;
    # then the whole path again, until nothing changes (a key spanning segments, such as a Slack
    # webhook's, reads as part of its neighbours' run until they are redacted)
    scrubbed = path
    for _ in range(_PASSES):
        again = "/".join(scrub_text(seg, known) for seg in scrub_text(scrubbed, known).split("/"))
        if again == scrubbed:
            break
        scrubbed = again
    if scrubbed != path:
        parts = parts._replace(path=quote(scrubbed, safe="/:@!$&'()*+,;=-._~"))
    parts = parts._replace(fragment=scrub_text(parts.fragment, known))
    if not parts.query:
        return urlunsplit(parts)
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    query = [(k, REDACTED if k.lower() in _HIDDEN_QUERY else _scrub_field(k, v, known)) for k, v in pairs]
    query = [(scrub_text(k, known), v) for k, v in query]
    return urlunsplit(parts._replace(query=urlencode(query, safe=":/")))


def scrub_headers(headers: Any, allowed: frozenset[str], known: Known = NO_KNOWN) -> dict[str, Any]:
    """Only allow-listed headers, lower-cased and sorted; their values scrubbed of key-like strings too."""
    items = cast(dict[str, Any], dict(headers or {})).items()
    return {
        k.lower(): _scrub_json(v, known)
        for k, v in sorted(items, key=lambda kv: kv[0].lower())
        if k.lower() in allowed and k.lower() not in SECRET_HEADERS
    }


def _scrub_json(value: Any, known: Known) -> Any:
    if isinstance(value, str):
        return scrub_text(value, known)
    if isinstance(value, list):
        return [_scrub_json(v, known) for v in value]  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, dict):
        return {k: _scrub_json(v, known) for k, v in value.items()}  # pyright: ignore[reportUnknownVariableType]
    return value


#: Keys of a remote MCP server definition that hold credentials (Anthropic ``mcp_servers[]``
#: ``authorization_token``; Responses ``mcp`` tool ``authorization`` and ``headers``): whatever
#: their values look like, they never reach a file.
MCP_SECRET_KEYS = frozenset({"authorization", "authorization_token"})
_MCP_MARKERS = frozenset({"server_url", "server_label", "mcp_server_name"})


def _is_mcp_server(item: dict[str, Any]) -> bool:
    return (item.get("type") in ("mcp", "url") and "url" in item) or bool(_MCP_MARKERS & item.keys())


def scrub_mcp_credentials(value: Any) -> Any:
    """``value`` with every MCP server's authorization and header values REDACTED (a copy)."""
    if isinstance(value, list):
        return [scrub_mcp_credentials(v) for v in cast(list[Any], value)]
    if not isinstance(value, dict):
        return value
    item = cast(dict[str, Any], value)
    mcp = _is_mcp_server(item)
    out: dict[str, Any] = {}
    for key, sub in item.items():
        if mcp and key in MCP_SECRET_KEYS and isinstance(sub, str):
            out[key] = REDACTED
        elif mcp and key == "headers" and isinstance(sub, dict):
            out[key] = {k: REDACTED for k in cast(dict[str, Any], sub)}
        else:
            out[key] = scrub_mcp_credentials(sub)
    return out


def _body_text(body: Any) -> tuple[str | None, dict[str, Any] | None]:
    """A body's JSON text and, for vcrpy's ``{string: ...}`` shape, its fields."""
    fields: dict[str, Any] | None = None
    text: Any = body
    if isinstance(body, dict):
        fields = cast(dict[str, Any], body)
        text = fields.get("string")
    if isinstance(text, bytes):
        return bytes_text(text), fields
    return (text if isinstance(text, str) else None), fields


def _scrub_mcp_body(body: Any) -> Any:
    """A request body (parsed, or JSON text) without MCP credentials; text is rewritten only when
    it held one."""
    text, fields = _body_text(body)
    if text is None:
        return body
    try:
        parsed: Any = json.loads(text)
    except ValueError:
        return body
    scrubbed = scrub_mcp_credentials(parsed)
    if scrubbed == parsed:
        return body
    out = json.dumps(scrubbed, ensure_ascii=False)
    return {**fields, "string": out} if fields is not None else out


def scrub_interaction(interaction: dict[str, Any], known: Known = NO_KNOWN) -> dict[str, Any]:
    """A scrubbed copy of one vcrpy interaction dict (request + response).

    The credentials the request itself carries (headers, URL) join ``known`` first, so an
    echo of them in the response is removed even when no rule knows their shape.
    """
    request = dict(interaction["request"])
    response = dict(interaction["response"])
    uri = str(request.get("uri", ""))
    known = known | credentials_sent(cast(dict[str, Any], request.get("headers") or {}), uri)
    request["uri"] = scrub_uri(uri, known)
    request["headers"] = scrub_headers(request.get("headers"), ALLOWED_REQUEST_HEADERS, known)
    response["headers"] = scrub_headers(response.get("headers"), ALLOWED_RESPONSE_HEADERS, known)
    if "parsed_body" in request:
        request["parsed_body"] = scrub_mcp_credentials(request["parsed_body"])
    if "body" in request:
        request["body"] = _scrub_mcp_body(request["body"])
    for part in (request, response):
        if "parsed_body" in part:
            part["parsed_body"] = _scrub_json(part["parsed_body"], known)
        if "body" in part:
            part["body"] = _scrub_body(part["body"], known)
    return {"request": request, "response": response}
