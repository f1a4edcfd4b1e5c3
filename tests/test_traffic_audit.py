"""``harness audit-traffic``: continuity checks on synthetic pairs, readers on real cassettes, the command.

Synthetic pairs below are labelled synthetic: each breaks (or keeps) exactly one
continuity property. Real cassettes come from ``traffic/pydantic-ai`` (MIT, see its SOURCES.md).
"""

from __future__ import annotations

import base64
import copy
import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from harness.cli.main import app
from harness.traffic.audit import audit_traffic
from harness.traffic.continuity import PairResult, check_pair
from harness.traffic.loader import RecordedCall, load_file
from harness.traffic.replies import read_reply

ROOT = Path(__file__).resolve().parent.parent
TRAFFIC = ROOT / "traffic" / "pydantic-ai"
runner = CliRunner()

# -- synthetic pairs ------------------------------------------------------------------------

SIG = base64.b64encode(bytes(range(250, 256)) * 8).decode()  # has '+' and '/': base64url differs
TOOL = {"name": "f", "input_schema": {"type": "object"}}
ANTHROPIC_URL = "https://api.anthropic.com/v1/messages"


def synthetic_anthropic(*, tool: bool = True) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """SYNTHETIC: request 0, response 0, and the faithful request 1 of an Anthropic tool loop."""
    req0: dict[str, Any] = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 2048,
        "thinking": {"type": "enabled", "budget_tokens": 1024},
        "system": "Be brief.",
        "tools": [TOOL],
        "messages": [
            {
                "role": "user",
                "content": [{"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}],
            }
        ],
    }
    content: list[dict[str, Any]] = [
        {"type": "thinking", "thinking": "plan", "signature": SIG},
        {"type": "text", "text": "Let me  check.\n"},
    ]
    if tool:
        content.append({"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"b": 1, "a": 2}})
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "hi"}]},
        {"role": "assistant", "content": copy.deepcopy(content)},
        # the faithful client moves its cache breakpoint forward, onto the latest turn
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_1",
                    "content": "ok",
                    "cache_control": {"type": "ephemeral"},
                }
            ],
        }
        if tool
        else {
            "role": "user",
            "content": [{"type": "text", "text": "thanks", "cache_control": {"type": "ephemeral"}}],
        },
    ]
    return req0, {"content": content}, messages


def run_pair(
    req0: dict[str, Any],
    resp0: dict[str, Any],
    req1: dict[str, Any],
    *,
    wire: str = "anthropic",
    url: str = ANTHROPIC_URL,
) -> PairResult:
    first = RecordedCall(
        "synthetic.yaml", 0, "POST", url, None, req0, None, 200, {}, json.dumps(resp0).encode()
    )
    second = RecordedCall("synthetic.yaml", 1, "POST", url, None, req1, None, 200, {}, b"{}")
    provider = "anthropic" if wire == "anthropic" else wire
    reply = read_reply(wire, first.response)
    return check_pair(provider, wire, (first, req0), reply, (second, req1))


def anthropic_pair(messages: list[dict[str, Any]], **changes: Any) -> PairResult:
    req0, resp0, _ = synthetic_anthropic()
    return run_pair(req0, resp0, {**req0, "messages": messages, **changes})


def checks(result: PairResult) -> list[tuple[str, str]]:
    return [(f.check, f.kind) for f in result.findings]


def test_synthetic_faithful_pair_keeps_everything() -> None:
    _, _, messages = synthetic_anthropic()
    result = anthropic_pair(messages)
    assert result.continuation == "conversation"
    assert checks(result) == []
    assert (
        result.reasoning_exact,
        result.tool_calls_answered,
        result.texts_kept,
        result.prefixes_stable,
    ) == (1, 1, 1, 1)


def test_synthetic_dropped_signature_in_a_tool_loop_is_reject() -> None:
    _, _, messages = synthetic_anthropic()
    messages[1]["content"] = messages[1]["content"][1:]
    assert checks(anthropic_pair(messages)) == [("continuity-reasoning", "reject")]


