"""Which recorded calls are evidence of what their host accepted: a response the host cannot have sent is not.

A hand-made test cassette may pair a real request with a response pasted from elsewhere (simonw/llm's
``test_tools_streaming`` variants answer ``api.openai.com`` calls with OpenRouter streams: Novita's
``moonshotai/kimi-k2``, Meta's ``muse-spark-1.1``). Such a ``200`` says nothing of what the host
took, and the next request, built from a reply the host never gave, nothing of the client: the call
is listed as not judged, with why, by ``calibrate``, ``audit-traffic`` and ``import-check``.

The rule, as narrow as the evidence: a Chat response carrying fields only OpenRouter sends
(``harness.traffic.replies``: ``provider`` and ``native_finish_reason``), recorded for a request
sent to a provider's own host (not OpenRouter, not a compatible server, which may relay it).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from harness.traffic.hosts import COMPATIBLE
from harness.traffic.loader import RecordedCall
from harness.traffic.replies import read_reply

__all__ = ["pasted_response"]


def pasted_response(call: RecordedCall) -> str | None:
    """Why ``call``'s response cannot be its host's (the call is no evidence), or None."""
    route = call.route
    if route is None or route.wire != "openai-chat" or route.provider == "openrouter":
        return None
    if route.endpoint == COMPATIBLE or not 200 <= call.status < 300:
        return None
    if b"native_finish_reason" not in call.response:  # cheap: only such a body is read
        return None
    relayed = read_reply(route.wire, call.response).relayed_by
    if not relayed:
        return None
    host = urlsplit(call.uri).hostname
    return (
        f"the response carries {relayed}'s own fields, but the request went to {host}: a response "
        "pasted into a hand-made cassette is no evidence of what the host accepts or the client sends next"
    )
