"""``audit-traffic`` continuity on Bedrock Converse and ConverseStream recordings.

The traffic reader's own event-stream frames are checked against botocore's ``EventStreamBuffer``
and its reading of every recorded ConverseStream body against botocore's accumulation
(``harness.crosscheck.bedrock``: the official SDK as the oracle). Synthetic pairs below are
labelled synthetic: each keeps or breaks exactly one thing; synthetic frames are written from
the format description (``tests/support/eventstream.py``).
"""

from __future__ import annotations

import base64
import json
from copy import deepcopy
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest

from harness.crosscheck.bedrock import botocore_accumulate
from harness.traffic.audit import audit_traffic
from harness.traffic.continuity import PairResult, check_pair
from harness.traffic.converse import FrameError, converse_blocks, frames
from harness.traffic.loader import RecordedCall, load_file
from harness.traffic.replies import read_reply
from tests.support.eventstream import frame

ROOT = Path(__file__).resolve().parent.parent
TRAFFIC = ROOT / "traffic" / "pydantic-ai-more"
WIRE = "bedrock-converse"
CLAUDE = "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse"
NOVA = "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.amazon.nova-pro-v1%3A0/converse"
SIG = base64.b64encode(bytes(range(250, 256)) * 8).decode()  # has '+' and '/'


def stream_calls() -> list[tuple[str, RecordedCall]]:
    out: list[tuple[str, RecordedCall]] = []
    for path in sorted(TRAFFIC.glob("*.yaml")):
        for call in load_file(path):
            if call.uri.endswith("/converse-stream") and call.status == 200:
                out.append((f"{path.name}#{call.index}", call))
    return out


def test_there_are_recorded_converse_streams() -> None:
    assert len(stream_calls()) >= 7


def test_frames_are_botocores_on_every_recorded_stream() -> None:
    buffer_type: Any = import_module("botocore.eventstream").EventStreamBuffer
    for where, call in stream_calls():
        buffer: Any = buffer_type()
        buffer.add_data(call.response)
        expected = [({k: v for k, v in m.headers.items() if isinstance(v, str)}, m.payload) for m in buffer]
        assert frames(call.response) == expected, where


def _pieces(block: dict[str, Any]) -> dict[str, Any]:
    """Our block in botocore_accumulate's terms (text, tool id/name/arguments, reasoning pieces)."""
    out: dict[str, Any] = {}
    reasoning = block.get("reasoningContent", {})
    text = reasoning.get("reasoningText", {})
    if "text" in text or "signature" in text:
        out["thinking"] = text.get("text", "")
    if "signature" in text:
        out["signature"] = text["signature"]
    if "redactedContent" in reasoning:
        out["redacted"] = reasoning["redactedContent"]
    if block.get("text"):
        out["text"] = block["text"]
    if "toolUse" in block:
        tool = block["toolUse"]
        kind = "server" if tool.get("type") == "server_tool_use" else "tool"
        out[kind] = (tool["toolUseId"], tool["name"], tool["input"])
    if "toolResult" in block:  # a system tool's result in the assistant turn
        result = block["toolResult"]
        out["result"] = (result["toolUseId"], result.get("status"), result["content"])
    return out


