"""The request importer: recorded bodies -> canonical histories, and what they say about our adapters.

Round trip on our own goldens (import, render with the reference adapter, compare under
the import-check allowlist), each provider's naming of what it cannot represent, what it
must keep (ids, signature formats and model, tool results and their status), what real
recorded bodies carry into the params (tool strict, tool choice, structured output, API
defaults), and the ``import-request`` command's output and one-line errors.
import-check on the whole traffic is tests/test_import_check.py.
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
from harness.importer.common import Ledger, openai_output_format
from harness.loop.jsondiff import DiffContext, diff_json
from harness.model import (
    AssistantMessage,
    ImageURLPart,
    SystemMessage,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolResultMessage,
)
from harness.params import ForcedTool
from harness.scenarios import get_scenario
from harness.targets import get_target
from harness.traffic import load_traffic

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
        ['messages[0].content[0]: user block type "document" not representable', "metadata:"],
    ),
    "openai-chat": (
        {
            "model": "gpt-4o",
            "n": 2,
            "messages": [{"role": "user", "content": [{"type": "input_audio", "input_audio": {}}]}],
        },
        [
            'messages[0].content[0]: user content part "input_audio" not representable',
            "n: not representable (2)",
        ],
    ),
    "openai-responses": (
        {
            "model": "gpt-5",
            "previous_response_id": "resp_1",
            "input": [{"type": "web_search_call", "id": "ws_1"}],
        },
        ['input[0]: input item type "web_search_call" not representable', "previous_response_id:"],
    ),
    "gemini": (
        {
            "contents": [{"role": "user", "parts": [{"executableCode": {"code": "1"}}]}],
            "toolConfig": {"functionCallingConfig": {"mode": "VALIDATED"}},
        },
        [
            "contents[0].parts[0]: part with keys ['executableCode'] not representable",
            "toolConfig.functionCallingConfig: not representable",
        ],
    ),
    "openrouter": (
        {
            "model": "anthropic/claude-sonnet-4.5",
            "provider": {"order": ["anthropic"]},
            "messages": [
                {"role": "assistant", "content": "ok", "reasoning_details": [{"type": "reasoning.other"}]}
            ],
        },
        [
            'messages[0].reasoning_details[0]: reasoning detail type "reasoning.other" not representable',
            "provider:",
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


# ---------------------------------------------------------------- real recorded bodies


def _recorded(file: str, index: int) -> tuple[dict[str, Any], str]:
    """The body and URI of one recorded request (``file`` relative to the repository)."""
    call = next(c for c in load_traffic([ROOT / file]) if c.index == index)
    return call.body, call.uri


def test_anthropic_system_message_inside_messages_stays_a_system_message_in_place() -> None:
    file = "traffic/pydantic-ai/models__test_anthropic_mid_conversation_system__test_mid_conversation_system_prompt_kept_mid_history.yaml"
    body, _ = _recorded(file, 0)
    imported = import_request("anthropic", body)
    assert imported.unrepresented == []
    roles = [getattr(e, "role", None) for e in imported.history]
    assert roles == ["system", "user", "assistant", "user", "system", "assistant", "user"]
    inline = imported.history[4]
    assert isinstance(inline, SystemMessage)
    assert inline.parts[0].text.startswith("From now on, every suggestion")


def test_anthropic_unknown_message_role_is_named() -> None:
    lines = import_request(
        "anthropic", {"model": "m", "messages": [{"role": "tool", "content": "x"}]}
    ).unrepresented
    assert lines == ['messages[0]: message role "tool" not representable']


@pytest.mark.parametrize(
    ("file", "index", "part"),
    [
        (
            "traffic/pydantic-ai/models__test_multimodal_tool_returns__test_multimodal_tool_return_matrix[tool_return_content-binary-audio-google_gemini3].yaml",
            1,
            "inlineData",
        ),
        (
            "traffic/pydantic-ai/models__test_multimodal_tool_returns__test_multimodal_tool_return_matrix[tool_return_content-url-document-google_2_5].yaml",
            2,
            "inlineData",
        ),
    ],
)
def test_gemini_audio_and_documents_are_named_not_read_as_images(file: str, index: int, part: str) -> None:
    body, uri = _recorded(file, index)
    imported = import_request("gemini", body, uri=uri)
    named = [line for line in imported.unrepresented if f".{part}: " in line]
    assert named and all("the canonical model holds images only" in line for line in named), (
        imported.unrepresented
    )
    for event in imported.history:
        for image in getattr(event, "parts", []):
            assert not (
                isinstance(image, ImageURLPart) and image.url.startswith(("data:audio", "data:application"))
            )


@pytest.mark.parametrize(
    ("provider", "file", "index"),
    [
        ("openai-chat", "cassettes/openai-chat/pai__gpt4omini_tool_call_roundtrip.yaml", 0),
        (
            "openai-responses",
            "cassettes/openai-responses/pai__gpt55_reasoning_function_call_phase_roundtrip.yaml",
            0,
        ),
        (
            "anthropic",
            "traffic/pydantic-ai/models__anthropic__test_output__test_strict_true_tool_no_output.yaml",
            0,
        ),
        (
            "openrouter",
            "traffic/pydantic-ai/models__openrouter__test_cache__test_openrouter_cache_tool_definitions_gemini_e2e.yaml",
            0,
        ),
    ],
)
def test_tool_strict_flag_is_read_into_the_tool_spec(provider: str, file: str, index: int) -> None:
    body, _ = _recorded(file, index)
    imported = import_request(provider, body)
    assert not [line for line in imported.unrepresented if ".strict" in line], imported.unrepresented
    tools = body["tools"]
    recorded = [t.get("function", t).get("strict") for t in tools]
    assert imported.params.tools is not None
    assert [t.strict for t in imported.params.tools] == recorded
    assert True in recorded


def test_a_non_boolean_strict_is_named() -> None:
    body = {
        "model": "m",
        "messages": [],
        "tools": [{"type": "function", "function": {"name": "f", "strict": "yes"}}],
    }
    assert import_request("openai-chat", body).unrepresented == [
        'tools[0].function.strict: not a boolean ("yes")'
    ]


@pytest.mark.parametrize(
    ("provider", "file", "index", "key"),
    [
        ("openai-chat", "traffic/pydantic-ai/models__test_openai__test_extra_headers.yaml", 0, "n"),
        (
            "openai-responses",
            "traffic/pydantic-ai/models__test_openai_responses__test_openai_previous_response_id.yaml",
            0,
            "text",
        ),
        (
            "gemini",
            "traffic/pydantic-ai/models__google__test_output__test_google_validated_accepts_what_auto_accepts[auto].yaml",
            0,
            "toolConfig",
        ),
    ],
)
def test_an_api_default_is_represented_by_its_absence(provider: str, file: str, index: int, key: str) -> None:
    """``n: 1``, ``text.format`` text and ``toolConfig`` AUTO are the APIs' defaults; other values stay named."""
    body, uri = _recorded(file, index)
    assert key in body
    assert not [
        line for line in import_request(provider, body, uri=uri).unrepresented if line.startswith(key)
    ]
    changed = {
        **body,
        key: {"format": {"type": "text"}, "verbosity": "low"}
        if key == "text"
        else 2
        if key == "n"
        else {"x": 1},
    }
    assert [line for line in import_request(provider, changed, uri=uri).unrepresented if line.startswith(key)]


