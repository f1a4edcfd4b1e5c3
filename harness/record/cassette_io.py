"""From a live exchange to a cassette file: scrub in memory first, check the text, then write atomically.

The order is the guarantee: the raw interaction exists only in memory, the scrubbed
copy is what gets parsed and written, and the rendered text is refused (nothing
written) if it still holds the key or any key-like string. The write goes to a
temporary file beside the target and is renamed over it, so a crash never leaves a
half-written cassette (or the previous one truncated).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from harness.outputs import write_text
from harness.providers.replay import Exchange
from harness.record.cassette_format import dump_cassette, is_binary_stream
from harness.record.client import HttpResponse
from harness.record.endpoints import HttpRequest
from harness.record.scrub import Known, credentials_sent, env_credentials, scrub_interaction

__all__ = [
    "UnsafeCassetteError",
    "check_clean",
    "exchange_from",
    "render_cassette",
    "scrubbed_interaction",
    "write_atomic",
]


class UnsafeCassetteError(RuntimeError):
    """The rendered cassette still holds a secret; nothing was written. ``str()`` never shows it."""


def _text(body: bytes) -> str | bytes:
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return body


def known_credentials(request: HttpRequest) -> Known:
    """Every credential the recorder sends: the environment's, and those in the request's headers and URL."""
    return env_credentials() | credentials_sent(request.headers, request.url)


def scrubbed_interaction(request: HttpRequest, response: HttpResponse) -> dict[str, Any]:
    """The vcrpy interaction for one call, already scrubbed (the raw dict never leaves this function)."""
    raw: dict[str, Any] = {
        "request": {
            "method": request.method,
            "uri": request.url,
            "headers": {k: [v] for k, v in request.headers.items()},
            "body": _text(request.content),
        },
        "response": {
            "status": {"code": response.status, "message": response.reason},
            "headers": response.headers,
            "body": {"string": response.body if is_binary_stream(response.headers) else _text(response.body)},
        },
    }
    return scrub_interaction(raw, known_credentials(request))


def exchange_from(interaction: dict[str, Any]) -> Exchange:
    """A scrubbed interaction as the replay layer's Exchange (what the parser sees is what is stored)."""
    request, response = interaction["request"], interaction["response"]
    body: Any = response["body"]["string"]
    raw_request: Any = request.get("body")
    return Exchange(
        method=request["method"],
        uri=request["uri"],
        request_body=json.loads(raw_request) if isinstance(raw_request, str) and raw_request else None,
        status=int(response["status"]["code"]),
        headers=dict(response["headers"]),
        body=body.encode("utf-8") if isinstance(body, str) else body,
    )


def render_cassette(interactions: list[dict[str, Any]], provenance: dict[str, Any]) -> str:
    return dump_cassette({"interactions": interactions, "provenance": provenance, "version": 1})


def check_clean(text: str, secrets: list[str] | Known) -> None:
    """Raise UnsafeCassetteError when ``text`` holds a known credential (in any encoding or masked
    form) or any key-like/account-id string, or holds a part that cannot be inspected."""
    from harness.record.scan import scan_text, views

    known = secrets if isinstance(secrets, Known) else Known.of(s for s in secrets if s)
    problems: list[str] = []
    skipped: list[str] = []
    every_view = list(views(text, "cassette.yaml", skipped))  # lines, YAML values, gzip, base64, !!binary
    if skipped:
        raise UnsafeCassetteError(
            f"refusing to write: a body cannot be inspected ({skipped[0].split(': ', 1)[-1]})"
        )
    if any(known.found_in(view) for view in every_view) or any(
        s and s in text for s in (secrets if isinstance(secrets, list) else [])
    ):
        problems.append("the API key itself")
    found = scan_text(text, "cassette.yaml")
    keys = [f for f in found if f.cls == "secret"]
    if keys:
        problems.append(f"{len(keys)} key-like string(s)")
    if len(found) > len(keys):
        problems.append(f"{len(found) - len(keys)} organization/project id(s)")
    if problems:
        raise UnsafeCassetteError(
            f"refusing to write: the scrubbed cassette still contains {', '.join(problems)}"
        )


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (``harness.outputs``; raises ``OutputError``, nothing changed)."""
    write_text(path, text)
