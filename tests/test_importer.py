"""The request importer: recorded bodies -> canonical histories, and what they say about our adapters.

Round trip on our own goldens (import, render with the reference adapter, compare under
the import-check allowlist), each provider's naming of what it cannot represent, what it
must keep (ids, signature formats and model, tool results and their status), and the
``import-request`` command's output and one-line errors. What real recorded bodies carry into
the params is tests/test_importer_recorded.py; import-check on the whole traffic is
tests/test_importcheck.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from harness.accepted.registry import for_judge
from harness.cli.main import app
from harness.importcheck.check import STRUCTURAL
from harness.importer import PROVIDERS, import_request
from harness.loop.jsondiff import DiffContext, diff_json
from harness.model import (
    AssistantMessage,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolResultMessage,
)
from harness.scenarios import get_scenario
from harness.targets import get_target

ROOT = Path(__file__).resolve().parent.parent
GOLDENS = sorted((ROOT / "goldens" / "requests").glob("*.json"))
#: Scenarios whose requests the importer cannot represent fully, and why: our adapters fold a
#: developer message that follows a tool result into that result as a second text block, and a
#: tool result has one output_text, so the block boundary has no canonical form.
PARTIAL_SCENARIOS = {"agent_loop_long", "developer_after_tool_result"}


def _split(stem: str) -> tuple[str, str]:
    provider = next(p for p in sorted(PROVIDERS, key=len, reverse=True) if stem.startswith(p + "-"))
    return provider, stem[len(provider) + 1 :]


def _gemini_uri(scenario: str) -> str:
    params = get_scenario(scenario).params_for("gemini")
    method = "streamGenerateContent" if params.stream else "generateContent"
    return f"https://generativelanguage.googleapis.com/v1beta/models/{params.model or 'gemini-2.5-flash'}:{method}"


def _round_trip_failure(golden: Path) -> str | None:
    """Why one golden's body does not come back the same through import and render, or None."""
    provider, scenario = _split(golden.stem)
    body = json.loads(golden.read_text(encoding="utf-8"))["body"]
    imported = import_request(provider, body, uri=_gemini_uri(scenario) if provider == "gemini" else None)
    if imported.unrepresented:
        if scenario not in PARTIAL_SCENARIOS:
            return f"unrepresented: {imported.unrepresented}"
        if not all("joined into one output_text" in line for line in imported.unrepresented):
            return f"unrepresented beyond the joined output_text: {imported.unrepresented}"
        return None
    rendered = get_target("reference").render(provider, imported.history, imported.params)
    differences = diff_json(
        body, rendered.body, DiffContext(provider, golden.stem), for_judge("import-check"), STRUCTURAL.extra()
    )
    left = [str(d) for d in differences if d.allowed_by is None]
    return "\n".join(left) if left else None


#: The goldens by provider: one test per provider judges every golden of it (each a millisecond or
#: two; one test per golden spent more in pytest's and xdist's per-test work than in judging).
BY_PROVIDER: dict[str, list[Path]] = {}
for _golden in GOLDENS:
    BY_PROVIDER.setdefault(_split(_golden.stem)[0], []).append(_golden)


@pytest.mark.parametrize("provider", sorted(BY_PROVIDER))
def test_golden_round_trip(provider: str) -> None:
    """Every golden request body of the provider imports and renders back the same; a failure names each golden."""
    failures = {g.stem: why for g in BY_PROVIDER[provider] if (why := _round_trip_failure(g)) is not None}
    assert not failures, "\n\n".join(f"{stem}:\n{why}" for stem, why in failures.items())


# ---------------------------------------------------------------- naming what cannot be represented