def test_synthetic_dropped_signature_after_a_text_turn_is_policy() -> None:
    req0, resp0, messages = synthetic_anthropic(tool=False)
    messages[1]["content"] = messages[1]["content"][1:]
    assert checks(run_pair(req0, resp0, {**req0, "messages": messages})) == [
        ("continuity-reasoning", "policy")
    ]


def test_synthetic_signature_re_encoded_as_base64url_is_the_same_bytes() -> None:
    _, _, messages = synthetic_anthropic()
    messages[1]["content"][0]["signature"] = (
        base64.urlsafe_b64encode(base64.b64decode(SIG)).decode().rstrip("=")
    )
    result = anthropic_pair(messages)
    assert checks(result) == [] and result.reasoning_reencoded == 1


def test_synthetic_unanswered_tool_call_is_reject_and_double_answer_is_degrade() -> None:
    _, _, messages = synthetic_anthropic()
    unanswered = [*messages[:2], {"role": "user", "content": "go on"}]
    assert ("continuity-tool-answered", "reject") in checks(anthropic_pair(unanswered))
    twice = copy.deepcopy(messages)
    twice[2]["content"] = twice[2]["content"] * 2
    assert checks(anthropic_pair(twice)) == [("continuity-tool-answered", "degrade")]


def test_synthetic_results_out_of_call_order_are_policy_when_ids_pair_them() -> None:
    req0, _, messages = synthetic_anthropic()
    calls: list[dict[str, Any]] = [
        {"type": "tool_use", "id": f"toolu_{i}", "name": "f", "input": {}} for i in (1, 2)
    ]
    resp0: dict[str, Any] = {"content": calls}
    messages[1]["content"] = calls
    results: list[dict[str, Any]] = [
        {"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": "ok"} for i in (2, 1)
    ]
    results[-1]["cache_control"] = {"type": "ephemeral"}
    messages[2]["content"] = results
    req0 = {**req0, "thinking": {"type": "disabled"}}
    result = run_pair(req0, resp0, {**req0, "messages": messages})
    assert checks(result) == [("continuity-tool-answered", "policy")]


def test_synthetic_rewritten_whitespace_is_degrade_and_reordered_arguments_policy() -> None:
    _, _, messages = synthetic_anthropic()
    messages[1]["content"][1]["text"] = "Let me check."
    messages[1]["content"][2]["input"] = {"a": 2, "b": 1}
    found = anthropic_pair(messages).findings
    # the words' layout changed (a double space inside); the arguments are the same JSON value
    assert [(f.check, f.kind) for f in found] == [
        ("continuity-text", "degrade"),
        ("continuity-text", "policy"),
    ]
    assert "whitespace rewritten" in found[0].message and "key order" in found[1].message


def test_synthetic_whitespace_at_the_ends_is_policy() -> None:
    _, _, messages = synthetic_anthropic()
    messages[1]["content"][1]["text"] = "Let me  check."  # the trailing newline trimmed
    found = anthropic_pair(messages).findings
    assert [(f.check, f.kind) for f in found] == [("continuity-text", "policy")]
    assert "at its ends only" in found[0].message


@pytest.mark.parametrize("sent", ["{}", " {} ", ""])
def test_synthetic_a_call_without_arguments_sent_back_as_an_empty_object_is_kept(sent: str) -> None:
    """A stream that never sent ``arguments`` (null) and a client sending ``{}``: the same call."""
    url = "https://api.openai.com/v1/chat/completions"
    req0 = {"model": "gpt-4.1-mini", "messages": [{"role": "user", "content": "version?"}]}
    call = {"id": "call_1", "type": "function", "function": {"name": "v", "arguments": None}}
    resp0 = {"choices": [{"message": {"role": "assistant", "content": None, "tool_calls": [call]}}]}
    back = {**call, "function": {"name": "v", "arguments": sent}}
    req1 = {
        **req0,
        "messages": [
            *req0["messages"],
            {"role": "assistant", "tool_calls": [back]},
            {"role": "tool", "tool_call_id": "call_1", "content": "1.0"},
        ],
    }
    result = run_pair(req0, resp0, req1, wire="openai-chat", url=url)
    assert checks(result) == [] and result.tool_calls_answered == 1


