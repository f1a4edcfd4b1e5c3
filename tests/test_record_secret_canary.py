"""Canary of every kind the detector knows, in every placement: through ``harness scan`` and through
``harness record`` against the loopback fake provider (then every byte on disk decoded and searched).

The samples come from the rules themselves (tests/support/secret_samples.py). Kinds are batched:
one recording carries every sample in the request URL path, the query, the JSON body, the
response body as text, base64 and non-UTF-8 bytes, and the provider's masked echo of the key.
"""

from __future__ import annotations

import base64
import binascii
import gzip
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import pytest
import yaml

from harness.record.fakeserver import FakeProvider
from harness.record.scan import scan_text, views
from harness.record.scrub import Known, scrub_interaction
from harness.record.secrets import kinds, secret_spans
from tests.support.cassettes import model_calls
from tests.support.record import CASSETTES, write_history
from tests.support.secret_samples import failures, samples

#: Rules whose regex the small generator cannot satisfy (``\b`` between two word characters it
#: draws at random, a multi-line YAML document): their kinds are still detected, just not sampled.
UNSAMPLED = ["airtable-personnal-access-token", "facebook-access-token", "kubernetes-secret-yaml"]


def test_every_kind_has_a_sample_but_the_documented_few() -> None:
    assert failures() == UNSAMPLED
    assert len(samples()) == len(kinds()) - len(UNSAMPLED)
    assert len(kinds()) >= 250  # the harness's rules plus gitleaks' 221 content rules


def _interaction(uri: str, body: object, headers: dict[str, Any] | None = None) -> str:
    request: dict[str, Any] = {"method": "POST", "uri": uri, "headers": headers or {}}
    return yaml.safe_dump({"interactions": [{"request": request, "response": {"body": {"string": body}}}]})


PLACEMENTS: dict[str, Callable[[str], str]] = {
    ".env": lambda s: f"# settings\nEXAMPLE={s}\n",
    "config.yaml": lambda s: yaml.safe_dump({"config": {"value": s}}),
    "body.json": lambda s: json.dumps({"messages": [{"content": s}]}),
    "header.yaml": lambda s: _interaction("https://h/v1", "", {"x-custom": [s]}),
    "query.yaml": lambda s: _interaction(f"https://h/v1?q={quote(s, safe='')}", ""),
    "path.yaml": lambda s: _interaction(f"https://h/{quote(s, safe='')}/v1", ""),
    "response.yaml": lambda s: _interaction("https://h/v1", f"data: {json.dumps({'t': s})}\n\n"),
    "gzip.yaml": lambda s: _interaction("https://h/v1", gzip.compress(s.encode())),
    "base64.yaml": lambda s: _interaction("https://h/v1", base64.b64encode(s.encode()).decode()),
    "binary.yaml": lambda s: _interaction("https://h/v1", b"\xff\xfe " + s.encode() + b" \x80"),
}


@pytest.mark.parametrize("placement", sorted(PLACEMENTS))
def test_scan_finds_every_kind_in_every_placement(placement: str) -> None:
    """All samples at once (one per line), through the scanner's views and the shared detector."""
    content = PLACEMENTS[placement]("\n".join(sample for sample, _ in samples().values()))
    skipped: list[str] = []
    found = {
        m.value for view in views(content, placement, skipped) for m in secret_spans(view, identifiers=False)
    }
    assert skipped == []
    missed = [kind for kind, (_, secret) in samples().items() if not any(secret in value for value in found)]
    assert missed == [], f"{placement}: {len(missed)} kind(s) missed: {missed[:10]}"
    assert [f for f in scan_text(content, placement) if f.cls == "secret"]


# ---------------------------------------------------------------- the scrubber, end to end


def _texts_on_disk(root: Path) -> list[str]:
    """Every file's text, plus every decoding a reader could apply: YAML values, !!binary, base64, gzip."""
    out: list[str] = []
    for path in root.rglob("*"):
        if not path.is_file():
            continue
        data = path.read_bytes()
        out.append(data.decode("latin-1"))
        try:
            loaded: Any = yaml.safe_load(data)
        except yaml.YAMLError:
            continue
        stack: list[Any] = [loaded]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                stack += list(item.values())  # pyright: ignore[reportUnknownArgumentType]
            elif isinstance(item, list):
                stack += item
            elif isinstance(item, bytes):
                stack.append(gzip.decompress(item) if item[:2] == b"\x1f\x8b" else item.decode("latin-1"))
            elif isinstance(item, str):
                out += [item, unquote(item)]
                for run in re.findall(r"[A-Za-z0-9+/_-]{16,}={0,2}", item):
                    try:
                        out.append(
                            base64.b64decode(run + "=" * (-len(run) % 4), altchars=b"-_").decode("latin-1")
                        )
                        out.append(base64.b64decode(run + "=" * (-len(run) % 4)).decode("latin-1"))
                    except (binascii.Error, ValueError):
                        continue
    return out


