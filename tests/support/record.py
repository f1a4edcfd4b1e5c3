"""Shared by the recording tests: fake keys, histories on disk, and ``harness record`` run in-process."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner, Result

from harness.cli.main import app
from harness.codec import dumps_history
from harness.record.endpoints import ENDPOINTS
from harness.scenarios import get_scenario

ROOT = Path(__file__).resolve().parents[2]
CASSETTES = ROOT / "cassettes"
REALSTREAMS = ROOT / "tests" / "data" / "realstreams"  # the unscrubbed originals, with SOURCES.md

#: Shaped like real keys so the scrubber's patterns are what removes them (not a lucky prefix).
FAKE_KEYS = {
    "OPENAI_API_KEY": "sk-proj-" + "T" * 48,
    "ANTHROPIC_API_KEY": "sk-ant-api03-" + "T" * 48,
    "GEMINI_API_KEY": "AIza" + "T" * 35,
    "OPENROUTER_API_KEY": "sk-or-v1-" + "0" * 64,
    "MISTRAL_API_KEY": "T" * 32,  # Mistral keys are 32 opaque characters (no prefix)
    "GROQ_API_KEY": "gsk_" + "T" * 52,
    "DEEPSEEK_API_KEY": "sk-" + "0" * 32,
    "CEREBRAS_API_KEY": "csk-" + "t" * 48,
    "ZAI_API_KEY": "0" * 32 + "." + "T" * 16,
    "HF_TOKEN": "hf_" + "T" * 34,
    # AWS: an access key id (AKIA + 16), a 40-character secret key and an STS session token's shape
    # (the base64 head every real one has, tests/test_record_bedrock.py).
    "AWS_ACCESS_KEY_ID": "AKIA" + "TESTFAKE" * 2,
    "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYTESTFAKEKEY",  # gitleaks:allow (fake)
    "AWS_SESSION_TOKEN": "IQoJb3JpZ2luX2Vj" + "EFakeSessionTokenForTests0123456789+/" * 8,  # gitleaks:allow
    "CO_API_KEY": "T" * 40,  # Cohere keys are 40 opaque alphanumerics (no prefix)
}
#: The other variables a SigV4 provider needs besides its key variable.
_AWS_ENV = ("AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN")


def key_env(provider: str) -> dict[str, str]:
    endpoint = ENDPOINTS[provider]
    name = endpoint.key_env
    if endpoint.auth_header == "sigv4":
        return {name: FAKE_KEYS[name], **{n: FAKE_KEYS[n] for n in _AWS_ENV}, "AWS_REGION": "us-east-1"}
    return {name: FAKE_KEYS[name]}


def write_history(tmp_path: Path, scenario: str = "plain_single_turn") -> Path:
    path = tmp_path / f"{scenario}.jsonl"
    path.write_text(dumps_history(get_scenario(scenario).history), encoding="utf-8")
    return path


def run_record(
    provider: str, history: Path, out: Path, base_url: str, env: dict[str, str], *extra: str
) -> Result:
    args = ["record", "--provider", provider, "--history", str(history), "--out", str(out)]
    return CliRunner().invoke(app, [*args, "--base-url", base_url, "--retries", "0", *extra], env=env)