UNREPRESENTABLE: dict[str, tuple[dict[str, Any], list[str]]] = {
    "anthropic": (
        {
            "model": "claude-sonnet-4-5",
            "max_tokens": 100,
            "metadata": {"user_id": "u1"},
            "messages": [
                {
                    "role": "user",
                    "content": [{"type": "document", "source": {}}, {"type": "text", "text": "hi"}],
                }
            ],
        },
        ["messages[0].content[0].source: document source type null not representable", "metadata:"],
    ),
    "openai-chat": (
        {
            "model": "gpt-4o",
            "n": 2,
            "messages": [{"role": "user", "content": [{"type": "input_audio", "input_audio": {}}]}],
        },
        [
            'messages[0].content[0]: user content part "input_audio" not representable (no audio format)',
            "n: not representable (2)",
        ],
    ),
    "openai-responses": (
        {
            "model": "gpt-5",
            "truncation": "auto",
            "input": [{"type": "compaction", "id": "cmp_1"}],
        },
        ['input[0]: input item type "compaction" not representable', "truncation:"],
    ),
    "gemini": (
        {
            "contents": [{"role": "user", "parts": [{"executableCode": {"code": "1"}}]}],
            "toolConfig": {"functionCallingConfig": {"mode": "AUTO", "allowedFunctionNames": ["a"]}},
        },
        [
            "contents[0].parts[0]: part with keys ['executableCode'] not representable",
            "toolConfig.functionCallingConfig: not representable",
        ],
    ),
    "openrouter": (
        {
            "model": "anthropic/claude-sonnet-4.5",
            "usage": {"include": True},
            "messages": [
                {"role": "assistant", "content": "ok", "reasoning_details": [{"type": "reasoning.other"}]}
            ],
        },
        [
            'messages[0].reasoning_details[0]: reasoning detail type "reasoning.other" not representable',
            "usage:",
        ],
    ),
}


@pytest.mark.parametrize("provider", sorted(UNREPRESENTABLE))
def test_unrepresented_parts_are_named_by_path(provider: str) -> None:
    body, expected = UNREPRESENTABLE[provider]
    lines = import_request(provider, body).unrepresented
    for start in expected:
        assert any(line.startswith(start) for line in lines), (start, lines)


def test_a_non_list_where_a_list_belongs_is_named_not_read_as_empty() -> None:
    lines = import_request("anthropic", {"model": "m", "messages": "hello"}).unrepresented
    assert lines == ['messages: expected a list, got "hello"']


def test_bad_provider_wire_and_body_raise_value_error() -> None:
    with pytest.raises(ValueError, match="unknown provider"):
        import_request("nope", {})
    with pytest.raises(ValueError, match="openai-responses body format is not supported"):
        import_request("openrouter", {}, wire="openai-responses")
    with pytest.raises(ValueError, match="must be a JSON object"):
        import_request("gemini", [])
    with pytest.raises(ValueError, match="max_tokens"):
        import_request("anthropic", {"model": "m", "max_tokens": 0, "messages": []})


# ---------------------------------------------------------------- what must be kept


def test_anthropic_keeps_signatures_with_format_and_model_and_error_results() -> None:
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 2000,
        "thinking": {"type": "enabled", "budget_tokens": 1024},
        "messages": [
            {"role": "user", "content": "go"},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "hmm", "signature": "sig1"},
                    {"type": "redacted_thinking", "data": "opaque"},
                    {"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {"c": 1}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "boom", "is_error": True}
                ],
            },
        ],
    }
    imported = import_request("anthropic", body)
    assert imported.unrepresented == []
    assistant = imported.history[1]
    assert isinstance(assistant, AssistantMessage)
    signatures = [p for p in assistant.parts if isinstance(p, ThinkingSignaturePart)]
    assert [(s.signature, s.format, s.model_id) for s in signatures] == [
        ("sig1", "anthropic", "claude-sonnet-4-5"),
        ("opaque", "anthropic-redacted", "claude-sonnet-4-5"),
    ]
    result = imported.history[2]
    assert isinstance(result, ToolResultMessage)
    assert (result.call_id, result.tool_name, result.status, result.output_text) == (
        "toolu_1",
        "bash",
        "error",
        "boom",
    )
    assert imported.params.thinking is not None and imported.params.thinking.budget_tokens == 1024