def test_synthetic_changed_arguments_are_degrade() -> None:
    _, _, messages = synthetic_anthropic()
    messages[1]["content"][2]["input"] = {"a": 2, "b": 3}
    assert checks(anthropic_pair(messages)) == [("continuity-text", "degrade")]


def test_synthetic_moved_history_is_degrade_moved_instructions_policy_a_moved_cache_marker_nothing() -> None:
    _, _, messages = synthetic_anthropic()
    # another system prompt from this turn on (an agent handoff): nothing of the conversation is
    # lost, but the system stands before the cached prefix's breakpoint: the cache is written again
    handoff = [("continuity-prefix", "policy"), ("cache-prefix", "degrade")]
    assert checks(anthropic_pair(messages, system="Be very brief.")) == handoff
    rewritten = copy.deepcopy(messages)
    rewritten[0]["content"] = [{"type": "text", "text": "hi", "citations": []}]
    changed = [("continuity-prefix", "degrade"), ("cache-prefix", "degrade")]
    assert checks(anthropic_pair(rewritten)) == changed  # an earlier turn changed
    reformed = anthropic_pair(messages, system=[{"type": "text", "text": "Be brief."}])
    # the same text as a block: the same prompt to the cache
    assert checks(reformed) == [("continuity-prefix", "policy")]
    marked = copy.deepcopy(messages)
    marked[2]["content"][0]["cache_control"] = {
        "type": "ephemeral"
    }  # the breakpoint moves forward: by design
    assert checks(anthropic_pair(marked)) == []


def test_synthetic_unrelated_request_is_not_a_continuation() -> None:
    _, _, messages = synthetic_anthropic()
    messages[0] = {"role": "user", "content": "something else"}
    result = anthropic_pair(messages)
    assert result.continuation == "" and result.findings == []


GEMINI_3 = "https://generativelanguage.googleapis.com/v1beta/models/gemini-3-flash-preview:generateContent"
GEMINI_25 = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"


@pytest.mark.parametrize(("url", "kind"), [(GEMINI_3, "reject"), (GEMINI_25, "degrade")])
def test_synthetic_gemini_function_call_signature(url: str, kind: str) -> None:
    req0 = {"contents": [{"role": "user", "parts": [{"text": "weather?"}]}]}
    call = {"functionCall": {"name": "weather", "args": {"city": "Paris"}}, "thoughtSignature": SIG}
    resp0 = {"candidates": [{"content": {"role": "model", "parts": [call]}}]}
    answer = {"role": "user", "parts": [{"functionResponse": {"name": "weather", "response": {"t": 20}}}]}
    kept = {"contents": [*req0["contents"], {"role": "model", "parts": [call]}, answer]}
    result = run_pair(req0, resp0, kept, wire="gemini", url=url)
    assert checks(result) == [] and result.tool_calls_answered == 1 and result.reasoning_exact == 1
    bare = {"role": "model", "parts": [{"functionCall": call["functionCall"]}]}
    dropped = {"contents": [*req0["contents"], bare, answer]}
    assert checks(run_pair(req0, resp0, dropped, wire="gemini", url=url)) == [("continuity-reasoning", kind)]


