"""Each provider hard rule on a minimal violating body (it must fire) and a minimal accepted one (quiet).

Bodies are synthetic (labelled so): the smallest request that shows the rule. Whether the
rules stay quiet on real accepted traffic is tests/test_traffic_calibrate.py's job.
"""

from __future__ import annotations

import base64
import copy
from collections.abc import Callable
from typing import Any

import pytest

from harness.contract.kinds import KINDS
from harness.contract.providers import PROVIDERS
from harness.contract.routing import WIRES
from harness.invariants import INVARIANTS
from harness.rules import RULES, check_body, rules_for
from harness.rules.bedrock_invoke import INVOKE_RULES
from harness.rules.cohere import COHERE_RULES
from harness.rules.dialects import DIALECT_RULES
from harness.rules.vertex import VERTEX_RULES
from tests.support.bodies import BEDROCK

Body = dict[str, Any]

# --- synthetic base bodies, one per wire, each accepted by every rule --------------------------

ANTHROPIC: Body = {
    "model": "claude-sonnet-4-5", "max_tokens": 64, "system": [{"type": "text", "text": "be brief"}],
    "tools": [{"name": "get_weather", "input_schema": {"type": "object"}}],
    "messages": [
        {"role": "user", "content": [{"type": "text", "text": "weather?"},
                                     {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBO"}}]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}},
                                          {"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"},
                                     {"type": "tool_result", "tool_use_id": "toolu_2", "is_error": True, "content": "timeout"}]},
    ],
}  # fmt: skip
CHAT: Body = {
    "model": "gpt-4o",
    "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}],
    "messages": [
        {"role": "user", "content": "weather?"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}},
            {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
        {"role": "tool", "tool_call_id": "call_2", "content": "sunny"},
        {"role": "user", "content": "thanks"},
    ],
}  # fmt: skip
RESPONSES: Body = {
    "model": "gpt-5",
    "tools": [{"type": "function", "name": "get_weather", "parameters": {"type": "object"}}],
    "input": [
        {"role": "user", "content": "weather?"},
        {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAA"},
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "sunny"},
    ],
}  # fmt: skip
GEMINI: Body = {
    "tools": [{"functionDeclarations": [{"name": "weather.get:v1", "parameters": {"type": "OBJECT"}}]}],
    "contents": [{"role": "user", "parts": [{"text": "weather?"},
                                            {"inlineData": {"mimeType": "image/jpeg", "data": "/9j/"}}]}],
}  # fmt: skip

BASES: dict[str, Body] = {"anthropic": ANTHROPIC, "openai-chat": CHAT, "openrouter": CHAT,
                          "openai-responses": RESPONSES, "gemini": GEMINI, "bedrock": BEDROCK}  # fmt: skip

Mutate = Callable[[Body], object]


def _set(path: list[str | int], value: Any) -> Mutate:
    def mutate(body: Body) -> None:
        node: Any = body
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return mutate


def _drop(path: list[str | int]) -> Mutate:
    def mutate(body: Body) -> None:
        node: Any = body
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]

    return mutate


