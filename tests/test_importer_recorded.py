"""The request importer on real recorded bodies: what they carry into the history and the params.

A system message inside Anthropic's messages, unknown roles, Gemini's audio and documents,
tool strict flags, API defaults represented by their absence, tool choice and structured
output. The round trip on our goldens, the naming of what cannot be represented and the
``import-request`` command are tests/test_importer.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from harness.importer import import_request
from harness.importer.common import Ledger, openai_output_format
from harness.model import FilePart, ImageURLPart, SystemMessage
from harness.params import ForcedTool
from harness.traffic import load_traffic

ROOT = Path(__file__).resolve().parent.parent


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
def test_gemini_audio_and_documents_are_read_as_files_not_images(file: str, index: int, part: str) -> None:
    body, uri = _recorded(file, index)
    imported = import_request("gemini", body, uri=uri)
    assert not [line for line in imported.unrepresented if f".{part}" in line], imported.unrepresented
    files = [p for event in imported.history for p in getattr(event, "parts", []) if isinstance(p, FilePart)]
    assert files and all(f.data and f.media_type.startswith(("audio/", "application/pdf")) for f in files)
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
        "toolConfig": {"functionCallingConfig": {"mode": "NONE", "allowedFunctionNames": ["a", "b"]}},
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
