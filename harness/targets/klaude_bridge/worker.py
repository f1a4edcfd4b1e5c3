"""``python -m harness.targets.klaude_bridge.worker``: serve render/replay requests over stdin/stdout.

Runs in an interpreter where klaude-code is installed. One JSON request per line in,
one JSON reply per line out. klaude-code (and rich) may print to stdout, so the
protocol keeps the original stdout to itself and everything else goes to stderr.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from harness.targets.klaude_bridge import protocol

__all__ = ["main"]


def _answer(driver: Any, request: dict[str, Any]) -> dict[str, Any]:
    op = request.get("op")
    if op == "hello":
        return {"ok": True, "version": driver.version()}
    if op == "render":
        provider, history, params = protocol.decode_request(request)
        return {"ok": True, "rendered": protocol.encode_rendered(driver.render(provider, history, params))}
    if op == "replay":
        exchange = protocol.decode_exchange(request["exchange"])
        result = driver.replay(str(request["provider"]), exchange, request.get("chunk_size"))
        return {"ok": True, "result": protocol.encode_result(result)}
    return {"ok": False, "kind": "protocol", "error": f"unknown op {op!r}"}


def serve(driver: Any, requests: TextIO, replies: TextIO) -> None:
    for line in requests:
        if not line.strip():
            continue
        try:
            reply = _answer(driver, json.loads(line))
        except NotImplementedError as exc:
            reply = {"ok": False, "kind": "unsupported", "error": str(exc)}
        except Exception as exc:  # reported to the harness, which decides what a failure means
            detail = str(exc) if type(exc).__name__ == "KlaudeCallError" else f"{type(exc).__name__}: {exc}"
            reply = {"ok": False, "kind": "error", "error": detail.splitlines()[0] if detail else repr(exc)}
        replies.write(protocol.dumps(reply))
        replies.flush()


def main() -> None:
    replies = sys.stdout
    sys.stdout = sys.stderr  # klaude's console output must not corrupt the protocol
    try:
        from harness.targets.klaude_bridge.drive import Driver

        driver = Driver()
    except ImportError as exc:
        replies.write(protocol.dumps({"ok": False, "kind": "missing", "error": str(exc)}))
        replies.flush()
        return
    serve(driver, sys.stdin, replies)


if __name__ == "__main__":
    main()