# (case id, provider, mutation, the rule that must fire, path it points at)
VIOLATIONS: list[tuple[str, str, Mutate, str, str]] = [
    # Files (harness/rules/files.py)
    ("chat-file-not-pdf", "openai-chat", _set(["messages", 4, "content"], [{"type": "text", "text": "x"}, {"type": "file",
        "file": {"file_data": "data:text/plain;base64,aGk=", "filename": "a.txt"}}]),
     "chat-file-part-pdf", "messages/4/content/1/file/file_data"),
    ("chat-file-no-filename", "openai-chat", _set(["messages", 4, "content"], [{"type": "file",
        "file": {"file_data": "data:application/pdf;base64,JVBERi0x"}}]),
     "chat-file-part-pdf", "messages/4/content/0/file"),
    ("anthropic-pdf-101-pages", "anthropic", lambda b: b["messages"][2]["content"].append({"type": "document",
        "source": {"type": "base64", "media_type": "application/pdf",
                   "data": base64.b64encode(b"%PDF-1.4\n" + b"<< /Type /Page >>\n" * 101).decode()}}),
     "anthropic-pdf-limits", "messages/2/content/2"),
    ("gemini-inline-pdf-over-50mb", "gemini", lambda b: b["contents"][0]["parts"].append(
        {"inlineData": {"mimeType": "application/pdf", "data": "A" * (68 * 1024 * 1024)}}),
     "gemini-inline-data-limit", "contents/0/parts/2/inlineData"),
    ("bedrock-document-name-with-a-dot", "bedrock", lambda b: b["messages"][2]["content"].append(
        {"document": {"format": "pdf", "name": "report.pdf", "source": {"bytes": "JVBE"}}}),
     "bedrock-document-name", "messages/2/content/2/document/name"),
    ("bedrock-six-documents", "bedrock", lambda b: b["messages"][2]["content"].extend(
        {"document": {"format": "txt", "name": f"notes {n}", "source": {"bytes": "aGk="}}} for n in range(6)),
     "bedrock-document-count", "messages/2/content/7/document"),
    # Values (harness/rules/values.py): an HTML error page's text sent as a JPEG; Vertex's temperature 1000.
    ("chat-image-not-an-image", "openai-chat", lambda b: b["messages"].append({"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,UGxlYXNlIHNldCBhIHVzZXItYWdlbnQ="}}]}),
     "openai-image-bytes", "messages/5/content/0"),
    ("gemini-temperature-out-of-range", "gemini", lambda b: b.update(generationConfig={"temperature": 1000}),
     "gemini-sampling-range", "generationConfig/temperature"),
    # Bedrock Converse (base body: tests/support/bodies.py)
    ("bedrock-two-user-turns", "bedrock", lambda b: b["messages"].append({"role": "user", "content": [{"text": "x"}]}),
     "bedrock-roles-alternate", "messages/3/role"),
    ("bedrock-orphan-tool-result", "bedrock", lambda b: b["messages"][2]["content"].append(
        {"toolResult": {"toolUseId": "tooluse_9", "content": [{"text": "x"}]}}),
     "bedrock-tool-result-pairing", "messages/2/content/2/toolResult/toolUseId"),
    ("bedrock-unanswered-tool-use", "bedrock", lambda b: b["messages"][2]["content"].pop(0),
     "bedrock-tool-result-pairing", "messages/1/content/3/toolUse/toolUseId"),
    ("bedrock-no-tool-config", "bedrock", _drop(["toolConfig"]), "bedrock-tool-config-required",
     "messages/1/content/3/toolUse"),
    ("bedrock-empty-error-result", "bedrock", _set(["messages", 2, "content", 0, "toolResult", "content"], []),
     "bedrock-error-result-content", "messages/2/content/0/toolResult/content"),
    ("anthropic-empty-messages", "anthropic", _set(["messages"], []), "empty-conversation", "messages"),
    ("chat-empty-messages", "openai-chat", _set(["messages"], []), "empty-conversation", "messages"),
    ("openrouter-missing-messages", "openrouter", _drop(["messages"]), "empty-conversation", "messages"),
    ("gemini-empty-contents", "gemini", _set(["contents"], []), "empty-conversation", "contents"),
    ("responses-empty-input", "openai-responses", _set(["input"], []), "empty-conversation", "input"),
    ("responses-missing-input", "openai-responses", _drop(["input"]), "empty-conversation", "input"),
    ("anthropic-unanswered-tool-use", "anthropic", _drop(["messages", 2, "content", 1]),
     "anthropic-tool-use-answered", "messages/1"),
    ("anthropic-orphan-tool-result", "anthropic",
     lambda b: b["messages"][2]["content"].append({"type": "tool_result", "tool_use_id": "toolu_9", "content": "x"}),
     "anthropic-tool-result-has-use", "messages/2/content/2"),
    ("anthropic-duplicate-tool-use-id", "anthropic", lambda b: b["messages"][1]["content"].append(
        {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}),
     "anthropic-tool-use-ids", "messages/1/content/2/id"),
    ("anthropic-tool-use-id-syntax", "anthropic", lambda b: (_set(["messages", 1, "content", 0, "id"], "call.1:x")(b),
                                                             _set(["messages", 2, "content", 0, "tool_use_id"], "call.1:x")(b)),
     "anthropic-tool-use-ids", "messages/1/content/0/id"),
    ("anthropic-empty-text", "anthropic", _set(["messages", 0, "content", 0, "text"], ""),
     "anthropic-non-blank-text", "messages/0/content/0/text"),
    ("anthropic-whitespace-system", "anthropic", _set(["system", 0, "text"], " \n"),
     "anthropic-non-blank-text", "system/0/text"),
    ("anthropic-empty-error-result", "anthropic", _set(["messages", 2, "content", 1, "content"], ""),
     "anthropic-error-result-content", "messages/2/content/1"),
    ("anthropic-image-jpg", "anthropic", _set(["messages", 0, "content", 1, "source", "media_type"], "image/jpg"),
     "anthropic-image-media-type", "messages/0/content/1/source/media_type"),
    ("anthropic-tool-name", "anthropic", _set(["tools", 0, "name"], "get weather"), "tool-name-syntax", "tools/0/name"),
    ("chat-unanswered-call", "openai-chat", _drop(["messages", 3]), "chat-tool-calls-answered", "messages/1"),
    ("chat-orphan-tool-message", "openai-chat",
     lambda b: b["messages"].insert(4, {"role": "tool", "tool_call_id": "call_9", "content": "x"}),
     "chat-tool-message-has-call", "messages/4"),
    ("chat-tool-message-first", "openai-chat",
     lambda b: b["messages"].insert(0, {"role": "tool", "tool_call_id": "call_1", "content": "x"}),
     "chat-tool-message-has-call", "messages/0"),
    ("chat-empty-tools", "openai-chat", _set(["tools"], []), "chat-no-empty-arrays", "tools"),
    ("chat-empty-tool-calls", "openai-chat", lambda b: b["messages"].insert(
        4, {"role": "assistant", "content": "ok", "tool_calls": []}), "chat-no-empty-arrays", "messages/4/tool_calls"),
    ("anthropic-system-twice", "anthropic", lambda b: b["system"].append({"type": "text", "text": "be brief\n"}),
     "system-text-once", "system/1"),
    ("chat-system-twice", "openai-chat", lambda b: (
        b["messages"].insert(0, {"role": "system", "content": "be brief"}),
        b["messages"].insert(2, {"role": "developer", "content": [{"type": "text", "text": "be brief"}]})),
     "system-text-once", "messages/2"),
    ("responses-system-twice", "openai-responses", lambda b: (b.update(instructions="be brief"), b["input"].insert(
        0, {"role": "developer", "content": [{"type": "input_text", "text": "be brief"}]})),
     "system-text-once", "input/0"),
    ("gemini-system-twice", "gemini", _set(["systemInstruction"], {"parts": [{"text": "be brief"}, {"text": "be brief"}]}),
     "system-text-once", "systemInstruction/1"),
    ("gemini-call-not-answered", "gemini", lambda b: b["contents"].extend([
        {"role": "model", "parts": [{"functionCall": {"name": "weather.get:v1", "args": {}}}]},
        {"role": "user", "parts": [{"text": "and now?"}]}]), "gemini-function-calls-answered", "contents/2"),
    ("chat-tool-name-too-long", "openai-chat", _set(["tools", 0, "function", "name"], "x" * 65),
     "tool-name-syntax", "tools/0/function/name"),
    ("openrouter-tool-name-dot", "openrouter", _set(["tools", 0, "function", "name"], "a.b"),
     "tool-name-syntax", "tools/0/function/name"),
    ("responses-orphan-output", "openai-responses", _set(["input", 3, "call_id"], "call_9"),
     "responses-output-has-call", "input/3"),
    ("responses-call-id-too-long", "openai-responses", lambda b: (_set(["input", 2, "call_id"], "c" * 65)(b),
                                                                  _set(["input", 3, "call_id"], "c" * 65)(b)),
     "responses-call-id-length", "input/2/call_id"),
    ("responses-reasoning-alone", "openai-responses", lambda b: b["input"][2:] and b["input"].__delitem__(slice(2, None)),
     "responses-reasoning-followed", "input/1"),
    ("responses-reasoning-retyped", "openai-responses",
     lambda b: b["input"].insert(2, {"role": "assistant", "content": "it is sunny"}),
     "responses-reasoning-followed", "input/1"),
    ("responses-tool-name", "openai-responses", _set(["tools", 0, "name"], "get/weather"), "tool-name-syntax", "tools/0/name"),
    ("gemini-tool-name-digit-first", "gemini", _set(["tools", 0, "functionDeclarations", 0, "name"], "1tool"),
     "tool-name-syntax", "tools/0/functionDeclarations/0/name"),
    ("gemini-image-jpg", "gemini", _set(["contents", 0, "parts", 1, "inlineData", "mimeType"], "image/jpg"),
     "gemini-mime-type", "contents/0/parts/1/inlineData/mimeType"),
    ("gemini-bare-mime", "gemini", _set(["contents", 0, "parts", 1, "inlineData", "mimeType"], "png"),
     "gemini-mime-type", "contents/0/parts/1/inlineData/mimeType"),
]  # fmt: skip