def test_synthetic_responses_previous_response_id_continues_server_side() -> None:
    url = "https://api.openai.com/v1/responses"
    req0 = {"model": "gpt-5", "input": "hi"}
    resp0: dict[str, Any] = {
        "id": "resp_1",
        "output": [
            {"type": "reasoning", "id": "rs_1", "encrypted_content": SIG, "summary": []},
            {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": "{}"},
        ],
    }
    good = {
        "model": "gpt-5",
        "previous_response_id": "resp_1",
        "input": [{"type": "function_call_output", "call_id": "call_1", "output": "ok"}],
    }
    result = run_pair(req0, resp0, good, wire="openai-responses", url=url)
    assert result.continuation == "previous_response_id" and checks(result) == []
    assert result.reasoning_by_reference == 1 and result.tool_calls_answered == 1
    bad = {**good, "input": [{"type": "function_call_output", "call_id": "fc_1", "output": "ok"}]}
    assert checks(run_pair(req0, resp0, bad, wire="openai-responses", url=url)) == [
        ("continuity-tool-answered", "degrade")
    ]


# -- readers on real cassettes --------------------------------------------------------------


def reply_of(name: str, index: int, wire: str) -> Any:
    return read_reply(wire, load_file(TRAFFIC / name)[index].response)


def test_reads_anthropic_redacted_thinking_from_a_real_stream() -> None:
    reply = reply_of(
        "models__test_anthropic__test_anthropic_model_thinking_part_redacted_stream.yaml", 0, "anthropic"
    )
    assert reply.problem is None and "redacted_thinking" in {r.kind for r in reply.reasoning}


def test_reads_gemini_signature_on_a_real_function_call() -> None:
    reply = reply_of(
        "models__google__test_output__test_google_validated_accepts_strict_incompatible_schema.yaml",
        0,
        "gemini",
    )
    assert [t.name for t in reply.tool_calls] == ["register"]
    assert [(r.kind, r.on_tool_call) for r in reply.reasoning] == [("thoughtSignature", True)]


def test_reads_responses_encrypted_content_and_text_from_a_real_stream() -> None:
    reply = reply_of(
        "models__test_openai_responses__test_openai_responses_phase_streamed_on_part_start.yaml",
        0,
        "openai-responses",
    )
    (reasoning,) = [r for r in reply.reasoning if r.kind == "encrypted_content"]
    assert reply.text.startswith("I\u2019ll check")
    # the stream carries the item twice, encrypted anew; the client sent back the output_item.done one
    sent = load_file(
        TRAFFIC / "models__test_openai_responses__test_openai_responses_phase_streamed_on_part_start.yaml"
    )[1].body
    assert reasoning.value not in json.dumps(sent) and any(
        v in json.dumps(sent) for v in reasoning.alternates
    )


def test_reads_chat_tool_calls_and_openrouter_reasoning_details_from_real_streams() -> None:
    chat = reply_of("test_dbos__test_complex_agent_run_in_workflow.yaml", 0, "openai-chat")
    assert [t.name for t in chat.tool_calls] == ["get_country", "get_product_name"]
    routed = reply_of("models__test_openrouter__test_openrouter_streaming_reasoning.yaml", 0, "openai-chat")
    assert [r.kind for r in routed.reasoning] == ["reasoning_details.signature"]


# -- the command ----------------------------------------------------------------------------

CASSETTES = [
    "models__test_openai_responses__test_openai_responses_stream.yaml",
    "models__google__test_output__test_google_validated_accepts_strict_incompatible_schema.yaml",
    "models__test_openai_responses__test_openai_responses_thinking_with_modified_history.yaml",
]


def audit(*args: str) -> Any:
    return runner.invoke(app, ["audit-traffic", *args])


def test_command_end_to_end_on_real_cassettes(tmp_path: Path) -> None:
    paths = [str(TRAFFIC / c) for c in CASSETTES]
    first = audit(*paths, "--out", str(tmp_path / "a"))
    assert first.exit_code == 1, first.output
    data = json.loads((tmp_path / "a" / "traffic-audit.json").read_text())
    where = {(f["check"], Path(f["file"]).name, f["index"]) for f in data["findings"]}
    assert ("continuity-tool-answered", CASSETTES[0], 1) in where
    assert data["providers"]["gemini"]["reasoning_reencoded"] == 1  # base64 sent back as base64url
    rejected = {(Path(r["where"].split("#")[0]).name, r["verdict"]) for r in data["rejections"]}
    assert rejected == {(CASSETTES[2], "caught")}
    second = audit(*paths, "--out", str(tmp_path / "b"))
    for name in ("traffic-audit.json", "traffic-audit.md", "traffic-audit.html"):
        assert (tmp_path / "a" / name).read_text() == (tmp_path / "b" / name).read_text()
    assert first.output.replace("/a/", "/b/") == second.output
    md = (tmp_path / "a" / "traffic-audit.md").read_text()
    assert f"{CASSETTES[0]}#1" in md and "](" in md
    accepted = audit(*paths, "--baseline", str(tmp_path / "a" / "traffic-audit.json"))
    assert accepted.exit_code == 0, accepted.output
    assert audit(*paths, "--fail-on", "policy").exit_code == 0


def test_command_bad_usage_exits_2(tmp_path: Path) -> None:
    one = str(TRAFFIC / CASSETTES[1])
    assert audit(str(tmp_path / "missing.yaml")).exit_code == 2
    assert audit(one, "--fail-on", "fatal").exit_code == 2
    (tmp_path / "b.json").write_text("{}")
    assert audit(one, "--baseline", str(tmp_path / "b.json")).exit_code == 2


def cassette(body: str) -> str:
    return (
        "interactions:\n- request:\n    method: POST\n    uri: https://api.openai.com/v1/chat/completions\n"
        f"    body: {body}\n  response:\n    status: {{code: 200}}\n    body: {{string: ''}}\n"
    )


def test_hostile_inputs_are_one_line_each_and_the_run_goes_on(tmp_path: Path) -> None:
    bomb = base64.b64encode(gzip.compress(b"\0" * (65 * 1024 * 1024), compresslevel=1)).decode()
    files = {
        "not-yaml.yaml": "interactions: [\n  - {",
        "truncated.yaml": cassette('\'{"model": "gpt-4o", "messages": [\''),
        "binary.yaml": cassette("!!binary AAECAwQF/w=="),
        "gzip-bomb.yaml": cassette(f"!!binary {bomb}"),
        "aliases.yaml": "a: &a [x,x,x,x,x,x,x,x,x,x]\n"
        + "".join(
            f"{n}: &{n} [{', '.join([f'*{p}'] * 10)}]\n" for p, n in zip("abcdefg", "bcdefgh", strict=True)
        )
        + "interactions: [{request: {method: POST, uri: 'https://api.openai.com/v1/chat/completions', parsed_body: {m: *h}}, response: {}}]\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "serializer.yaml").write_bytes(b"\x80\x04\x95 pickled, not a cassette")
    result = audit(str(tmp_path), str(TRAFFIC / CASSETTES[1]))
    assert result.exit_code == 1
    lines = [line for line in result.output.splitlines() if line.startswith("unreadable:")]
    assert sorted(Path(line.split()[1].split("#")[0]).name for line in lines) == sorted(
        [*files, "serializer.yaml"]
    )
    gemini = [line.split() for line in result.output.splitlines() if line.strip().startswith("gemini")]
    assert gemini[0][1:6] == ["2", "2", "0", "0", "1/1"]  # the readable cassette was still audited


def test_har_pair_is_audited(tmp_path: Path) -> None:
    """SYNTHETIC HAR export: a Chat tool loop whose second request answers the call under another id."""
    url = "https://api.openai.com/v1/chat/completions"
    first = {"model": "gpt-4o", "messages": [{"role": "user", "content": "weather?"}]}
    call = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "weather", "arguments": '{"city": "Paris"}'},
    }
    reply = {"choices": [{"message": {"role": "assistant", "content": None, "tool_calls": [call]}}]}
    second = {
        "model": "gpt-4o",
        "messages": [
            *first["messages"],
            {"role": "assistant", "content": None, "tool_calls": [{**call, "id": "call_2"}]},
            {"role": "tool", "tool_call_id": "call_2", "content": "20C"},
        ],
    }

    def entry(body: dict[str, Any], response: str) -> dict[str, Any]:
        return {
            "request": {"method": "POST", "url": url, "headers": [], "postData": {"text": json.dumps(body)}},
            "response": {"status": 200, "headers": [], "content": {"text": response}},
        }

    har = {"log": {"entries": [entry(first, json.dumps(reply)), entry(second, json.dumps(reply))]}}
    (tmp_path / "loop.har").write_text(json.dumps(har))
    result = audit(str(tmp_path / "loop.har"), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1, result.output
    data = json.loads((tmp_path / "out" / "traffic-audit.json").read_text())
    found = {(f["check"], f["kind"], f["index"]) for f in data["findings"]}
    assert ("continuity-tool-answered", "degrade", 1) in found  # call_1 is answered as call_2
    assert ("continuity-text", "degrade", 1) in found  # and comes back under another id


def _one_call(url: str, body: dict[str, Any], status: int) -> str:
    """SYNTHETIC: one recorded call (a parsed_body cassette)."""
    import yaml

    doc = {
        "interactions": [
            {
                "request": {"method": "POST", "uri": url, "parsed_body": body},
                "response": {"status": {"code": status}, "body": {"string": '{"error": {"message": "bad"}}'}},
            }
        ]
    }
    return yaml.safe_dump(doc)


UNKNOWN_BLOCKS: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 64,
    "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "web_fetch2_tool_result", "tool_use_id": "s1", "content": {}},
                                          {"type": "web_fetch2_tool_result", "tool_use_id": "s2", "content": {}}]},
        {"role": "user", "content": "go on"},
    ],
}  # fmt: skip