M = "traffic/pydantic-ai/models__test_tool_choice_matrix__test_tool_choice_matrix"


@pytest.mark.parametrize(
    ("provider", "case", "index", "expected"),
    [
        ("openai-chat", "required-openai", 0, "required"),
        ("openai-chat", "none-openai", 0, "none"),
        ("openai-chat", "none_with_output-openai", 0, ForcedTool(name="final_result")),
        ("openai-responses", "required-openai_responses", 0, "required"),
        ("anthropic", "required-anthropic", 0, "required"),
        ("anthropic", "list_single-anthropic", 0, ForcedTool(name="get_weather")),
        ("gemini", "required-google", 0, "required"),
        ("gemini", "list_single-google", 0, ForcedTool(name="get_weather")),
        ("openai-chat", "auto-openai", 0, None),
    ],
)
def test_tool_choice_is_read_into_call_params(provider: str, case: str, index: int, expected: object) -> None:
    """The tool-choice matrix pydantic-ai recorded for each provider: auto is None, the rest is carried."""
    body, uri = _recorded(f"{M}[{case}].yaml", index)
    imported = import_request(provider, body, uri=uri)
    assert not [line for line in imported.unrepresented if line.startswith(("tool_choice", "toolConfig"))]
    assert imported.params.tool_choice == expected