def _botocore_pieces(piece_list: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for piece in piece_list:
        if "thinking" in piece:
            out["thinking"] = piece["thinking"]
        elif piece.get("format") == "bedrock":
            out["signature"] = piece["signature"]
        elif piece.get("format") == "bedrock-redacted":
            out["redacted"] = piece["signature"]
        elif "text" in piece:
            out["text"] = piece["text"]
        elif "tool" in piece:
            out["tool"] = (piece["id"], piece["tool"], piece["arguments"])
        elif "server_tool_call" in piece:
            out["server"] = (piece["id"], piece["server_tool_call"], piece["input"])
        elif "server_tool_result" in piece:
            out["result"] = (piece["server_tool_result"], piece["status"], piece["content"])
    return out


def test_stream_blocks_are_botocores_accumulation_on_every_recorded_stream() -> None:
    for where, call in stream_calls():
        ours = [p for p in (_pieces(b) for b in converse_blocks(call.response)) if p]
        theirs = [
            p
            for p in (_botocore_pieces(b["pieces"]) for b in botocore_accumulate(call.response)["blocks"])
            if p
        ]
        assert ours == theirs, where


# -- broken streams are a problem, never a partial reply ----------------------------------------


def event(name: str, payload: dict[str, Any]) -> bytes:
    """Synthetic: one event frame as Bedrock sends it (three string headers, a JSON payload)."""
    headers = [
        (":event-type", 7, name),
        (":content-type", 7, "application/json"),
        (":message-type", 7, "event"),
    ]
    return frame(headers, json.dumps(payload).encode())  # pyright: ignore[reportArgumentType]


def synthetic_stream(*blocks: bytes, stop: bool = True) -> bytes:
    body = event("messageStart", {"role": "assistant"}) + b"".join(blocks)
    if stop:
        body += event("messageStop", {"stopReason": "tool_use"})
        body += event(
            "metadata", {"usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2}, "metrics": {}}
        )
    return body


def test_a_synthetic_stream_reads_text_reasoning_and_a_tool_call() -> None:
    body = synthetic_stream(
        event("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"reasoningContent": {"text": "Hm"}}}),
        event(
            "contentBlockDelta", {"contentBlockIndex": 0, "delta": {"reasoningContent": {"signature": SIG}}}
        ),
        event("contentBlockStop", {"contentBlockIndex": 0}),
        event("contentBlockDelta", {"contentBlockIndex": 1, "delta": {"text": "Let me "}}),
        event("contentBlockDelta", {"contentBlockIndex": 1, "delta": {"text": "look."}}),
        event(
            "contentBlockStart",
            {"contentBlockIndex": 2, "start": {"toolUse": {"toolUseId": "t1", "name": "f"}}},
        ),
        event("contentBlockDelta", {"contentBlockIndex": 2, "delta": {"toolUse": {"input": '{"b": 1, '}}}),
        event("contentBlockDelta", {"contentBlockIndex": 2, "delta": {"toolUse": {"input": '"a": 2}'}}}),
        event(
            "contentBlockStart",
            {"contentBlockIndex": 3, "start": {"toolUse": {"toolUseId": "t2", "name": "g"}}},
        ),
    )
    reply = read_reply(WIRE, body)
    assert reply.problem is None
    assert reply.text == "Let me look."
    assert [(t.id, t.name, t.arguments) for t in reply.tool_calls] == [
        ("t1", "f", {"b": 1, "a": 2}),
        ("t2", "g", {}),
    ]
    assert [(r.kind, r.value) for r in reply.reasoning] == [("reasoningText.signature", SIG)]


def test_broken_streams_are_one_line_problems() -> None:
    good = synthetic_stream(event("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": "hi"}}))
    flipped = bytearray(good)
    flipped[40] ^= 1
    exception = frame(
        [(":message-type", 7, "exception"), (":exception-type", 7, "throttlingException")],
        b'{"message": "slow down"}',
    )
    cases = {
        "message CRC mismatch": bytes(flipped),
        "body ends inside the frame": good[:-3],
        "exception throttlingException": event("messageStart", {}) + exception,
        "without messageStop": synthetic_stream(
            event("contentBlockDelta", {"contentBlockIndex": 0, "delta": {"text": "hi"}}), stop=False
        ),
    }
    for expected, body in cases.items():
        reply = read_reply(WIRE, body)
        assert reply.problem is not None and expected in reply.problem, (expected, reply.problem)
        assert "\n" not in reply.problem
    with pytest.raises(FrameError, match="prelude CRC"):
        frames(b"\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")


# -- real loops ----------------------------------------------------------------------------------


def pair_of(name: str, index: int) -> PairResult:
    calls = load_file(TRAFFIC / name)
    first, second = calls[index - 1], calls[index]
    reply = read_reply(WIRE, first.response)
    assert reply.problem is None
    return check_pair("bedrock", WIRE, (first, first.body), reply, (second, second.body))


def test_a_recorded_stream_loop_answers_its_tool_call() -> None:
    result = pair_of("models__test_bedrock__test_bedrock_model_iter_stream.yaml", 1)
    assert result.continuation == "conversation"
    assert (result.tool_calls, result.tool_calls_answered, result.prefixes_stable) == (1, 1, 1)
    assert result.findings == []


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("models__test_bedrock__test_bedrock_anthropic_tool_with_thinking.yaml", "reasoningText.signature"),
        ("models__test_bedrock__test_bedrock_model_thinking_part_redacted.yaml", "redactedContent"),
    ],
)
def test_recorded_reasoning_comes_back_exactly(name: str, kind: str) -> None:
    calls = load_file(TRAFFIC / name)
    assert kind in {r.kind for r in read_reply(WIRE, calls[0].response).reasoning}
    result = pair_of(name, 1)
    assert result.reasoning >= 1 and result.reasoning_exact == result.reasoning
    assert result.findings == []


