"""The endpoints that serve a provider's wire beside its own API: Anthropic's Messages body on
AWS Bedrock's InvokeModel (``--endpoint bedrock``) and Gemini's on Google Vertex AI (``--endpoint vertex``).

Recorded evidence (traffic/pydantic-ai-more/, SOURCES.md):
``models__test_anthropic_mid_conversation_system__test_mid_conversation_system_prompt_on_bedrock.yaml#0``
(InvokeModel, 200) and the ``*vertex*`` cassettes (Vertex generateContent, 200 and 400). Bodies
changed from a recording are labelled synthetic.
"""

from __future__ import annotations

import base64
import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from harness.cli.main import app
from harness.codec import dumps_history
from harness.contract.routing import bedrock_invoke_model, route
from harness.contract.wires import sniff_wire
from harness.oracles import validate
from harness.params import CallParams
from harness.providers import get_adapter, get_endpoint, get_parser
from harness.providers.gemini.vertex import serves, vertex_url
from harness.providers.replay import load_exchanges, result_to_json
from harness.rules.bedrock_invoke import check_invoke, invoke_view
from harness.rules.vertex import check_vertex
from harness.scenarios import get_scenario, load_scenarios
from harness.stream.drive import chunked, parse_bytes, parse_chunks
from harness.stream.eventstream import EventStreamEvents
from harness.stream.sse import SSEDecoder
from harness.traffic.audit import audit_traffic
from harness.traffic.calibrate import calibrate
from tests.support.eventstream import string_frame

ROOT = Path(__file__).resolve().parent.parent
TRAFFIC = ROOT / "traffic" / "pydantic-ai-more"
INVOKE = (
    TRAFFIC
    / "models__test_anthropic_mid_conversation_system__test_mid_conversation_system_prompt_on_bedrock.yaml"
)
VERTEX = TRAFFIC / "models__test_google__test_google_model_vertex_provider.yaml"
VERTEX_STREAM = TRAFFIC / "models__test_google__test_google_vertex_service_tier_flex_stream.yaml"
BEDROCK = "https://bedrock-runtime.us-east-1.amazonaws.com/model"
runner = CliRunner()


# ---------------------------------------------------------------- routing


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (f"{BEDROCK}/us.anthropic.claude-opus-4-8/invoke", ("anthropic", "anthropic", "bedrock")),
        (
            f"{BEDROCK}/anthropic.claude-3-5-haiku-20241022-v1%3A0/invoke-with-response-stream",
            ("anthropic", "anthropic", "bedrock"),
        ),
        (
            f"{BEDROCK}/arn%3Aaws%3Abedrock%3Aus-east-1%3A1%3Ainference-profile%2Fus.anthropic.claude-x/invoke",
            ("anthropic", "anthropic", "bedrock"),
        ),
        (f"{BEDROCK}/us.amazon.nova-micro-v1%3A0/converse", ("bedrock", "bedrock-converse", "")),
        # other families' InvokeModel bodies (Titan, Cohere embeddings) and CountTokens: not model calls
        (f"{BEDROCK}/amazon.titan-embed-text-v2%3A0/invoke", None),
        (f"{BEDROCK}/anthropic.claude-sonnet-4-20250514-v1:0/count-tokens", None),
        (
            "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/publishers/google/"
            "models/gemini-2.5-flash:streamGenerateContent?alt=sse",
            ("gemini", "gemini", "vertex"),
        ),
        (
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent",
            ("gemini", "gemini", ""),
        ),
    ],
)
def test_endpoints_route_to_the_wire_they_serve(url: str, expected: tuple[str, str, str] | None) -> None:
    found = route("POST", url)
    assert (found and (found.provider, found.wire, found.endpoint)) == expected