def _leaks(root: Path, secrets: dict[str, str]) -> list[str]:
    texts = _texts_on_disk(root)
    return sorted(kind for kind, secret in secrets.items() if any(secret in t for t in texts))


KEY = "sk-ant-api03-" + "Zq8Xv2Lm9Pw4Rt6Ys1Nb3Kc5Hd7Gf0Ja" + "-wxyz"
PASSWORD = "pa55w0rd-" + "Canary"  # in --base-url as user:password@
SOURCE = CASSETTES / "anthropic" / "pai__sonnet45_thinking_tool_use_roundtrip.yaml"


def _response_with(body: bytes, sample_text: str) -> bytes:
    """The recorded stream with every sample in SSE comments: as text, as base64, between non-UTF-8
    bytes, and the key echoed masked the ways providers do."""
    masked = (
        f"Incorrect API key provided: {KEY[:6]}*****{KEY[-4:]}; {KEY[:10]}\u2026{KEY[-3:]}; ***{KEY[-4:]}"
    )
    comments = [
        f": {sample_text}".encode(),
        b": " + base64.b64encode(sample_text.encode()),
        b": \xff\xfe " + sample_text.encode() + b" \x80",
        f": {masked}".encode(),
    ]
    return b"\n".join(comments) + b"\n\n" + body


def test_record_leaks_no_kind_in_any_placement(tmp_path: Path) -> None:
    found = samples()
    secrets = {kind: secret for kind, (_, secret) in found.items()}
    # The trailing "KEY-----" closes the PEM block a sample opens, so that the private-key rule's
    # match cannot run on into the next placement and hide it (each line must be scrubbed on its own).
    joined = " ; ".join(sample for sample, _ in found.values()) + " KEY-----"
    for sub in ("tmp", "home", "work", "inputs"):
        (tmp_path / sub).mkdir()
    params = tmp_path / "inputs" / "params.json"  # the test's own inputs hold the samples: not searched
    params.write_text(json.dumps({"system": joined, "max_tokens": 64}), encoding="utf-8")
    out = tmp_path / "work" / "canary.yaml"
    calls = model_calls("anthropic", SOURCE)[:1]
    calls = [replace(calls[0], body=_response_with(calls[0].body, joined))]
    path = "/".join(quote(sample, safe="") for sample in list(found.values())[::2] for sample in sample[:1])
    query = "&".join(f"c{i}={quote(s, safe='')}" for i, (s, _) in enumerate(list(found.values())[1::2]))
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path / "home"),
        "TMPDIR": str(tmp_path / "tmp"),
        "ANTHROPIC_API_KEY": KEY,
    }
    with FakeProvider(calls, echo_credentials=True) as fake:
        base = "http://canary:" + PASSWORD + f"@127.0.0.1:{fake.port}/{path}?{query}"
        command = [
            sys.executable,
            "-c",
            "from harness.cli.main import app; app(prog_name='harness')",
            "record",
        ]
        args = [
            "--provider",
            "anthropic",
            "--history",
            str(write_history(tmp_path / "inputs")),
            "--out",
            str(out),
        ]
        proc = subprocess.run(
            [*command, *args, "--params", str(params), "--base-url", base, "--retries", "0"],
            cwd=tmp_path / "work",
            env=env,
            capture_output=True,
            timeout=90,
            check=False,
        )
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    assert len(fake.requests) == 1
    assert out.is_file()
    secrets |= {"api-key": KEY, "url-password": PASSWORD, "masked-echo": KEY[:6] + "*****"}
    assert [_leaks(tmp_path / sub, secrets) for sub in ("tmp", "home", "work")] == [[], [], []]
    assert not any(s.encode() in proc.stdout + proc.stderr for s in secrets.values())


def test_scrubber_gzip_and_binary_bodies_leak_no_kind() -> None:
    found = samples()
    joined = " ; ".join(sample for sample, _ in found.values())
    for body in (gzip.compress(joined.encode()), b"\xff" + joined.encode() + b"\x80", joined.encode()):
        clean = scrub_interaction(
            {
                "request": {"method": "POST", "uri": "https://h/v1", "headers": {}, "body": joined},
                "response": {"status": {"code": 200}, "headers": {}, "body": {"string": body}},
            },
            Known.of([KEY]),
        )
        text = json.dumps(clean, default=lambda b: b.decode("latin-1"))  # pyright: ignore[reportUnknownLambdaType, reportUnknownMemberType]
        leaked = sorted(
            k for k, (_, secret) in found.items() if secret in text or json.dumps(secret)[1:-1] in text
        )
        assert leaked == []