def test_a_reject_on_an_accepted_request_is_an_oracle_disagreement(tmp_path: Path) -> None:
    """Issue 24: the API's 2xx outranks the check; accepted traffic reports 0 rejects."""
    (tmp_path / "ok.yaml").write_text(_one_call(ANTHROPIC_URL, UNKNOWN_BLOCKS, 200))
    result = audit(str(tmp_path), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "out" / "traffic-audit.json").read_text())
    assert data["counts"]["reject"] == 0 and data["ok"]
    missed = data["disagreements"]
    # One per request and check (two blocks, one union error each), with the number of places.
    assert sorted(d["check"] for d in missed) == ["oracle:sdk", "oracle:spec"]
    assert [d["places"] for d in missed if d["check"] == "oracle:spec"] == [2]
    assert "oracle disagreements" in result.output
    page = (tmp_path / "out" / "traffic-audit.html").read_text()
    assert page.index('id="summary"') < page.index('id="legend"') < page.index("<h2>Findings")
    assert "max-width" in page


def test_the_same_body_rejected_by_the_api_is_a_finding(tmp_path: Path) -> None:
    (tmp_path / "bad.yaml").write_text(_one_call(ANTHROPIC_URL, UNKNOWN_BLOCKS, 400))
    result = audit(str(tmp_path), "--out", str(tmp_path / "out"))
    assert result.exit_code == 1
    data = json.loads((tmp_path / "out" / "traffic-audit.json").read_text())
    assert data["counts"]["reject"] >= 1 and data["disagreements"] == []
    assert [r["verdict"] for r in data["rejections"]] == ["caught"]