def test_the_invoke_model_id_is_the_urls_decoded() -> None:
    assert bedrock_invoke_model(f"{BEDROCK}/anthropic.claude-3-5-haiku-20241022-v1%3A0/invoke") == (
        "anthropic.claude-3-5-haiku-20241022-v1:0"
    )
    assert bedrock_invoke_model(f"{BEDROCK}/x/converse") is None


# ---------------------------------------------------------------- calibration of invoke bodies


def _mutated(tmp: Path, source: Path, mutate: Callable[[dict[str, Any]], object], status: int) -> Path:
    """Synthetic: a recorded cassette's first call with its request body changed and its status set."""
    document = yaml.safe_load(source.read_text(encoding="utf-8"))
    interaction = document["interactions"][0]
    document["interactions"] = [interaction]
    body = copy.deepcopy(interaction["request"]["parsed_body"])
    mutate(body)
    interaction["request"]["parsed_body"] = body
    interaction["response"]["status"] = {"code": status, "message": "synthetic"}
    path = tmp / f"synthetic_{source.name}"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    return path


def test_the_recorded_invoke_body_passes_the_anthropic_checks() -> None:
    result = calibrate([INVOKE])
    assert result.ok and result.failures == []
    assert result.summary("anthropic")["accepted"] == result.summary("anthropic")["accepted_pass"] == 1
    audit = audit_traffic([INVOKE])
    assert audit.findings == [] and audit.disagreements == [] and audit.figures["anthropic"]["accepted"] == 1


Mutate = Callable[[dict[str, Any]], object]


def _set(key: str, value: Any) -> Mutate:
    return lambda body: body.update({key: value})


def _drop(key: str) -> Mutate:
    return lambda body: body.pop(key)


@pytest.mark.parametrize(
    ("mutate", "check"),
    [
        (_drop("anthropic_version"), "rule:bedrock-invoke-anthropic-version"),
        (_set("model", "claude-opus-4-8"), "rule:bedrock-invoke-no-model-in-body"),
        (_set("stream", True), "rule:bedrock-invoke-no-model-in-body"),
        # Anthropic's own checks read the body inside the envelope
        (_set("messages", []), "rule:empty-conversation"),
        (_set("max_tokens", "many"), "oracle:spec"),
    ],
    ids=["no-version", "model", "stream", "empty-messages", "max-tokens-string"],
)
def test_an_invoke_body_that_breaks_a_rule_is_caught(tmp_path: Path, mutate: Mutate, check: str) -> None:
    result = calibrate([_mutated(tmp_path, INVOKE, mutate, 400)])
    assert [r.verdict for r in result.rejections] == ["caught"]
    assert check in result.rejections[0].by and result.rejections[0].provider == "anthropic"


def test_the_invoke_view_takes_the_envelope_off() -> None:
    body = {
        "anthropic_version": "bedrock-2023-05-31",
        "anthropic_beta": ["x"],
        "max_tokens": 5,
        "messages": [],
    }
    assert invoke_view(body, f"{BEDROCK}/us.anthropic.claude-opus-4-8/invoke") == {
        "max_tokens": 5,
        "messages": [],
        "model": "us.anthropic.claude-opus-4-8",
    }
    streamed = invoke_view(body, f"{BEDROCK}/anthropic.claude-x-v1%3A0/invoke-with-response-stream")
    assert streamed["stream"] is True and streamed["model"] == "anthropic.claude-x-v1:0"
    assert check_invoke(body) == []


def test_import_check_reads_the_invoke_body_as_anthropics() -> None:
    result = runner.invoke(app, ["import-check", "--json", str(INVOKE)])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)["figures"]["anthropic"]
    assert figures["accepted"] == figures["represented"] == 1 and figures["beyond_allowlist"] == 0


# ---------------------------------------------------------------- render --endpoint bedrock


