"""A recorded cassette -> the ``Exchange``s a target's ``replay`` takes: the public loader.

For a bridge's own tests and for replaying your own recordings through your code: one call
reads any form the harness reads (``harness.traffic.loader``): vcrpy YAML (the harness's own
cassettes are vcrpy YAML), the same gzip compressed, LangChain's gzip-compressed
``requests``/``responses`` cassettes, and HAR exports. Bodies come back decoded (gzip
inflated, ``!!binary`` and base64 read), request bodies parsed from JSON.

    from harness.kit import load_cassette
    for exchange in load_cassette("tests/cassettes/test_chat.yaml", model_calls=True):
        result = my_target.replay("openai-chat", exchange)

Bad input is one line: ``CassetteError`` names the file, the interaction and the field.
A recording whose URL was redacted (LangChain's ``**REDACTED**``) keeps its recorded URL;
``provider_of`` says which wire its body's shape names.
"""

from __future__ import annotations

from pathlib import Path

from harness.contract.exchange import Exchange

__all__ = ["CassetteError", "load_cassette", "provider_of"]


class CassetteError(ValueError):
    """A cassette that cannot be read; ``str()`` is one line naming the file and the interaction."""


def load_cassette(path: str | Path, *, model_calls: bool = False) -> list[Exchange]:
    """Every interaction of the cassette at ``path`` as an ``Exchange``, in recorded order.

    ``model_calls=True`` keeps only model calls (by URL, or by body shape when the URL was
    redacted). An empty request body is None. A request body that is not JSON is None on a
    call that is no model call (a file upload); on a model call, and anywhere in the
    response or the file, it is a ``CassetteError``.
    """
    from harness.traffic.loader import TrafficInputError, load_file

    source = Path(path)
    if not source.is_file():
        raise CassetteError(f"{source}: no such file")
    try:
        calls = load_file(source)
    except TrafficInputError as exc:
        raise CassetteError(str(exc)) from None
    out: list[Exchange] = []
    for call in calls:
        model_call = call.route is not None
        unreadable = call.problem is not None and call.problem != "request body: empty"
        if unreadable and (not call.method or model_call or "response" in str(call.problem)):
            raise CassetteError(f"{call.where}: {call.problem}")
        if model_calls and not model_call:
            continue
        out.append(Exchange(call.method, call.uri, call.body, call.status, call.headers, call.response))
    return out


def provider_of(exchange: Exchange) -> str | None:
    """The wire an exchange speaks (``anthropic``, ``openai-chat``, ...): by its URL, else by its body's shape."""
    from harness.contract.routing import route
    from harness.traffic.by_shape import has_no_url, route_by_shape

    found = route(exchange.method, exchange.uri)
    if found is None and has_no_url(exchange.uri):
        found = route_by_shape(exchange.method, exchange.request_body, {})
    return None if found is None else found.wire
