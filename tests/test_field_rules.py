"""Field-reported provider rules: the reversible tool-name map, and ``harness render`` on arbitrary text.

The scenarios and goldens (``field_*``) show each repair on a whole request; these tests
check the properties a golden cannot: the name map is injective, stable and reversible
for any name, and the CLI never answers arbitrary Unicode with a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from harness.cli.main import app
from harness.codec import dumps_history
from harness.mapping.media import normalize_media_type
from harness.mapping.toolnames import NameRule, canonical_name, restore_call, wire_name, wire_names
from harness.model import (
    AssistantMessage,
    HistoryEvent,
    ImageURLPart,
    SystemMessage,
    TextPart,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)
from harness.params import CallParams, ToolSpec
from harness.providers import PROVIDERS, get_adapter, get_profile

runner = CliRunner()

# Lone surrogates are invalid input (rejected by the input layer), so text for the CLI
# excludes them; the adapters themselves are checked on them below.
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)
ANY_TEXT = st.text(max_size=40)


# ---------------------------------------------------------------- tool names


def _names(provider: str) -> NameRule:
    rule: NameRule = get_profile(provider).TOOL_NAMES
    return rule


@pytest.mark.parametrize("provider", PROVIDERS)
@given(names=st.lists(ANY_TEXT, min_size=1, max_size=6))
def test_wire_names_follow_the_rule_are_injective_and_map_back(provider: str, names: list[str]) -> None:
    rule = _names(provider)
    mapping = wire_names(names, rule)
    assert all(rule.ok(sent) for sent in mapping.values())
    assert len(set(mapping.values())) == len(mapping)  # two tools never share a wire name
    for name in names:
        assert canonical_name(mapping[name], mapping) == name
        assert mapping[name] == name or not rule.ok(name)  # valid names are never touched


@given(name=ANY_TEXT, others=st.lists(ANY_TEXT, max_size=4))
def test_a_name_maps_the_same_way_whatever_else_is_declared(name: str, others: list[str]) -> None:
    rule = _names("openai-chat")
    alone = wire_names([name], rule)[name]
    assert alone == wire_name(name, rule)
    together = wire_names([name, *others], rule)[name]
    # Only a 32-bit suffix clash with another declared name could change it.
    assert together == alone or together.endswith(wire_name(name, rule, digest_length=16)[-16:])


def test_mcp_names_per_provider() -> None:
    long = "mcp__plugin_workspace-indexer_semantic-code-search__search_repository_symbols"
    assert len(long) == 77
    openai = _names("openai-responses")
    assert wire_name("github.create_issue", openai).startswith("github_create_issue_")
    assert len(wire_name(long, openai)) == 64
    assert wire_name(long, _names("anthropic")) == long  # 128 allowed
    gemini = _names("gemini")
    assert wire_name("github.create_issue", gemini) == "github.create_issue"  # dots allowed
    assert wire_name("9lives", gemini).startswith("_9lives_")  # first character rule


def test_a_streamed_call_maps_back_to_the_declared_name() -> None:
    mapping = wire_names(["Github Get File", "read_file"], _names("anthropic"))
    streamed = ToolCallPart(call_id="t1", tool_name=mapping["Github Get File"], arguments_json="{}")
    assert restore_call(streamed, mapping).tool_name == "Github Get File"
    plain = ToolCallPart(call_id="t2", tool_name="read_file", arguments_json="{}")
    assert restore_call(plain, mapping) is plain


def test_media_type_labels() -> None:
    assert normalize_media_type("image/JPG") == "image/jpeg"
    assert normalize_media_type("image/png") == "image/png"
    assert normalize_media_type("image/bmp") == "image/bmp"  # unknown labels are left to each provider


# ---------------------------------------------------------------- arbitrary text through adapters and the CLI


def _history(text: str, name: str, call_id: str, media: str) -> tuple[list[HistoryEvent], CallParams]:
    call = ToolCallPart(call_id=call_id or "c", tool_name=name or "t", arguments_json=json.dumps({"q": text}))
    history: list[HistoryEvent] = [
        SystemMessage(parts=[TextPart(text=text)]),
        UserMessage(parts=[TextPart(text=text), ImageURLPart(url=f"data:{media or 'x'};base64,AAAA")]),
        AssistantMessage(parts=[TextPart(text=text), call], stop_reason="tool_use"),
        ToolResultMessage(call_id=call.call_id, tool_name=call.tool_name, status="error", output_text=text),
        UserMessage(parts=[TextPart(text=text or "?")]),
    ]
    tool = ToolSpec(name=call.tool_name, description=text, parameters={"type": "object"})
    return history, CallParams(system=text or None, tools=[tool])


@pytest.mark.parametrize("provider", PROVIDERS)
@given(text=ANY_TEXT, name=ANY_TEXT, call_id=ANY_TEXT, media=ANY_TEXT)
def test_adapters_never_crash_on_any_text(
    provider: str, text: str, name: str, call_id: str, media: str
) -> None:
    """Even lone surrogates (invalid input the loader rejects) must not crash an adapter."""
    history, params = _history(text, name, call_id, media)
    rendered = get_adapter(provider).render(history, params)
    assert isinstance(rendered.body, dict)


@pytest.mark.parametrize("provider", PROVIDERS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=TEXT, name=TEXT, call_id=TEXT, media=TEXT)
def test_render_cli_gives_a_body_or_one_line_exit_2(
    tmp_path: Path, provider: str, text: str, name: str, call_id: str, media: str
) -> None:
    history, params = _history(text, name, call_id, media)
    history_file = tmp_path / "h.jsonl"
    history_file.write_text(dumps_history(history), encoding="utf-8")
    params_file = tmp_path / "p.json"
    params_file.write_text(params.model_dump_json(exclude_none=True), encoding="utf-8")
    result = runner.invoke(
        app, ["render", str(history_file), "--provider", provider, "--params", str(params_file)]
    )
    assert "Traceback" not in result.stderr
    if result.exit_code == 0:
        assert isinstance(json.loads(result.stdout), dict)
    else:
        assert result.exit_code == 2, result.stderr
        assert result.stdout == "" and len(result.stderr.strip().splitlines()) == 1