def test_gemini_error_response_is_an_error_result_and_model_comes_from_the_url() -> None:
    body: dict[str, Any] = {
        "contents": [
            {"role": "user", "parts": [{"text": "go"}]},
            {
                "role": "model",
                "parts": [{"functionCall": {"id": "c1", "name": "f", "args": {}}, "thoughtSignature": "s"}],
            },
            {
                "role": "user",
                "parts": [{"functionResponse": {"id": "c1", "name": "f", "response": {"error": "no"}}}],
            },
        ]
    }
    uri = (
        "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
    )
    imported = import_request("gemini", body, uri=uri)
    assert imported.unrepresented == []
    assert (imported.params.model, imported.params.stream) == ("gemini-2.5-pro", True)
    result = imported.history[2]
    assert isinstance(result, ToolResultMessage) and (result.status, result.output_text) == ("error", "no")
    assistant = imported.history[1]
    assert isinstance(assistant, AssistantMessage)
    signature = assistant.parts[1]
    assert isinstance(signature, ThinkingSignaturePart)
    assert (signature.format, signature.model_id) == ("google", "gemini-2.5-pro")


def test_responses_and_openrouter_keep_reasoning_ids_and_formats() -> None:
    responses = import_request(
        "openai-responses",
        {
            "model": "gpt-5",
            "input": [
                {"role": "user", "content": "go"},
                {
                    "type": "reasoning",
                    "id": "rs_1",
                    "summary": [{"type": "summary_text", "text": "t"}],
                    "encrypted_content": "enc",
                },
                {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": "{}"},
            ],
        },
    )
    assistant = responses.history[1]
    assert isinstance(assistant, AssistantMessage)
    kept = [
        (type(p).__name__, getattr(p, "id", None) or getattr(p, "item_id", None)) for p in assistant.parts
    ]
    assert kept == [("ThinkingTextPart", "rs_1"), ("ThinkingSignaturePart", "rs_1"), ("ToolCallPart", "fc_1")]
    router = import_request(
        "openrouter",
        {
            "model": "openai/gpt-5",
            "messages": [
                {"role": "user", "content": "go"},
                {
                    "role": "assistant",
                    "content": "ok",
                    "reasoning_details": [
                        {
                            "type": "reasoning.summary",
                            "summary": "s",
                            "format": "openai-responses-v1",
                            "id": "rs_2",
                        },
                        {
                            "type": "reasoning.encrypted",
                            "data": "d",
                            "format": "openai-responses-v1",
                            "id": "rs_2",
                        },
                    ],
                },
            ],
        },
    )
    parts = router.history[1]
    assert isinstance(parts, AssistantMessage)
    assert isinstance(parts.parts[0], ThinkingTextPart) and parts.parts[0].id == "rs_2"
    signature = parts.parts[1]
    assert isinstance(signature, ThinkingSignaturePart)
    assert (signature.format, signature.id, signature.model_id) == (
        "openai-responses-v1",
        "rs_2",
        "openai/gpt-5",
    )


# ---------------------------------------------------------------- the command


def test_import_request_command_writes_history_params_and_unrepresented(tmp_path: Path) -> None:
    body = tmp_path / "body.json"
    body.write_text(json.dumps({"model": "gpt-4o", "n": 2, "messages": [{"role": "user", "content": "hi"}]}))
    params = tmp_path / "params.json"
    result = CliRunner().invoke(
        app, ["import-request", str(body), "--provider", "openai-chat", "--params-out", str(params)]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"parts": [{"text": "hi", "type": "text"}], "role": "user"}
    assert json.loads(params.read_text())["model"] == "gpt-4o"
    assert result.stderr.strip() == "unrepresented: n: not representable (2)"
    strict = CliRunner().invoke(app, ["import-request", str(body), "--provider", "openai-chat", "--strict"])
    assert strict.exit_code == 1


@pytest.mark.parametrize(
    ("content", "provider", "message"),
    [
        ("{", "anthropic", "invalid JSON"),
        ("[]", "anthropic", "(body): request body must be a JSON object, not list"),
        ("{}", "nope", "--provider: unknown provider 'nope'"),
        ('{"max_tokens": -1}', "anthropic", "max_tokens"),
    ],
)
def test_import_request_command_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, content: str, provider: str, message: str
) -> None:
    body = tmp_path / "body.json"
    body.write_text(content)
    result = CliRunner().invoke(app, ["import-request", str(body), "--provider", provider])
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], lines


