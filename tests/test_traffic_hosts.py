"""Unit tests of how other clients' recordings are routed and read:

- ``harness.traffic.hosts``: every host judged as the dialect it speaks, and the user's mapping
  (``--host HOST=DIALECT``, ``[tool.harness.hosts]``);
- ``harness.traffic.dialect_views``: Azure's view of a body and its ``api-version`` rule, and what a
  compatible server's own extensions are;
- ``harness.traffic.by_shape``: a call whose URL was redacted, routed by its body;
- ``harness.traffic.not_judged``: model calls of wires without checks, named with why;
- ``harness.traffic.replies``: Bedrock InvokeModel stream replies in AWS frames;
- ``harness.traffic.continuity.continues``: two calls are one conversation only when the later
  history extends the earlier one.

Bodies here are synthetic (each labelled), or recordings bundled under ``traffic/clients2/``.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from harness.cli.main import app
from harness.contract.routing import Route, route
from harness.traffic.by_shape import has_no_url, route_by_shape
from harness.traffic.continuity import continues
from harness.traffic.dialect_views import azure_view, core_error, dialect_rules
from harness.traffic.hosts import AZURE, COMPATIBLE, HostMapError, azure_deployment, host_map, map_route
from harness.traffic.not_judged import not_judged
from harness.traffic.replies import read_reply
from harness.traffic.requests import read_request

ROOT = Path(__file__).resolve().parent.parent
CLIENTS2 = ROOT / "traffic" / "clients2"
runner = CliRunner()

CHAT = "/v1/chat/completions"


def _mapped(url: str, mapping: dict[str, str] | None = None) -> Route | None:
    return map_route(route("POST", url), url, mapping)


# ---------------------------------------------------------------- hosts


@pytest.mark.parametrize(
    ("url", "provider", "endpoint"),
    [
        (f"https://api.openai.com{CHAT}", "openai-chat", ""),
        ("https://chatgpt.com/backend-api/codex/responses", "openai-responses", ""),
        ("https://my-res.openai.azure.com/openai/deployments/gpt4o/chat/completions?api-version=2024-06-01",
         "openai-chat", AZURE),
        ("https://my-res.cognitiveservices.azure.com/openai/v1/responses", "openai-responses", AZURE),
        (f"http://localhost:8000{CHAT}", "openai-chat", COMPATIBLE),
        (f"https://api.together.xyz{CHAT}", "openai-chat", COMPATIBLE),
        (f"https://api.groq.com/openai{CHAT}", "groq", ""),  # a dialect the router knows by name
        ("https://api.anthropic.com/v1/messages", "anthropic", ""),  # another wire: the router's verdict
    ],
)  # fmt: skip
def test_every_host_is_judged_as_the_dialect_it_speaks(url: str, provider: str, endpoint: str) -> None:
    routed = _mapped(url)
    assert routed is not None and (routed.provider, routed.endpoint) == (provider, endpoint)


def test_the_users_mapping_names_a_hosts_dialect() -> None:
    url = f"https://llm.internal.example.com{CHAT}"
    assert _mapped(url).endpoint == COMPATIBLE  # type: ignore[union-attr]
    groq = _mapped(url, {"llm.internal.example.com": "groq"})
    assert groq is not None and groq.provider == "groq" and "mapped: groq" in groq.reason
    openai = _mapped(url, {"llm.internal.example.com": "openai"})
    assert openai is not None and (openai.provider, openai.endpoint) == ("openai-chat", "")
    # a dialect on the Responses wire keeps the router's verdict (the dialects are judged on Chat)
    responses = "https://llm.internal.example.com/v1/responses"
    assert _mapped(responses, {"llm.internal.example.com": "groq"}) == route("POST", responses)


def test_host_map_reads_the_project_then_the_command_line(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.harness.hosts]\n"A.example.com" = "groq"\n"b.example.com" = "azure"\n', encoding="utf-8"
    )
    mapping = host_map(["b.example.com=openai", " c.example.com =compatible"], project=tmp_path)
    assert mapping == {"a.example.com": "groq", "b.example.com": "openai", "c.example.com": "compatible"}


@pytest.mark.parametrize(
    ("entries", "toml", "fragment"),
    [
        (["x.example.com"], "", "expected HOST=DIALECT"),
        (["x.example.com=vertex"], "", "unknown dialect 'vertex'"),
        (["https://x.example.com/v1=groq"], "", "not a host name"),
        ([], "[tool.harness]\nhosts = 3\n", "not a table of host = dialect"),
        ([], "[tool.harness.hosts\n", "unreadable"),
    ],
)
def test_a_bad_host_mapping_is_one_line(entries: list[str], toml: str, fragment: str, tmp_path: Path) -> None:
    if toml:
        (tmp_path / "pyproject.toml").write_text(toml, encoding="utf-8")
    with pytest.raises(HostMapError, match=fragment) as info:
        host_map(entries, project=tmp_path)
    assert "\n" not in str(info.value)


def test_the_host_option_of_calibrate_and_audit_traffic(tmp_path: Path) -> None:
    """SYNTHETIC: a recorded call to a private host whose body only Groq's dialect accepts."""
    import yaml

    body = {
        "model": "llama-3.3-70b",
        "messages": [{"role": "user", "content": "hi"}],
        "reasoning_format": "hidden",
    }
    cassette: dict[str, Any] = {
        "interactions": [
            {
                "request": {"method": "POST", "uri": f"https://llm.internal.example.com{CHAT}",
                            "body": json.dumps(body), "headers": {}},
                "response": {"status": {"code": 200}, "headers": {},
                             "body": {"string": json.dumps({"id": "c", "object": "chat.completion", "choices": []})}},
            }
        ]
    }  # fmt: skip
    path = tmp_path / "private.yaml"
    path.write_text(yaml.safe_dump(cassette), encoding="utf-8")
    plain = runner.invoke(app, ["calibrate", str(path), "--json"])
    mapped = runner.invoke(app, ["calibrate", str(path), "--json", "--host", "llm.internal.example.com=groq"])
    assert "openai-chat (compatible)" in plain.stdout, plain.stdout[-500:]
    assert '"groq"' in mapped.stdout and "compatible" not in mapped.stdout, mapped.stdout[-500:]
    out = tmp_path / "report"
    audited = runner.invoke(
        app, ["audit-traffic", str(path), "--out", str(out), "--host", "llm.internal.example.com=groq"]
    )
    assert audited.exit_code in (0, 1) and "groq" in (out / "traffic-audit.json").read_text(encoding="utf-8")
    for command in ("calibrate", "audit-traffic"):
        bad = runner.invoke(app, [command, str(path), "--host", "llm.internal.example.com=nope"])
        assert bad.exit_code == 2 and "unknown dialect 'nope'" in bad.stderr