def test_calls_to_providers_without_an_id_are_not_judged_with_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # cohere is a provider now: a PROVIDERS trimmed of it still skips its calls, with why
    import harness.traffic.pending as pending

    monkeypatch.setattr(pending, "PROVIDERS", tuple(p for p in pending.PROVIDERS if p != "cohere"))
    body = {
        "model": "llama-3.3-70b",
        "messages": [{"role": "user", "content": "hi"}],
        "service_tier": "on_demand_x",
    }
    (tmp_path / "cohere.yaml").write_text(_one_call("https://api.cohere.com/v2/chat", body, 200))
    result = audit(str(tmp_path), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "out" / "traffic-audit.json").read_text())
    assert data["disagreements"] == [] and data["findings"] == []
    assert any("provider 'cohere' (api.cohere.com)" in s for s in data["skipped"])


# -- a response the recorded host cannot have sent ---------------------------------------------

CLIENTS2 = ROOT / "traffic" / "clients2"
STREAMING = CLIENTS2 / "simonw-llm" / "llm" / "tests" / "cassettes" / "test_tools_streaming"


def test_openrouters_own_fields_are_read_from_a_real_openrouter_stream_and_a_pasted_one() -> None:
    routed = reply_of("models__test_openrouter__test_openrouter_streaming_reasoning.yaml", 0, "openai-chat")
    assert routed.relayed_by == "OpenRouter"
    direct = reply_of("test_dbos__test_complex_agent_run_in_workflow.yaml", 0, "openai-chat")
    assert direct.relayed_by == ""
    pasted = read_reply(
        "openai-chat", load_file(STREAMING / "test_tools_streaming_variant_c.yaml")[0].response
    )
    assert pasted.relayed_by == "OpenRouter"  # Novita's kimi-k2 via OpenRouter, recorded at api.openai.com