@pytest.mark.parametrize("name", sorted(load_scenarios()))
def test_every_scenario_rendered_for_bedrock_is_anthropics_body_in_bedrocks_envelope(name: str) -> None:
    """The round trip the judges make: the envelope rules are quiet and, the envelope off, the
    body is the one Anthropic's API would get (less ``stream``, which the URL says)."""
    scenario = get_scenario(name)
    params = scenario.params_for("anthropic")
    body = get_adapter("anthropic").render(scenario.history, params).body
    wrapped, warnings, notes = get_endpoint("anthropic", "bedrock").to_endpoint(body, params)
    assert wrapped["anthropic_version"] == "bedrock-2023-05-31" and warnings == [] and len(notes) == 1
    assert check_invoke(wrapped) == []
    url = f"{BEDROCK}/{body['model']}/invoke{'-with-response-stream' if body.get('stream') else ''}"
    assert invoke_view(wrapped, url) == {k: v for k, v in body.items() if k != "stream" or v is True}


def test_render_endpoint_bedrock_through_the_cli(tmp_path: Path) -> None:
    scenario = get_scenario("tool_parallel_results_out_of_order")
    history = tmp_path / "h.jsonl"
    history.write_text(dumps_history(scenario.history), encoding="utf-8")
    args = ["render", str(history), "--provider", "anthropic", "--model", "us.anthropic.claude-opus-4-8"]
    result = runner.invoke(app, [*args, "--endpoint", "bedrock"])
    assert result.exit_code == 0, result.stderr
    body = json.loads(result.stdout)
    assert "model" not in body and "stream" not in body and body["anthropic_version"] == "bedrock-2023-05-31"
    report = validate("anthropic", invoke_view(body, f"{BEDROCK}/us.anthropic.claude-opus-4-8/invoke"))
    assert report.errors == []
    assert (
        "note: bedrock: POST https://bedrock-runtime.{region}.amazonaws.com/model/us.anthropic.claude-opus-4-8/invoke"
        in result.stderr
    )
    wrong = runner.invoke(app, ["render", str(history), "--provider", "openai-chat", "--endpoint", "bedrock"])
    assert wrong.exit_code == 2
    assert wrong.stderr.startswith("harness: --endpoint: provider 'openai-chat' has no endpoint 'bedrock'")


# ---------------------------------------------------------------- Vertex AI


def test_every_recorded_vertex_call_is_judged_as_gemini_and_passes() -> None:
    result = calibrate(sorted(TRAFFIC.glob("*vertex*.yaml")))
    assert result.ok and result.failures == [] and result.unreadable == []
    judged = result.summary("gemini")
    assert judged["accepted"] == judged["accepted_pass"] >= 6
    assert judged["rejected"] == judged["classified"] >= 1


def test_vertex_refuses_a_content_without_role_the_gemini_api_takes(tmp_path: Path) -> None:
    def drop_role(body: dict[str, Any]) -> None:
        body["contents"][0].pop("role")

    result = calibrate([_mutated(tmp_path, VERTEX, drop_role, 400)])
    assert [(r.verdict, r.by) for r in result.rejections] == [("caught", ("rule:vertex-content-role",))]
    body = yaml.safe_load(VERTEX.read_text(encoding="utf-8"))["interactions"][0]["request"]["parsed_body"]
    drop_role(body)
    assert [f.path for f in check_vertex(body)] == ["contents/0/role"]
    document = yaml.safe_load(_mutated(tmp_path, VERTEX, drop_role, 200).read_text(encoding="utf-8"))
    request = document["interactions"][0]["request"]
    request["uri"] = (
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"
    )
    api = tmp_path / "gemini_api.yaml"
    api.write_text(yaml.safe_dump(document), encoding="utf-8")
    assert calibrate([api]).ok  # the Gemini API is not judged by Vertex's rule