def test_the_recorded_bedrock_loops_are_audited(tmp_path: Path) -> None:
    bedrock = sorted(p for p in TRAFFIC.glob("*.yaml") if "bedrock" in p.name)
    result = audit_traffic(bedrock)
    row = result.figures["bedrock"]
    assert row["continuations"] > 0 and row["tool_calls"] > 0 and row["reasoning"] > 0
    assert row["tool_calls_answered"] == row["tool_calls"]
    assert row["reasoning_exact"] == row["reasoning"]
    assert not [u for u in result.unreadable if "bedrock" in u]
    # Every Bedrock continuity finding is one of the kinds verified against the recordings.
    messages = {
        f.message.split(" comes back ")[-1].split(" (")[0] for f in result.findings if f.provider == "bedrock"
    }
    assert messages <= {
        "with the model's reasoning added as <think> text",
        "with an em dash where the recorded response has '--'",
    }


# -- synthetic pairs -----------------------------------------------------------------------------


def synthetic_claude(*, thinking: bool = True) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Synthetic: a Claude tool loop with signed reasoning; request 0, response 0, faithful request 1."""
    req0: dict[str, Any] = {
        "messages": [
            {"role": "user", "content": [{"text": "Weather?"}, {"cachePoint": {"type": "default"}}]}
        ],
        "system": [{"text": "Be brief."}],
        "toolConfig": {
            "tools": [{"toolSpec": {"name": "f", "inputSchema": {"json": {"type": "object"}}}}],
            "toolChoice": {"any": {}},
        },
    }
    if thinking:
        req0["additionalModelRequestFields"] = {"thinking": {"type": "enabled", "budget_tokens": 1024}}
    content = [
        {"reasoningContent": {"reasoningText": {"text": "Look it up.", "signature": SIG}}},
        {"text": "Checking."},
        {"toolUse": {"toolUseId": "tooluse_1", "name": "f", "input": {"city": "Paris", "unit": "C"}}},
    ]
    resp0 = {"output": {"message": {"role": "assistant", "content": content}}, "stopReason": "tool_use"}
    req1 = deepcopy(req0)
    req1["messages"][0]["content"] = [
        {"text": "Weather?"}
    ]  # the cache point moves on: a breakpoint, not prompt
    req1["messages"] += [
        {"role": "assistant", "content": deepcopy(content)},
        {
            "role": "user",
            "content": [
                {"toolResult": {"toolUseId": "tooluse_1", "content": [{"text": "20"}]}},
                {"cachePoint": {"type": "default"}},
            ],
        },
    ]
    req1["toolConfig"]["toolChoice"] = {"auto": {}}  # a per-call setting, not part of the prefix
    return req0, resp0, req1


def run(
    req0: dict[str, Any],
    resp0: dict[str, Any],
    req1: dict[str, Any],
    *,
    url: str = CLAUDE,
    reserialised: bool = False,
) -> PairResult:
    first = RecordedCall(
        "synthetic.yaml", 0, "POST", url, None, req0, None, 200, {}, json.dumps(resp0).encode(), reserialised
    )
    second = RecordedCall("synthetic.yaml", 1, "POST", url, None, req1, None, 200, {}, b"{}")
    reply = read_reply(WIRE, first.response)
    return check_pair("bedrock", WIRE, (first, req0), reply, (second, req1))


def checks(result: PairResult) -> list[tuple[str, str]]:
    return [(f.check, f.kind) for f in result.findings]


def test_synthetic_faithful_claude_loop_keeps_everything() -> None:
    result = run(*synthetic_claude())
    assert result.continuation == "conversation"
    assert (
        result.reasoning,
        result.reasoning_exact,
        result.tool_calls_answered,
        result.texts_kept,
        result.prefixes_stable,
    ) == (1, 1, 1, 1, 1)
    assert result.findings == []


def _drop_reasoning(req1: dict[str, Any]) -> None:
    req1["messages"][1]["content"] = req1["messages"][1]["content"][1:]


@pytest.mark.parametrize(
    ("thinking", "url", "kind"),
    # another family: no documented rule that Bedrock reads its reasoning back (policy)
    [(True, CLAUDE, "reject"), (False, CLAUDE, "policy"), (True, NOVA, "policy")],
)
def test_synthetic_dropped_signature(thinking: bool, url: str, kind: str) -> None:
    req0, resp0, req1 = synthetic_claude(thinking=thinking)
    _drop_reasoning(req1)
    assert checks(run(req0, resp0, req1, url=url)) == [("continuity-reasoning", kind)]


def test_synthetic_unanswered_tool_use_is_reject() -> None:
    req0, resp0, req1 = synthetic_claude()
    req1["messages"][2]["content"][0]["toolResult"]["toolUseId"] = "tooluse_other"
    assert ("continuity-tool-answered", "reject") in checks(run(req0, resp0, req1))


def test_synthetic_reordered_arguments_are_policy_unless_the_response_was_reserialised() -> None:
    req0, resp0, req1 = synthetic_claude()
    req1["messages"][1]["content"][2]["toolUse"]["input"] = {"unit": "C", "city": "Paris"}
    assert checks(run(req0, resp0, req1)) == [("continuity-text", "policy")]  # the same JSON value
    # parsed_body: the cassette writer's key order (pydantic-ai dumps YAML with sorted keys)
    assert checks(run(req0, resp0, req1, reserialised=True)) == []


def test_synthetic_changed_tool_definitions_move_the_prefix() -> None:
    req0, resp0, req1 = synthetic_claude()
    req1["toolConfig"]["tools"].append(
        {"toolSpec": {"name": "g", "inputSchema": {"json": {"type": "object"}}}}
    )
    finding, cache = run(req0, resp0, req1).findings
    # tools offered from this turn on: nothing of the conversation is lost (policy), but the tools
    # stand before the cached prefix's breakpoint: the cache is written again (degrade)
    assert (finding.check, finding.kind) == ("continuity-prefix", "policy")
    assert "tools (appended: g)" in finding.message
    assert (cache.check, cache.kind) == ("cache-prefix", "degrade")


def test_synthetic_reasoning_sent_back_as_think_text_is_named() -> None:
    req0, resp0, req1 = synthetic_claude(thinking=False)
    resp0["output"]["message"]["content"] = [
        {"text": "Hi."},
        {"reasoningContent": {"reasoningText": {"text": "greet"}}},
    ]
    req1["messages"] = [
        *req0["messages"],
        {"role": "assistant", "content": [{"text": "Hi."}, {"text": "<think>\ngreet\n</think>"}]},
        {"role": "user", "content": [{"text": "Again"}]},
    ]
    (finding,) = run(req0, resp0, req1).findings
    assert (finding.check, finding.kind) == ("continuity-text", "degrade")
    assert "reasoning added as <think> text" in finding.message