# Bodies the APIs accept that a naive rule would flag (each seen accepted in traffic/).
ACCEPTED: list[tuple[str, str, Mutate]] = [
    ("gemini-calls-in-two-model-contents-answered-together", "gemini", lambda b: b["contents"].extend([
        {"role": "model", "parts": [{"functionCall": {"name": "weather.get:v1", "args": {}}}]},
        {"role": "model", "parts": [{"function_call": {"name": "weather.get:v1", "args": {"x": 1}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "weather.get:v1", "response": {}}},
                                   {"function_response": {"name": "weather.get:v1", "response": {}}}]}])),
    ("gemini-request-ends-on-the-call", "gemini", lambda b: b["contents"].append(
        {"role": "model", "parts": [{"functionCall": {"name": "weather.get:v1", "args": {}}}]})),
    ("anthropic-empty-tools-no-evidence", "anthropic", _set(["tools"], [])),
    ("responses-empty-tools-no-evidence", "openai-responses", _set(["tools"], [])),
    ("openrouter-empty-tools-no-evidence", "openrouter", _set(["tools"], [])),
    ("anthropic-two-different-system-texts", "anthropic",
     lambda b: b["system"].append({"type": "text", "text": "and precise"})),
    ("anthropic-prefill-ends-on-tool-use", "anthropic", lambda b: b["messages"].pop()),
    ("anthropic-consecutive-assistant-turns-merged", "anthropic", lambda b: b["messages"].insert(
        2, {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_3", "name": "get_weather", "input": {}}]})
     or b["messages"][3]["content"].append({"type": "tool_result", "tool_use_id": "toolu_3", "content": "ok"})),
    ("anthropic-id-reused-in-later-turn", "anthropic", lambda b: b["messages"].extend([
        {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]}])),
    ("anthropic-mid-conversation-system", "anthropic", lambda b: b["messages"].append(
        {"role": "system", "content": [{"type": "text", "text": "now be terse"}]})),
    ("anthropic-error-result-with-blocks", "anthropic",
     _set(["messages", 2, "content", 1, "content"], [{"type": "text", "text": "timeout"}])),
    ("chat-ends-on-tool-calls", "openai-chat", lambda b: b["messages"].__delitem__(slice(2, None))),
    ("responses-string-input", "openai-responses", _set(["input"], "hi")),
    ("responses-continuation", "openai-responses",
     lambda b: b.update(previous_response_id="resp_1", input=[{"type": "function_call_output", "call_id": "c", "output": "x"}])),
    ("responses-output-of-tool-search-call", "openai-responses", _set(["input", 2], {
        "type": "tool_search_call", "id": "tsc_1", "call_id": "call_1", "arguments": {}, "execution": "client"})),
    ("responses-reasoning-without-id", "openai-responses", lambda b: b["input"][1].pop("id")),
    ("gemini-snake-case", "gemini", lambda b: b["contents"][0]["parts"][1].update(
        inline_data={"mime_type": "image/webp", "data": "UklG"}) or b["contents"][0]["parts"][1].pop("inlineData")),
]  # fmt: skip


def test_every_rule_is_reported_by_an_invariant_that_reports_rules() -> None:
    """A rule names its invariant (``Rule.invariant``); one no rule-reporting invariant reads would
    never be reported, so it is refused here (endpoint rules included)."""
    reporters = {inv.id for inv in INVARIANTS if inv.rules}
    assert reporters == {"I7", "I8", "I12"}
    for rule in (*RULES, *INVOKE_RULES, *VERTEX_RULES):
        assert rule.invariant in reporters, rule.id


def test_rules_are_well_formed() -> None:
    ids = [r.id for r in RULES]
    assert len(ids) == len(set(ids))
    for rule in RULES:
        assert rule.kind in KINDS and rule.summary and rule.evidence and (rule.providers or rule.wires), (
            rule.id
        )
        assert {w for w in rule.wires} <= set(WIRES), rule.id
        assert {p.split(":")[0] for p in (*rule.providers, *rule.exempt)} <= set(PROVIDERS), rule.id
    for case in VIOLATIONS:
        assert case[3] in ids
    # the dialects' rules have their violating bodies in tests/test_rules_dialects.py, Cohere's in
    # tests/providers/cohere/test_oracle_cohere.py (each file checks its own rules are covered)
    elsewhere = {r.id for r in (*DIALECT_RULES, *COHERE_RULES)}
    covered = {case[3] for case in VIOLATIONS}
    assert covered == set(ids) - elsewhere, "every rule has a violating body"


@pytest.mark.parametrize("provider", sorted(BASES))
def test_base_bodies_are_quiet(provider: str) -> None:
    assert check_body(provider, copy.deepcopy(BASES[provider])) == []


@pytest.mark.parametrize(
    ("provider", "mutate", "rule", "path"), [c[1:] for c in VIOLATIONS], ids=[c[0] for c in VIOLATIONS]
)
def test_rule_catches_violation(provider: str, mutate: Mutate, rule: str, path: str) -> None:
    body = copy.deepcopy(BASES[provider])
    mutate(body)
    findings = check_body(provider, body)
    assert {f.rule for f in findings} == {rule}, findings
    assert findings[0].path == path
    finding = findings[0]
    kind = next(r.kind for r in RULES if r.id == rule)
    assert finding.kind == kind and finding.message and finding.example and finding.why


@pytest.mark.parametrize(("provider", "mutate"), [c[1:] for c in ACCEPTED], ids=[c[0] for c in ACCEPTED])
def test_rule_quiet_on_accepted_shape(provider: str, mutate: Mutate) -> None:
    body = copy.deepcopy(BASES[provider])
    mutate(body)
    assert check_body(provider, body) == []


def test_openrouter_responses_wire_gets_responses_rules() -> None:
    assert {r.id for r in rules_for("openrouter", wire="openai-responses")} >= {"responses-output-has-call"}
    assert "chat-tool-calls-answered" not in {r.id for r in rules_for("openrouter", wire="openai-responses")}
    with pytest.raises(ValueError, match="unknown provider"):
        check_body("nope", {})


def test_a_host_rule_judges_only_its_host() -> None:
    """`tools: []` is api.openai.com's 400; router.huggingface.co accepted it (recorded traffic)."""
    body = copy.deepcopy(CHAT)
    body["tools"] = []
    assert [f.rule for f in check_body("openai-chat", body, host="api.openai.com")] == [
        "chat-no-empty-arrays"
    ]
    assert [f.rule for f in check_body("openai-chat", body)] == ["chat-no-empty-arrays"]
    assert check_body("openai-chat", body, host="router.huggingface.co") == []


def test_check_body_does_not_modify() -> None:
    body = copy.deepcopy(ANTHROPIC)
    body["messages"] = []
    before = copy.deepcopy(body)
    check_body("anthropic", body)
    assert body == before


def test_empty_anthropic_messages_pass_the_oracles_but_not_the_rules() -> None:
    """Reported from the field: the schema allows `messages: []`; the API answers 400."""
    from harness.oracles import validate

    body: Body = {"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": []}
    assert validate("anthropic", body).ok
    assert [f.rule for f in check_body("anthropic", body)] == ["empty-conversation"]


def test_reasoning_followed_claims_nothing_where_the_evidence_is_silent() -> None:
    """The recorded 400 is a stored conversation; with ``store: false`` no traffic shows the rule."""
    body: dict[str, Any] = {
        "model": "o4-mini",
        "input": [
            {"role": "user", "content": "hi"},
            {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "eA=="},
            {"role": "assistant", "content": "hello"},
        ],
    }
    assert [f.rule for f in check_body("openai-responses", body)] == ["responses-reasoning-followed"]
    assert check_body("openai-responses", {**body, "store": False}) == []