def test_render_endpoint_vertex_is_geminis_body_with_vertexs_url(tmp_path: Path) -> None:
    scenario = get_scenario("plain_single_turn")
    history = tmp_path / "h.jsonl"
    history.write_text(dumps_history(scenario.history), encoding="utf-8")
    plain = runner.invoke(app, ["render", str(history), "--provider", "gemini"])
    vertex = runner.invoke(app, ["render", str(history), "--provider", "gemini", "--endpoint", "vertex"])
    assert vertex.exit_code == 0 and vertex.stdout == plain.stdout
    assert (
        "note: vertex: POST https://{location}-aiplatform.googleapis.com/v1/projects/{project}/"
        in vertex.stderr
    )
    gemma = runner.invoke(
        app,
        ["render", str(history), "--provider", "gemini", "--endpoint", "vertex", "--model", "gemma-3-27b-it"],
    )
    assert "warning: vertex-model-not-served: " in gemma.stderr


def test_vertex_profile_facts() -> None:
    assert serves("gemini-2.5-flash") and not serves("models/gemma-3-27b-it")
    assert vertex_url("gemini-2.0-flash", False, project="p", location="global") == (
        "https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/google/models/"
        "gemini-2.0-flash:generateContent"
    )
    params = CallParams(model="gemini-2.5-flash", stream=True)
    body, warnings, notes = get_endpoint("gemini", "vertex").to_endpoint({"contents": []}, params)
    assert body == {"contents": []} and warnings == [] and notes[0].endswith(":streamGenerateContent?alt=sse")


def test_a_vertex_stream_replays_with_the_gemini_parser() -> None:
    result = runner.invoke(app, ["replay", str(VERTEX_STREAM)])
    assert result.exit_code == 0, result.stderr
    replayed = json.loads(result.stdout)
    assert len(replayed) == 1 and replayed[0]["errors"] == []
    assert replayed[0]["message"]["stop_reason"] == "stop" and replayed[0]["message"]["parts"]


# ---------------------------------------------------------------- InvokeModelWithResponseStream
#
# No recording of Bedrock's InvokeModelWithResponseStream is bundled (public ones exist, e.g.
# traceloop/openllmetry at 93429cf, packages/opentelemetry-instrumentation-bedrock/tests/traces/
# cassettes/test_anthropic/test_anthropic_3_completion_streaming.yaml, Apache-2.0). The streams
# below are SYNTHETIC: the events of a real Anthropic stream (cassettes/anthropic/
# pai__sonnet45_thinking_tool_use_roundtrip.yaml#0) put into the frames Bedrock sends them in
# (``:event-type chunk``, payload ``{"bytes": base64(event JSON)}``, botocore's bedrock-runtime
# ``PayloadPart``), checked by the anthropic SDK's own Bedrock decoder (botocore underneath).

SSE_SOURCE = ROOT / "cassettes" / "anthropic" / "pai__sonnet45_thinking_tool_use_roundtrip.yaml"


def _chunk(data: str) -> bytes:
    payload = json.dumps({"bytes": base64.b64encode(data.encode()).decode(), "p": "abcd"}).encode()
    headers = {":event-type": "chunk", ":content-type": "application/json", ":message-type": "event"}
    return string_frame(headers, payload)


def _sse_and_frames() -> tuple[bytes, bytes]:
    """(the recorded SSE body, the same events as InvokeModelWithResponseStream frames: synthetic)."""
    sse = load_exchanges(SSE_SOURCE, None)[0].body
    events = [e.data for e in SSEDecoder().feed(sse) + SSEDecoder().close() if e.data]
    return sse, b"".join(_chunk(data) for data in events)


def _replay_frames(tmp: Path, frames: bytes) -> list[dict[str, Any]]:
    document = yaml.safe_load(SSE_SOURCE.read_text(encoding="utf-8"))
    interaction = document["interactions"][0]
    interaction["request"]["uri"] = (
        f"{BEDROCK}/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream"
    )
    interaction["response"]["body"] = {"string": frames}
    interaction["response"]["headers"] = {"content-type": ["application/vnd.amazon.eventstream"]}
    document["interactions"] = [interaction]
    path = tmp / "synthetic_invoke_stream.yaml"
    path.write_text(yaml.safe_dump(document), encoding="utf-8")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.stderr
    replayed: list[dict[str, Any]] = json.loads(result.stdout)
    return replayed


