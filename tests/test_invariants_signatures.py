"""Signatures are bytes: standard and URL-safe base64 of the same bytes are one signature (I2, I13)."""

from __future__ import annotations

import base64
from typing import Any

from harness.invariants import run_invariants
from harness.invariants.base import signature_key
from harness.scenarios import get_scenario
from tests.invariant_cases import Mutant


def test_signature_key_reads_both_alphabets_and_padding() -> None:
    raw = bytes(range(250, 256)) + b"\xfb\xff\xfe"
    standard = base64.b64encode(raw).decode()
    url = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    assert standard != url and signature_key(standard) == signature_key(url) == raw
    assert signature_key("not base64!") == "not base64!"
    assert signature_key(standard) != signature_key(base64.b64encode(raw[:-1]).decode())


def _rewrite(transform: Any) -> Any:
    def mutate(provider: str, body: dict[str, Any]) -> None:
        for content in body.get("contents", []):
            for part in content.get("parts", []):
                if "thoughtSignature" in part:
                    part["thoughtSignature"] = transform(part["thoughtSignature"])

    return mutate


def test_a_url_safe_respelling_is_the_same_signature_and_a_changed_one_is_not() -> None:
    scenario = get_scenario("thinking_google_signature_on_function_call")
    params = scenario.params_for("gemini")

    def url_safe(sig: str) -> str:
        return base64.urlsafe_b64encode(base64.b64decode(sig)).decode().rstrip("=")

    def changed(sig: str) -> str:
        raw = bytearray(base64.b64decode(sig))
        raw[0] ^= 0xFF
        return base64.b64encode(bytes(raw)).decode()

    for name, transform, holds in (("url-safe", url_safe, True), ("changed", changed, False)):
        report = run_invariants(
            scenario.history,
            params,
            target=Mutant(body=_rewrite(transform)),
            providers=["gemini"],
            invariants=["I2", "I13"],
        )
        assert report.ok is holds, (name, [str(v) for v in report.violations])