def test_a_tool_choice_the_params_cannot_hold_is_named() -> None:
    body: dict[str, Any] = {
        "model": "m",
        "messages": [],
        "tool_choice": {"type": "allowed_tools", "mode": "auto"},
    }
    assert import_request("openai-chat", body).unrepresented == [
        'tool_choice: not representable ({"mode": "auto", "type": "allowed_tools"})'
    ]
    gemini: dict[str, Any] = {
        "contents": [],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["a", "b"]}},
    }
    assert import_request("gemini", gemini).unrepresented[0].startswith("toolConfig.functionCallingConfig: ")


@pytest.mark.parametrize(
    ("provider", "file", "index", "has_schema", "name"),
    [
        (
            "openai-chat",
            "traffic/pydantic-ai/models__test_openai__test_openai_native_output.yaml",
            0,
            True,
            "result",
        ),
        (
            "openai-chat",
            "traffic/pydantic-ai/models__test_openai__test_openai_prompted_output.yaml",
            0,
            False,
            None,
        ),
        (
            "openai-responses",
            "traffic/pydantic-ai/models__test_openai_responses__test_native_output.yaml",
            0,
            True,
            "CityLocation",
        ),
        (
            "openai-responses",
            "traffic/pydantic-ai/models__test_openai_responses__test_prompted_output.yaml",
            0,
            False,
            None,
        ),
        (
            "anthropic",
            "traffic/pydantic-ai/models__anthropic__test_output__test_no_tools_native_output_strict_true.yaml",
            0,
            True,
            None,
        ),
        ("gemini", "traffic/pydantic-ai/models__test_google__test_google_native_output.yaml", 0, True, None),
        (
            "gemini",
            "traffic/pydantic-ai/models__test_google__test_google_prompted_output.yaml",
            0,
            False,
            None,
        ),
    ],
)
def test_structured_output_is_read_into_call_params(
    provider: str, file: str, index: int, has_schema: bool, name: str | None
) -> None:
    body, uri = _recorded(file, index)
    imported = import_request(provider, body, uri=uri)
    keys = ("response_format", "text", "output_config", "generationConfig")
    assert not [line for line in imported.unrepresented if line.startswith(keys)], imported.unrepresented
    output = imported.params.output_format
    assert output is not None
    assert (output.json_schema is not None, output.name) == (has_schema, name)
    if has_schema:
        assert output.json_schema is not None and output.json_schema.get("type") == "object"


def test_output_settings_the_params_cannot_hold_are_named() -> None:
    responses: dict[str, Any] = {
        "model": "m",
        "input": "hi",
        "text": {"format": {"type": "text"}, "verbosity": "low"},
    }
    assert import_request("openai-responses", responses).unrepresented == [
        'text.verbosity: not representable ("low")'
    ]
    anthropic: dict[str, Any] = {
        "model": "m",
        "max_tokens": 5,
        "messages": [],
        "output_config": {"effort": "high"},
    }
    assert import_request("anthropic", anthropic).unrepresented == [
        'output_config.effort: not representable ("high")'
    ]
    gemini: dict[str, Any] = {"contents": [], "generationConfig": {"responseMimeType": "text/x.enum"}}
    assert import_request("gemini", gemini).unrepresented[0].startswith("generationConfig.responseMimeType: ")


def test_an_unknown_output_format_key_is_named_once_on_each_path() -> None:
    """Responses keeps the schema fields on the format itself, Chat under ``json_schema``."""
    ledger = Ledger()
    fmt = {"type": "json_schema", "name": "out", "schema": {"type": "object"}, "extra": 1}
    openai_output_format(fmt, "text.format", ledger)
    assert ledger.lines == ["text.format.extra: not representable (1)"]
    ledger = Ledger()
    inner = {"name": "out", "schema": {"type": "object"}, "extra": 1}
    openai_output_format(
        {"type": "json_schema", "json_schema": inner, "outer": 2}, "response_format", ledger, inner
    )
    assert ledger.lines == [
        "response_format.outer: not representable (2)",
        "response_format.json_schema.extra: not representable (1)",
    ]


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
