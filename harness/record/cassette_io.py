"""From a live exchange to a cassette file: scrub in memory first, check the text, then write atomically.

The order is the guarantee: the raw interaction exists only in memory, the scrubbed
copy is what gets parsed and written, and the rendered text is refused (nothing
written) if it still holds the key or any key-like string. The write goes to a
temporary file beside the target and is renamed over it, so a crash never leaves a
half-written cassette (or the previous one truncated).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from harness.providers.replay import Exchange
from harness.record.cassette_format import dump_cassette
from harness.record.client import HttpResponse
from harness.record.endpoints import HttpRequest
from harness.record.scrub import scrub_interaction

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


def scrubbed_interaction(request: HttpRequest, response: HttpResponse) -> dict[str, Any]:
    """The vcrpy interaction for one call, already scrubbed (the raw dict never leaves this function)."""
    raw: dict[str, Any] = {
        "request": {
            "method": request.method,
            "uri": request.url,
            "headers": {k: [v] for k, v in request.headers.items()},
            "body": request.content.decode("utf-8"),
        },
        "response": {
            "status": {"code": response.status, "message": response.reason},
            "headers": response.headers,
            "body": {"string": _text(response.body)},
        },
    }
    return scrub_interaction(raw)


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


def check_clean(text: str, secrets: list[str]) -> None:
    """Raise UnsafeCassetteError when ``text`` holds one of ``secrets`` or any key-like/account-id string."""
    problems: list[str] = []
    if any(secret and secret in text for secret in secrets):
        problems.append("the API key itself")
    from harness.record.scan import scan_text

    found = scan_text(text, "cassette.yaml")  # the scanner's view: lines, YAML values, gzip/base64
    keys = [f for f in found if not f.kind.startswith(("openai-organization", "openai-project-id"))]
    if keys:
        problems.append(f"{len(keys)} key-like string(s)")
    if len(found) > len(keys):
        problems.append(f"{len(found) - len(keys)} organization/project id(s)")
    if problems:
        raise UnsafeCassetteError(
            f"refusing to write: the scrubbed cassette still contains {', '.join(problems)}"
        )


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file in the same directory and an atomic rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, path.stat().st_mode & 0o777 if path.exists() else 0o644)  # mkstemp makes it 0600
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
