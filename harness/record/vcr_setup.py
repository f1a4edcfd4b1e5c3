"""vcrpy configured the harness way: the review-friendly serializer, scrubbing hooks, atomic writes.

Three layers keep secrets off disk when tests record through vcrpy: the
``before_record_request``/``before_record_response`` hooks scrub each interaction as it
is captured (and each incoming request before matching, so scrubbed cassettes
match live requests); the serializer scrubs again as it renders; and the persister
refuses to write text that still looks like it holds a key. Import this module only
where vcrpy is installed (it is a test dependency, not a runtime one); vcrpy ships
no type information, so its objects are typed ``Any`` here.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import Any, cast

from harness.inputs import read_text
from harness.record import RECORD_MODES, cassette_format
from harness.record.cassette_io import check_clean, write_atomic
from harness.record.scrub import (
    ALLOWED_REQUEST_HEADERS,
    ALLOWED_RESPONSE_HEADERS,
    NO_KNOWN,
    Known,
    credentials_sent,
    env_credentials,
    scrub_headers,
    scrub_interaction,
    scrub_text,
    scrub_uri,
)

__all__ = ["harness_vcr", "scrub_vcr_request", "scrub_vcr_response"]

_vcr: Any = import_module("vcr")
_vcr_serialize: Any = import_module("vcr.serialize")
_vcr_filesystem: Any = import_module("vcr.persisters.filesystem")

MATCH_ON = ("method", "scheme", "host", "path", "query", "body")  # not port: loopback ports are ephemeral


def _scrub_bytes(body: Any, known: Known) -> Any:
    if isinstance(body, bytes):
        text = body.decode("utf-8", errors="surrogateescape")  # not UTF-8: scrubbed all the same
        scrubbed = scrub_text(text, known)
        return body if scrubbed == text else scrubbed.encode("utf-8", errors="surrogateescape")
    return scrub_text(body, known) if isinstance(body, str) else body


def scrub_vcr_request(request: Any, known: Known = NO_KNOWN) -> Any:
    """vcrpy hands us a deep copy; scrub its URI, headers (allow-list) and body."""
    req: Any = request
    known = known | credentials_sent(dict(req.headers), str(req.uri))
    req.uri = scrub_uri(str(req.uri), known)
    req.headers = scrub_headers(dict(req.headers), ALLOWED_REQUEST_HEADERS, known)
    req.body = _scrub_bytes(req.body_bytes, known)
    return req


def scrub_vcr_response(response: dict[str, Any], known: Known = NO_KNOWN) -> dict[str, Any]:
    out = dict(response)
    out["headers"] = scrub_headers(response.get("headers"), ALLOWED_RESPONSE_HEADERS, known)
    body = response.get("body")
    if isinstance(body, dict) and "string" in body:
        out["body"] = {
            **cast(dict[str, Any], body),
            "string": _scrub_bytes(cast(dict[str, Any], body)["string"], known),
        }
    return out


class _Learned:
    """The credentials seen in this VCR's requests (and the environment's): vcrpy's response hook
    does not see the request, so the request hook remembers what the response must not echo."""

    def __init__(self) -> None:
        self.known = env_credentials()

    def request(self, request: Any) -> Any:
        self.known = self.known | credentials_sent(dict(request.headers), str(request.uri))
        return scrub_vcr_request(request, self.known)

    def response(self, response: dict[str, Any]) -> dict[str, Any]:
        return scrub_vcr_response(response, self.known)


class SafeSerializer:
    """``harness.record.cassette_format`` with every interaction scrubbed once more on the way out."""

    @staticmethod
    def serialize(cassette_dict: dict[str, Any]) -> str:
        interactions = [scrub_interaction(i) for i in cassette_dict.get("interactions", [])]
        return cassette_format.serialize({**cassette_dict, "interactions": interactions})

    @staticmethod
    def deserialize(cassette_string: str) -> dict[str, Any]:
        return cassette_format.deserialize(cassette_string)


class AtomicPersister:
    """vcrpy's filesystem persister, but refusing unclean text and never leaving a partial file."""

    @classmethod
    def load_cassette(cls, cassette_path: str | Path, serializer: Any) -> Any:
        path = Path(cassette_path)
        text = read_text(path) if path.is_file() else ""  # bounded, strict UTF-8, no FIFOs
        if not text.strip():  # like vcrpy: a missing or empty cassette is recorded anew
            raise _vcr_filesystem.CassetteNotFoundError()
        return _vcr_serialize.deserialize(text, serializer)

    @staticmethod
    def save_cassette(cassette_path: str | Path, cassette_dict: dict[str, Any], serializer: Any) -> None:
        text: str = _vcr_serialize.serialize(cassette_dict, serializer)
        check_clean(text, [])
        write_atomic(Path(cassette_path), text)


def harness_vcr(record_mode: str = "none", **options: Any) -> Any:
    """A ``vcr.VCR`` for harness cassettes; ``options`` override any setting (e.g. ``ignore_hosts``)."""
    if record_mode not in RECORD_MODES:
        raise ValueError(f"record mode {record_mode!r}: expected one of {', '.join(RECORD_MODES)}")
    learned = _Learned()
    settings: dict[str, Any] = {
        "serializer": "harness",
        "record_mode": "all" if record_mode == "rewrite" else record_mode,
        "drop_unused_requests": record_mode == "rewrite",
        "match_on": list(MATCH_ON),
        "before_record_request": learned.request,
        "before_record_response": learned.response,
        "decode_compressed_response": True,
        **options,
    }
    my_vcr: Any = _vcr.VCR(**settings)
    my_vcr.register_serializer("harness", SafeSerializer)
    my_vcr.register_persister(AtomicPersister)
    return my_vcr