def test_a_call_whose_response_the_host_cannot_have_sent_is_not_judged() -> None:
    """simonw/llm's hand-made streaming cassettes paste OpenRouter streams into api.openai.com calls; the
    next request answers another id ("0" for "llm_version:0"). Neither call is evidence: of what the
    host accepted, nor of what the client sends back (harness.traffic.evidence)."""
    from harness.importcheck.check import PASTED_REASON, check_traffic
    from harness.traffic.calibrate import calibrate

    files = sorted(STREAMING.glob("test_tools_streaming_variant_*.yaml"))
    result = audit_traffic(files)
    assert not [f for f in result.findings if f.check.startswith("continuity")], result.findings
    skipped = [s for s in result.skipped if "OpenRouter's own fields" in s]
    assert len(skipped) >= len(files) and all("api.openai.com" in s for s in skipped), result.skipped
    assert result.figures["openai-chat"]["continuations"] == 0
    calibrated = calibrate(files)
    assert sum("OpenRouter's own fields" in s for s in calibrated.skipped) == len(skipped)
    assert check_traffic(files).skipped == {PASTED_REASON: len(skipped)}


def test_the_report_from_two_processes_is_the_single_process_report_byte_for_byte(tmp_path: Path) -> None:
    """The command in a fresh process (one thread: its two workers are forked) against one process."""
    from harness.contract.kinds import DEFAULT_FAIL_ON
    from harness.traffic.audit_report import render_json, report_data

    # OpenAI's Chat and Responses: one SDK for the workers to build
    files = (
        sorted(TRAFFIC.glob("models__test_openai__*.yaml"))[::12]
        + sorted(TRAFFIC.glob("models__test_openai_responses__*.yaml"))[::22]
    )
    code = "from harness.cli.main import app; app(prog_name='harness')"
    args = ["audit-traffic", *map(str, files), "--jobs", "2", "--out", str(tmp_path)]
    subprocess.run([sys.executable, "-c", code, *args], capture_output=True, timeout=300, check=False)
    one = report_data(audit_traffic(files, jobs=1), DEFAULT_FAIL_ON, set(), None)
    requests = [p for p, row in one["providers"].items() if row["requests"]]
    assert one["files"] == len(files) and len(requests) == 2 and one["skipped"]  # shares to merge
    assert (tmp_path / "traffic-audit.json").read_text(encoding="utf-8") == render_json(one)


def test_synthetic_continuation_of_an_unstored_response_is_a_reject() -> None:
    """Field lesson 5: a response created with store: false cannot be found by previous_response_id."""
    url = "https://api.openai.com/v1/responses"
    resp0: dict[str, Any] = {"id": "resp_1", "output": [{"type": "message", "content": []}]}
    after = {"model": "gpt-5", "previous_response_id": "resp_1", "input": "and then?"}
    stored = run_pair({"model": "gpt-5", "input": "hi"}, resp0, after, wire="openai-responses", url=url)
    assert checks(stored) == []
    unstored = {"model": "gpt-5", "input": "hi", "store": False}
    result = run_pair(unstored, resp0, after, wire="openai-responses", url=url)
    assert checks(result) == [("continuity-stored", "reject")]