def test_an_invoke_stream_replays_as_the_same_anthropic_stream(tmp_path: Path) -> None:
    sse, frames = _sse_and_frames()
    assert sniff_wire(frames) == "anthropic"
    direct = [result_to_json(parse_bytes(get_parser("anthropic"), sse))]
    via_bedrock = _replay_frames(tmp_path, frames)
    assert [r["message"] for r in via_bedrock] == [r["message"] for r in direct]
    assert via_bedrock[0]["errors"] == [] and via_bedrock[0]["message"]["stop_reason"] == "tool_use"


@pytest.mark.parametrize("size", [1, 5, 11, 12, 13, 64, 1000, None])
def test_an_invoke_stream_gives_the_sdk_decoders_events_under_any_chunking(size: int | None) -> None:
    """The official oracle: the anthropic SDK's AWSEventStreamDecoder (botocore's EventStreamBuffer and
    bedrock-runtime ResponseStream shape) names and carries the same events, and the message is the
    same whatever the chunking."""
    from anthropic.lib.bedrock._stream_decoder import AWSEventStreamDecoder  # pyright: ignore[reportPrivateUsage]

    sse, frames = _sse_and_frames()
    official = [(e.event, e.data) for e in AWSEventStreamDecoder().iter_bytes(iter(chunked(frames, size)))]
    decoder = EventStreamEvents()
    ours = [(e.event, e.data) for chunk in chunked(frames, size) for e in decoder.feed(chunk)]
    assert ours == official and len(ours) > 10
    whole = parse_bytes(get_parser("anthropic"), sse)
    assert parse_chunks(get_parser("anthropic")(), chunked(frames, size)).message == whole.message


def test_a_cut_or_bad_invoke_stream_is_the_streams_error() -> None:
    _, frames = _sse_and_frames()
    cut = parse_bytes(get_parser("anthropic"), frames[:-7])
    assert cut.message.stop_reason == "error" and any(
        "incomplete frame" in e.error_message for e in cut.errors
    )
    bad = string_frame({":event-type": "chunk", ":message-type": "event"}, b'{"bytes": "not base64!"}')
    broken = parse_bytes(get_parser("anthropic"), bad + frames)
    assert broken.message.stop_reason == "error" and any("base64" in e.error_message for e in broken.errors)
    exception = string_frame(
        {":exception-type": "throttlingException", ":message-type": "exception"},
        b'{"message": "Too many requests"}',
    )
    throttled = parse_bytes(get_parser("anthropic"), exception)
    assert throttled.message.stop_reason == "error" and any(
        "Too many requests" in e.error_message for e in throttled.errors
    )


def test_import_request_reads_an_invoke_body_inside_its_envelope(tmp_path: Path) -> None:
    body = yaml.safe_load(INVOKE.read_text(encoding="utf-8"))["interactions"][0]["request"]["parsed_body"]
    path = tmp_path / "invoke.json"
    path.write_text(json.dumps(body), encoding="utf-8")
    args = ["import-request", str(path), "--provider", "anthropic"]
    bare = runner.invoke(app, args)
    assert 'unrepresented: anthropic_version: not representable ("bedrock-2023-05-31")' in bare.stderr
    url = f"{BEDROCK}/us.anthropic.claude-opus-4-8/invoke-with-response-stream"
    wrapped = runner.invoke(app, [*args, "--uri", url])
    assert wrapped.exit_code == 0 and "unrepresented" not in wrapped.stderr
    params = json.loads(wrapped.stderr.strip().splitlines()[-1])
    assert params == {"max_tokens": 4096, "model": "us.anthropic.claude-opus-4-8", "stream": True}
    assert len(wrapped.stdout.strip().splitlines()) == 5  # system, user, assistant, user, system
