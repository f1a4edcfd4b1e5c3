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
    VERTEX,
    MissingKeyError,
    api_key_for,
    build_request,
    endpoint_for,
    join_url,
    vertex_base_url,
)
from tests.support.record import write_history

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
    assert (
        {p: e.key_env for p, e in ENDPOINTS.items()}
        == {
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
            "bedrock": "AWS_ACCESS_KEY_ID",  # with its secret key, session token and region (tests/test_record_bedrock.py)
        }
    )
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


def test_a_provider_the_recorder_cannot_sign_for_is_one_line_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every provider is recordable today; one that is not (a signing scheme still missing, as
    Bedrock's SigV4 once was) is refused in one line before any call, and nothing is written."""
    from harness.record.endpoints import NOT_RECORDABLE
    from tests.support.record import run_record

    monkeypatch.setitem(NOT_RECORDABLE, "anthropic", "its signing scheme is not implemented")
    result = run_record("anthropic", write_history(tmp_path), tmp_path / "x.yaml", "http://127.0.0.1:9", {})
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "harness: --provider: anthropic cannot be recorded yet: its signing scheme is not implemented"
    ]
    assert not (tmp_path / "x.yaml").exists()


# ---------------------------------------------------------------- Vertex AI (Gemini's wire)

VERTEX_TOKEN = "ya29.a0" + "T" * 60  # the shape of a Google OAuth access token (synthetic)
VERTEX_SOURCE = (
    Path(__file__).resolve().parent.parent
    / "traffic"
    / "pydantic-ai-more"
    / "models__test_google__test_google_vertex_service_tier_flex_stream.yaml"
)


def test_vertex_request_shape() -> None:
    base = vertex_base_url("my-project", "us-central1")
    params = CallParams(model="gemini-2.5-flash")
    request = build_request("gemini", {"contents": []}, params, VERTEX_TOKEN, base)
    assert request.url == (
        "https://us-central1-aiplatform.googleapis.com/v1/projects/my-project/locations/us-central1/"
        "publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
    )
    assert (
        request.headers["authorization"] == f"Bearer {VERTEX_TOKEN}"
        and "x-goog-api-key" not in request.headers
    )
    assert VERTEX_TOKEN not in repr(request)
    assert endpoint_for("gemini", base) is VERTEX and endpoint_for("gemini", None) is ENDPOINTS["gemini"]
    assert vertex_base_url("p", "global").startswith("https://aiplatform.googleapis.com/v1/projects/p/")
    assert api_key_for("gemini", {"VERTEX_ACCESS_TOKEN": VERTEX_TOKEN}, base) == VERTEX_TOKEN
    with pytest.raises(MissingKeyError, match="VERTEX_ACCESS_TOKEN is not set"):
        api_key_for("gemini", {"GEMINI_API_KEY": "AIza" + "T" * 35}, base)


def test_recording_vertex_through_the_fake_server_scrubs_the_token(tmp_path: Path) -> None:
    """The whole record path against a local server serving a recorded Vertex stream: the Vertex
    path and bearer token go out, and the cassette holds neither the token nor the header."""
    from harness.providers.replay import replay_file
    from harness.record.fakeserver import FakeProvider
    from tests.support.cassettes import model_calls
    from tests.support.record import run_record

    out = tmp_path / "vertex.yaml"
    with FakeProvider(model_calls("gemini", VERTEX_SOURCE)[:1]) as fake:
        base = f"{fake.base_url}/v1/projects/my-project/locations/us-central1/publishers/google"
        result = run_record(
            "gemini", write_history(tmp_path), out, base, {"VERTEX_ACCESS_TOKEN": VERTEX_TOKEN}
        )
    assert result.exit_code == 0, result.stderr
    (request,) = fake.requests
    assert request.path.startswith("/v1/projects/my-project/locations/us-central1/publishers/google/models/")
    assert request.path.endswith(":streamGenerateContent") and request.query == {"alt": "sse"}
    assert request.headers["authorization"] == f"Bearer {VERTEX_TOKEN}"
    text = out.read_text(encoding="utf-8")
    assert VERTEX_TOKEN not in text and "ya29." not in text and "Bearer" not in text
    (replayed,) = replay_file(out, None)
    assert replayed.message.stop_reason == "stop" and not replayed.errors
