"""Per-provider URL, auth header and key variable; ``harness record`` input errors are one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from harness.cli.main import app
from harness.contract.providers import PROVIDERS
from harness.params import CallParams
from harness.record.endpoints import (
    ENDPOINTS,
    NOT_RECORDABLE,
    MissingKeyError,
    api_key_for,
    build_request,
    join_url,
)
from tests.record_support import write_history

KEY = "test-key"


@pytest.mark.parametrize(
    ("provider", "url", "auth"),
    [
        ("openai-chat", "https://api.openai.com/v1/chat/completions", ("authorization", f"Bearer {KEY}")),
        ("openai-responses", "https://api.openai.com/v1/responses", ("authorization", f"Bearer {KEY}")),
        ("anthropic", "https://api.anthropic.com/v1/messages", ("x-api-key", KEY)),
        (
            "gemini",
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
            ("x-goog-api-key", KEY),
        ),
        ("openrouter", "https://openrouter.ai/api/v1/chat/completions", ("authorization", f"Bearer {KEY}")),
        ("cohere", "https://api.cohere.com/v2/chat", ("authorization", f"Bearer {KEY}")),
    ],
)
def test_live_request_shape(provider: str, url: str, auth: tuple[str, str]) -> None:
    request = build_request(provider, {"a": "é"}, CallParams(model="gemini-2.5-pro"), KEY)
    assert request.url == url
    assert request.headers[auth[0]] == auth[1]
    assert request.headers["content-type"] == "application/json"
    assert request.headers["accept"] == "text/event-stream"
    assert request.body_json() == {"a": "é"}
    assert KEY not in repr(request)
    if provider == "anthropic":
        assert request.headers["anthropic-version"] == "2023-06-01"


def test_gemini_non_streamed_and_base_url_query() -> None:
    params = CallParams(model="gemini-2.5-flash", stream=False)
    request = build_request("gemini", {}, params, KEY, "http://127.0.0.1:9/v1beta/?key=abc")
    assert request.url == "http://127.0.0.1:9/v1beta/models/gemini-2.5-flash:generateContent?key=abc"
    assert request.headers["accept"] == "application/json"
    assert join_url("http://h/v1beta?key=k", "models/m:streamGenerateContent?alt=sse") == (
        "http://h/v1beta/models/m:streamGenerateContent?key=k&alt=sse"
    )


def test_key_variables() -> None:
    assert {p: e.key_env for p, e in ENDPOINTS.items()} == {
        "openai-chat": "OPENAI_API_KEY",
        "openai-responses": "OPENAI_API_KEY",
        "anthropic": "ANTHROPIC_API_KEY",
        "gemini": "GEMINI_API_KEY",
        "openrouter": "OPENROUTER_API_KEY",
        "mistral": "MISTRAL_API_KEY",
        "groq": "GROQ_API_KEY",
        "deepseek": "DEEPSEEK_API_KEY",
        "cerebras": "CEREBRAS_API_KEY",
        "zai": "ZAI_API_KEY",
        "huggingface": "HF_TOKEN",
        "cohere": "CO_API_KEY",
    }
    assert set(ENDPOINTS) | set(NOT_RECORDABLE) == set(PROVIDERS)
    assert api_key_for("gemini", {"GEMINI_API_KEY": " k "}) == "k"
    with pytest.raises(
        MissingKeyError, match=r"^ANTHROPIC_API_KEY is not set \(needed to record anthropic\)$"
    ):
        api_key_for("anthropic", {"ANTHROPIC_API_KEY": ""})


def _record(*args: str, env: dict[str, str | None] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["record", *args], env=env)
    return result.exit_code, result.stderr


def test_missing_key_is_one_line_exit_2(tmp_path: Path) -> None:
    history = write_history(tmp_path)
    code, stderr = _record(
        "--provider", "openrouter", "--history", str(history), "--out", str(tmp_path / "o.yaml"),
        env={"OPENROUTER_API_KEY": None},
    )  # fmt: skip
    assert (code, stderr) == (2, "harness: OPENROUTER_API_KEY is not set (needed to record openrouter)\n")
    assert not (tmp_path / "o.yaml").exists()


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("provider", "harness: --provider: unknown provider 'nope'"),
        ("history", "harness: missing.jsonl:0: (file): no such file"),
        ("tool-results", "harness: bad.json: expected a JSON object mapping tool name -> output"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str, expected: str
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("bad.json").write_text(json.dumps(["not", "an", "object"]), encoding="utf-8")
    args = {"--provider": "anthropic", "--history": str(write_history(tmp_path).name), "--out": "o.yaml"}
    args.update({"provider": {"--provider": "nope"}, "history": {"--history": "missing.jsonl"}}.get(case, {}))
    if case == "tool-results":
        args["--tool-results"] = "bad.json"
    code, stderr = _record(*(x for pair in args.items() for x in pair), env={"ANTHROPIC_API_KEY": "k"})
    assert code == 2
    assert stderr.startswith(expected) and stderr.count("\n") == 1
    assert not Path("o.yaml").exists()


def test_out_must_be_writable_before_any_call(tmp_path: Path) -> None:
    history = str(write_history(tmp_path))
    code, stderr = _record(
        "--provider",
        "anthropic",
        "--history",
        history,
        "--out",
        str(tmp_path),
        env={"ANTHROPIC_API_KEY": "k"},
    )
    assert (code, stderr) == (2, f"harness: --out: {tmp_path}: cannot write: it is a directory\n")


def test_a_provider_the_recorder_cannot_sign_for_is_one_line_exit_2(tmp_path: Path) -> None:
    from harness.record.endpoints import NOT_RECORDABLE
    from tests.record_support import run_record, write_history

    for provider in NOT_RECORDABLE:
        result = run_record(provider, write_history(tmp_path), tmp_path / "x.yaml", "http://127.0.0.1:9", {})
        assert result.exit_code == 2
        assert result.stderr.strip().splitlines() == [
            f"harness: --provider: {provider} cannot be recorded yet: {NOT_RECORDABLE[provider]}"
        ]
        assert not (tmp_path / "x.yaml").exists()