# ---------------------------------------------------------------- Azure and compatible servers


AZURE_URL = "https://my-res.openai.azure.com/openai/deployments/gpt-4o-prod/chat/completions"


def test_azure_deployment_and_api_version_are_read_from_the_url() -> None:
    assert azure_deployment(AZURE_URL + "?api-version=2024-10-21") == ("gpt-4o-prod", "2024-10-21")
    assert azure_deployment("https://my-res.openai.azure.com/openai/v1/chat/completions") == (None, None)


def test_azure_names_the_model_by_its_deployment_when_the_body_has_none() -> None:
    routed = _mapped(AZURE_URL + "?api-version=2024-10-21")
    assert routed is not None
    assert azure_view(routed, {"messages": []}, AZURE_URL)["model"] == "gpt-4o-prod"
    assert azure_view(routed, {"model": "mine", "messages": []}, AZURE_URL)["model"] == "mine"


def test_an_azure_deployment_url_without_api_version_is_a_reject() -> None:
    routed = _mapped(AZURE_URL)
    assert routed is not None
    (finding,) = dialect_rules(routed, AZURE_URL)
    assert finding.rule == "azure-api-version" and finding.kind == "reject"
    assert dialect_rules(routed, AZURE_URL + "?api-version=2024-10-21") == []
    v1 = "https://my-res.openai.azure.com/openai/v1/chat/completions"  # the v1 API takes none
    assert dialect_rules(_mapped(v1), v1) == []  # type: ignore[arg-type]
    plain = _mapped(f"https://api.openai.com{CHAT}")
    assert plain is not None and dialect_rules(plain, AZURE_URL) == []  # Azure's rule only on Azure


