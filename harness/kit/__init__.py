"""The target kit: what a bridge needs so that it only converts types and calls the code under audit.

- ``harness.kit.transport``: ``OfflineWire``, offline httpx/httpx2 clients for provider SDKs
  (render: capture the request the SDK puts on the wire; replay: serve a recorded exchange).
- ``harness.kit.aws``: ``offline_boto3_client(wire)``, a boto3 client answered by the wire
  (botocore's ``before-send`` hook), for code that calls AWS through boto3.
- ``harness.kit.rules``: the canonical output rules (stop reason, usage, ids), stated once;
  ``failed_result`` for a call that raised.
- ``harness.kit.chat``: ``chat_completion_result``, an OpenAI-shaped completion (what the openai
  SDK and litellm hand back) -> the canonical result, with the reference's own mappings.
- ``harness.kit.cassette``: ``load_cassette``, a recorded cassette (vcrpy, LangChain's gzip
  format, HAR) -> the ``Exchange``s ``replay`` takes; ``provider_of`` names an exchange's wire.
- ``harness.kit.recorded``: what replay reads off a recording (streamed or not, its model,
  an OpenRouter endpoint a Chat-Completions-only client cannot read).
- ``harness.kit.shapes``: canonical parts <-> the providers' SDK message shapes (OpenAI Chat and
  Responses, Anthropic ``MessageParam``, google-genai ``Content``), both directions, so a bridge
  maps its library's own wrapper types once.
- ``harness.kit.worker``: ``WorkerTarget``, for code that cannot share the harness's environment.
- ``harness.kit.netguard``: ``offline(target)``, the socket guard the harness drives every target
  under (audit, ``harness.testing``, ``render``/``replay``/``check``, a worker's ``serve``).

See docs/writing-a-target.md. Names load on first use, so importing the kit stays cheap.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harness.kit.aws import offline_boto3_client
    from harness.kit.cassette import CassetteError, load_cassette, provider_of
    from harness.kit.chat import chat_completion_result
    from harness.kit.netguard import NetworkBlocked, OfflineGuard, offline
    from harness.kit.recorded import is_streamed, recorded_call, recorded_model, require_openrouter_chat
    from harness.kit.rules import (
        failed_result,
        final_result,
        minted_id_notes,
        provider_stop,
        sent_id,
        stop_reason,
        usage,
    )
    from harness.kit.transport import CAPTURED_STATUS, CapturedRequest, OfflineWire, WireError
    from harness.kit.worker import BridgeError, WorkerTarget, find_python

_EXPORTS: dict[str, str] = {
    "chat_completion_result": "harness.kit.chat",
    "offline_boto3_client": "harness.kit.aws",
    **dict.fromkeys(("CassetteError", "load_cassette", "provider_of"), "harness.kit.cassette"),
    **dict.fromkeys(("NetworkBlocked", "OfflineGuard", "offline"), "harness.kit.netguard"),
    **dict.fromkeys(
        ("is_streamed", "recorded_call", "recorded_model", "require_openrouter_chat"), "harness.kit.recorded"
    ),
    **dict.fromkeys(
        (
            "failed_result",
            "final_result",
            "minted_id_notes",
            "provider_stop",
            "sent_id",
            "stop_reason",
            "usage",
        ),
        "harness.kit.rules",
    ),
    **dict.fromkeys(
        ("CAPTURED_STATUS", "CapturedRequest", "OfflineWire", "WireError"), "harness.kit.transport"
    ),
    **dict.fromkeys(("BridgeError", "WorkerTarget", "find_python"), "harness.kit.worker"),
}

__all__ = [
    "CAPTURED_STATUS",
    "BridgeError",
    "CapturedRequest",
    "CassetteError",
    "NetworkBlocked",
    "OfflineGuard",
    "OfflineWire",
    "WireError",
    "WorkerTarget",
    "chat_completion_result",
    "failed_result",
    "final_result",
    "find_python",
    "is_streamed",
    "load_cassette",
    "minted_id_notes",
    "offline",
    "offline_boto3_client",
    "provider_of",
    "provider_stop",
    "recorded_call",
    "recorded_model",
    "require_openrouter_chat",
    "sent_id",
    "stop_reason",
    "usage",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'harness.kit' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