def test_import_request_command_missing_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["import-request", str(tmp_path / "nope.json"), "--provider", "gemini"])
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1


def test_openrouter_server_tools_are_read_in_place_and_sent_back_whole() -> None:
    """OpenRouter's own ``openrouter:*`` tools (recorded accepted: traffic/pydantic-ai/
    models__test_openrouter__test_openrouter_advisor_tool.yaml#0) are server tools, not functions."""
    advisor = {"type": "openrouter:advisor", "parameters": {"model": "~anthropic/claude-opus-latest"}}
    function: dict[str, Any] = {
        "type": "function",
        "function": {"name": "f", "parameters": {"type": "object", "properties": {}}},
    }
    body: dict[str, Any] = {
        "model": "openai/gpt-5",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [function, advisor],
    }
    imported = import_request("openrouter", body)
    assert imported.unrepresented == []
    servers = imported.params.server_tools or []
    assert [(s.kind, s.provider, s.position, s.raw) for s in servers] == [
        ("advisor", "openrouter", 1, advisor)
    ]
    rendered = get_target("reference").render("openrouter", imported.history, imported.params)
    assert rendered.body["tools"] == [function, advisor]


@pytest.mark.parametrize(("index", "named"), [(0, False), (1, True)])
def test_mistral_tool_call_index_zero_is_the_sdk_default(index: int, named: bool) -> None:
    """mistralai's ToolCall.index defaults to 0 and the SDK sends it; any other value is named."""
    call = {
        "id": "abc123XYZ",
        "type": "function",
        "index": index,
        "function": {"name": "f", "arguments": "{}"},
    }
    body: dict[str, Any] = {
        "model": "mistral-large-latest",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [], "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "abc123XYZ", "content": "ok"},
        ],
    }
    unrepresented = import_request("mistral", body).unrepresented
    assert any("tool_calls[0].index" in line for line in unrepresented) is named


def _converse(output_config: dict[str, Any]) -> dict[str, Any]:
    return {"messages": [{"role": "user", "content": [{"text": "hi"}]}], "outputConfig": output_config}


def test_converse_structured_output_is_read_and_sent_back_as_recorded() -> None:
    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    definition = {"schema": json.dumps(schema), "name": "CityInfo", "description": "A city."}
    config = {"textFormat": {"type": "json_schema", "structure": {"jsonSchema": definition}}}
    uri = "https://bedrock-runtime.us-east-1.amazonaws.com/model/qwen.qwen3-32b-v1:0/converse"
    imported = import_request("bedrock", _converse(config), uri=uri)
    assert imported.unrepresented == []
    fmt = imported.params.output_format
    assert fmt is not None and (fmt.json_schema, fmt.name, fmt.description) == (schema, "CityInfo", "A city.")
    rendered = get_target("reference").render("bedrock", imported.history, imported.params)
    assert rendered.body["outputConfig"] == config


def test_converse_structured_output_that_is_not_a_schema_is_named() -> None:
    bad = {"textFormat": {"type": "json_schema", "structure": {"jsonSchema": {"schema": "{not json"}}}}
    assert import_request("bedrock", _converse(bad)).unrepresented == [
        "outputConfig.textFormat.structure.jsonSchema.schema: not a JSON document"
    ]