def test_a_compatible_servers_extensions_and_nulls_are_its_own_business() -> None:
    compatible, openai = _mapped(f"http://localhost:8000{CHAT}"), _mapped(f"https://api.openai.com{CHAT}")
    assert compatible is not None and openai is not None
    body: dict[str, Any] = {"model": "m", "messages": [], "top_k": 5, "response_format": None}
    extra = "Additional properties are not allowed ('top_k' was unexpected)"
    assert not core_error(compatible, "", extra, body)
    assert not core_error(compatible, "response_format", "None is not of type 'object'", body)
    assert core_error(compatible, "messages", "[] is too short", body)  # the Chat core stands
    assert core_error(openai, "", extra, body)  # OpenAI's closed objects stand on OpenAI


# ---------------------------------------------------------------- redacted URLs


@pytest.mark.parametrize(
    ("body", "headers", "provider"),
    [
        ({"model": "gpt-5", "input": "hi"}, {}, "openai-responses"),
        ({"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}, {}, "gemini"),
        ({"messages": [{"role": "user", "content": [{"text": "hi"}]}]}, {}, "bedrock"),
        ({"model": "c", "max_tokens": 9, "messages": [{"role": "user", "content": "hi"}]},
         {"anthropic-version": ["**REDACTED**"]}, "anthropic"),
        ({"model": "c", "max_tokens": 9, "thinking": {"type": "enabled", "budget_tokens": 1024},
          "messages": [{"role": "user", "content": "hi"}]}, {}, "anthropic"),
        ({"model": "gpt-4o", "max_tokens": 9, "messages": [{"role": "user", "content": "hi"}]}, {}, "openai-chat"),
    ],
)  # fmt: skip
def test_a_redacted_url_is_routed_by_the_bodys_shape(
    body: dict[str, Any], headers: dict[str, list[str]], provider: str
) -> None:
    """SYNTHETIC bodies, each with the part only its wire has."""
    assert has_no_url("**REDACTED**") and not has_no_url("https://api.openai.com/v1/responses")
    routed = route_by_shape("POST", body, headers)
    assert (
        routed is not None and routed.provider == provider and "routed by the body's shape" in routed.reason
    )


def test_a_body_of_no_models_shape_is_not_routed() -> None:
    assert route_by_shape("POST", {"messages": "x"}, {}) is None  # no list of messages
    assert route_by_shape("POST", {"prompt": "x"}, {}) is None
    assert route_by_shape("GET", {"input": "x"}, {}) is None


def test_langchains_redacted_calls_are_read_with_a_note() -> None:
    from harness.traffic.loader import load_file

    calls = load_file(
        CLIENTS2 / "langchain/libs/partners/openai/tests/cassettes/test_configuration_update_block.yaml.gz"
    )
    assert calls and all(c.route is not None and c.route.provider == "openai-responses" for c in calls)
    assert all(c.note is not None and "**REDACTED**" in c.note for c in calls)


# ---------------------------------------------------------------- not judged


@pytest.mark.parametrize(
    ("url", "body", "fragment"),
    [
        ("http://localhost:11434/api/chat", {}, "ollama's native API (/api/chat, /api/generate) at a local server"),
        ("https://api.openai.com/v1/completions", {"prompt": "x"}, "a legacy text completion"),
        ("https://api.anthropic.com/v1/complete", {"prompt": "x"}, "Anthropic's legacy Text Completions"),
        ("https://api.cohere.com/v1/chat", {}, "Cohere's v1 API"),
        ("https://api.writer.com/v1/chat", {}, "Writer's API"),
        ("https://api.replicate.com/v1/predictions", {}, "Replicate's predictions API"),
        ("https://bedrock-runtime.us-east-1.amazonaws.com/model/us.amazon.nova-micro-v1%3A0/invoke", {},
         "Amazon's (Titan or Nova) InvokeModel body"),
        ("https://bedrock-runtime.us-east-1.amazonaws.com/model/meta.llama3-8b-instruct-v1%3A0/invoke", {},
         "Meta Llama's InvokeModel body"),
        ("https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-v2/invoke",
         {"prompt": "\n\nHuman: hi\n\nAssistant:"}, "Anthropic's legacy Text Completions body"),
    ],
)  # fmt: skip
def test_model_calls_without_checks_are_named_not_judged(
    url: str, body: dict[str, Any], fragment: str
) -> None:
    why = not_judged("POST", url, body)
    assert why is not None and fragment in why, why


@pytest.mark.parametrize(
    ("method", "url", "body"),
    [
        ("POST", f"https://api.openai.com{CHAT}", {}),
        ("GET", "http://localhost:11434/api/chat", {}),
        ("POST", "https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-sonnet-4-5/invoke",
         {"messages": [], "anthropic_version": "bedrock-2023-05-31"}),
        ("POST", "https://bedrock-runtime.us-east-1.amazonaws.com/model/amazon.nova-micro-v1%3A0/converse", {}),
    ],
)  # fmt: skip
def test_judged_calls_are_not_named_not_judged(method: str, url: str, body: dict[str, Any]) -> None:
    assert not_judged(method, url, body) is None


# ---------------------------------------------------------------- Bedrock InvokeModel stream replies


def test_an_invoke_model_stream_reply_is_read_from_its_aws_frames() -> None:
    """SYNTHETIC: Anthropic's events, each base64 in a ``chunk`` frame's ``bytes``, as Bedrock sends them."""
    from harness.emit.bedrock import frame_bytes

    events: list[dict[str, Any]] = [
        {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": []}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hello"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 1,
         "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": '{"a":1}'}},
        {"type": "content_block_stop", "index": 1},
    ]  # fmt: skip
    body = b"".join(
        frame_bytes(
            "chunk", json.dumps({"bytes": base64.b64encode(json.dumps(e).encode()).decode()}).encode()
        )
        for e in events
    )
    reply = read_reply("anthropic", body)
    assert reply.problem is None and reply.text == "Hello"
    assert [(t.id, t.name) for t in reply.tool_calls] == [("toolu_1", "f")]
    broken = read_reply("anthropic", body[:-3])  # a cut frame
    assert broken.problem is not None and "\n" not in broken.problem


# ---------------------------------------------------------------- conversations


def _chat(*messages: dict[str, Any]) -> Any:
    return read_request("openai-chat", {"model": "m", "messages": list(messages)})


def test_a_later_call_continues_an_earlier_one_only_when_its_history_extends_it() -> None:
    """SYNTHETIC pairs. google-adk's two agents in one recording (traffic/clients2's
    test_google_adk_instrumentor_multi_agent.yaml) were judged one conversation as neighbours."""
    reply = read_reply(
        "openai-chat", json.dumps({"choices": [{"message": {"role": "assistant", "content": "4"}}]}).encode()
    )
    ask = {"role": "user", "content": "2+2?"}
    first = _chat(ask)
    assert continues(
        first, _chat(ask, {"role": "assistant", "content": "4"}, {"role": "user", "content": "x2?"}), reply
    )
    assert continues(
        first, _chat(ask, {"role": "assistant", "content": "four"}, {"role": "user", "content": "ok"}), reply
    )
    other_agent = _chat({"role": "user", "content": "weather?"}, {"role": "assistant", "content": "4"}, ask)
    assert continues(first, other_agent, reply) == ""  # another history: not a continuation
    assert continues(first, _chat(ask), reply) == ""  # not longer


def test_the_google_adk_recording_holds_two_conversations() -> None:
    from harness.traffic.audit import audit_traffic

    adk = next(CLIENTS2.rglob("test_google_adk_instrumentor_multi_agent.yaml"))
    result = audit_traffic([adk])
    assert result.figures["gemini"]["continuations"] < result.figures["gemini"]["pairs"]
