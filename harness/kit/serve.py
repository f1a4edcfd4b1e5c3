"""``python -m harness.kit.serve MODULE:ATTR``: serve a target's render/replay over stdin/stdout.

Runs in the interpreter that has the code under audit installed. It loads the in-process
target ``MODULE:ATTR`` and answers one JSON request per line with one JSON reply per line.
The code under audit may print, so the protocol keeps the original stdout to itself and
everything else goes to stderr.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any, TextIO

from harness.contract.channels import render_heard, warning_channels
from harness.contract.chunking import chunking_from_json
from harness.contract.target import Target, TargetRefusal
from harness.kit import protocol
from harness.kit.netguard import offline

__all__ = ["main", "serve"]


def _answer(target: Target, request: dict[str, Any]) -> dict[str, Any]:
    op = request.get("op")
    if op == "hello":
        return {
            "ok": True,
            "version": target.version,
            "providers": list(target.providers()),
            "warning_channels": sorted(warning_channels(target)),
        }
    if op == "render":
        provider, history, params = protocol.decode_render_request(request)
        rendered = render_heard(target, provider, history, params)  # what it announced, heard where it runs
        return {"ok": True, "rendered": protocol.encode_rendered(rendered)}
    if op == "replay":
        exchange = protocol.decode_exchange(request["exchange"])
        result = target.replay(
            str(request["provider"]), exchange, chunking_from_json(request.get("chunk_size"))
        )
        return {"ok": True, "result": protocol.encode_result(result)}
    return {"ok": False, "kind": "protocol", "error": f"unknown op {op!r}"}


def serve(target: Target, requests: TextIO, replies: TextIO) -> None:
    for line in requests:
        if not line.strip():
            continue
        try:
            with offline(str(target.name)) as guard:
                reply = _answer(target, json.loads(line))
            if guard.attempts:  # the code under audit swallowed the refusal: still a failure
                reply = {"ok": False, "kind": "error", "error": f"NetworkBlocked: {guard.attempts[0]}"}
        except NotImplementedError as exc:
            reply = {"ok": False, "kind": "unsupported", "error": str(exc)}
        except TargetRefusal as refusal:  # a declared refusal crosses the process boundary as one
            reply = {
                "ok": False,
                "kind": "refused",
                "error": refusal.reason,
                "provider_error": refusal.provider_error,
            }
        except Exception as exc:  # reported to the harness, which decides what a failure means
            detail = f"{type(exc).__name__}: {exc}"
            reply = {"ok": False, "kind": "error", "error": detail.splitlines()[0]}
        replies.write(protocol.dumps(reply))
        replies.flush()


def main(argv: list[str] | None = None) -> None:
    (ref,) = argv if argv is not None else sys.argv[1:]
    replies = sys.stdout
    sys.stdout = sys.stderr  # the code under audit's console output must not corrupt the protocol
    module, _, attr = ref.partition(":")
    try:
        target = getattr(importlib.import_module(module), attr)
    except ImportError as exc:
        replies.write(protocol.dumps({"ok": False, "kind": "missing", "error": str(exc)}))
        replies.flush()
        return
    serve(target, sys.stdin, replies)


if __name__ == "__main__":
    main()
