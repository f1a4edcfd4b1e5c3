"""The scenario corpus: data integrity, build reproducibility, and coverage by tags.

The corpus is the conformance suite's input, so a malformed or drifting scenario would
silently weaken every adapter check; these tests make such drift fail loudly. Tags are
checked against the data, so a tag is a promise about the history, not a label.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from importlib.resources import files
from pathlib import Path

import pytest

from harness.codec import dumps_history, loads_history
from harness.model import (
    AnyPart,
    AssistantMessage,
    DeveloperMessage,
    ErrorEvent,
    FilePart,
    HistoryEvent,
    ImageFilePart,
    ImageURLPart,
    ServerToolCallPart,
    ServerToolResultPart,
    SourcePart,
    SystemMessage,
    TaskMetadataEvent,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)
from harness.scenarios import (
    REQUIRED_TAGS,
    TAG_INFO,
    TAGS,
    Scenario,
    get_scenario,
    load_scenarios,
    scenario_names,
)
from harness.scenarios.build import REAL_SIGNATURES, render_files
from harness.scenarios.build import main as build_main

ROOT = Path(str(files("harness.scenarios")))
DATA = ROOT / "data"
CORPUS = load_scenarios()
NAMES = sorted(CORPUS)

Part = AnyPart
Message = SystemMessage | DeveloperMessage | UserMessage | AssistantMessage | ToolResultMessage

# Tags promising a signature native to params.model, and the signature format each means.
NATIVE_TAG_FORMATS = {
    "signature-anthropic": "anthropic",
    "signature-openai-responses": "openai-responses",
    "signature-google-text": "google",
    "signature-google-function-call": "google",
    "signature-openrouter-anthropic": "anthropic-claude-v1",
    "signature-openrouter-openai": "openai-responses-v1",
}


def _parts(event: HistoryEvent) -> Sequence[Part]:
    if isinstance(event, ErrorEvent | TaskMetadataEvent):
        return []
    return event.parts


def _messages(s: Scenario) -> list[Message]:
    return [e for e in s.history if not isinstance(e, ErrorEvent | TaskMetadataEvent)]


def _assistants(s: Scenario) -> list[AssistantMessage]:
    return [e for e in s.history if isinstance(e, AssistantMessage)]


def _results(s: Scenario) -> list[ToolResultMessage]:
    return [e for e in s.history if isinstance(e, ToolResultMessage)]


def _calls(s: Scenario) -> list[ToolCallPart]:
    return [p for m in _assistants(s) for p in m.parts if isinstance(p, ToolCallPart)]


def _signatures(s: Scenario) -> list[tuple[ThinkingSignaturePart, Sequence[Part]]]:
    """Each signature with the parts of its message that come before it."""
    return [
        (p, m.parts[:i])
        for m in _assistants(s)
        for i, p in enumerate(m.parts)
        if isinstance(p, ThinkingSignaturePart)
    ]


def _texts(s: Scenario) -> list[str]:
    return [p.text for e in s.history for p in _parts(e) if isinstance(p, TextPart)]


def _has_images(event: HistoryEvent) -> bool:
    return any(isinstance(p, ImageURLPart | ImageFilePart) for p in _parts(event))


def _is_thinking(part: Part) -> bool:
    return isinstance(part, ThinkingTextPart | ThinkingSignaturePart)


# ---------------------------------------------------------------- data integrity


def test_corpus_size_and_names() -> None:
    assert len(CORPUS) >= 34
    assert scenario_names() == NAMES
    assert list(load_scenarios()) == NAMES
    for name in NAMES:
        assert name.isidentifier() and name == name.lower(), name


def test_catalog_and_data_dir_have_the_same_names() -> None:
    catalog: dict[str, object] = json.loads((ROOT / "catalog.json").read_text(encoding="utf-8"))
    assert list(catalog) == sorted(catalog)
    assert set(catalog) == {p.stem for p in DATA.glob("*.jsonl")}


@pytest.mark.parametrize("name", NAMES)
def test_file_decodes_and_reencodes_byte_identically(name: str) -> None:
    text = (DATA / f"{name}.jsonl").read_bytes().decode("utf-8")
    events = loads_history(text, source=name)
    assert events
    assert dumps_history(events) == text
    assert events == CORPUS[name].history


@pytest.mark.parametrize("name", NAMES)
def test_description_is_one_nonempty_line(name: str) -> None:
    description = CORPUS[name].description
    assert description and description.strip() == description
    assert len(description.splitlines()) == 1


@pytest.mark.parametrize("name", NAMES)
def test_tags_come_from_the_vocabulary(name: str) -> None:
    tags = CORPUS[name].tags
    assert tags and set(tags) <= TAGS
    assert list(tags) == sorted(set(tags))


def test_build_output_equals_committed_data() -> None:
    rendered = render_files()
    on_disk = {f"data/{p.name}": p.read_text(encoding="utf-8") for p in DATA.glob("*.jsonl")}
    on_disk["catalog.json"] = (ROOT / "catalog.json").read_text(encoding="utf-8")
    stale = sorted(k for k in rendered.keys() | on_disk.keys() if rendered.get(k) != on_disk.get(k))
    assert not stale, f"run `uv run python -m harness.scenarios.build`; out of date: {stale}"


def test_build_writes_and_checks_a_directory(tmp_path: Path) -> None:
    assert build_main(["--out", str(tmp_path)]) == 0
    assert build_main(["--out", str(tmp_path), "--check"]) == 0
    (tmp_path / "data" / "stale.jsonl").write_text("{}\n", encoding="utf-8")
    assert build_main(["--out", str(tmp_path), "--check"]) == 1
    assert build_main(["--out", str(tmp_path)]) == 0
    assert not (tmp_path / "data" / "stale.jsonl").exists()


def test_get_scenario_suggests_close_names() -> None:
    assert get_scenario("plain_single_turn").name == "plain_single_turn"
    with pytest.raises(KeyError) as info:
        get_scenario("plain_single_trun")
    assert "plain_single_turn" in str(info.value.args[0])
    with pytest.raises(KeyError) as info:
        get_scenario("google")
    assert "thinking_google_signature_on_text" in str(info.value.args[0])


# ---------------------------------------------------------------- realism rules every scenario keeps


@pytest.mark.parametrize("name", NAMES)
def test_assistant_messages_have_usage_and_a_consistent_stop_reason(name: str) -> None:
    for message in _assistants(CORPUS[name]):
        assert message.usage is not None and message.stop_reason is not None
        assert message.usage.total_tokens == message.usage.input_tokens + message.usage.output_tokens
        if message.stop_reason in ("aborted", "error"):
            continue
        # A Gemini signature may follow the call it belongs to; otherwise a tool turn ends in its calls.
        visible = [p for p in message.parts if not isinstance(p, ThinkingSignaturePart)]
        ends_in_call = bool(visible) and isinstance(visible[-1], ToolCallPart)
        assert (message.stop_reason == "tool_use") == ends_in_call, message


@pytest.mark.parametrize("name", NAMES)
def test_history_ends_ready_for_the_next_call(name: str) -> None:
    """A history is the request for the next assistant turn, so it never ends on an assistant message."""
    assert not isinstance(CORPUS[name].history[-1], AssistantMessage)


@pytest.mark.parametrize("name", NAMES)
def test_call_ids_are_unique_and_results_name_their_tool(name: str) -> None:
    s = CORPUS[name]
    calls = _calls(s)
    if "tool-id-reused" in s.tags:
        # Field report: backends that number call_0 every turn reuse ids across responses,
        # never within one message.
        for message in _assistants(s):
            ids = [p.call_id for p in message.parts if isinstance(p, ToolCallPart)]
            assert len(set(ids)) == len(ids)
        assert len({c.call_id for c in calls}) < len(calls)
    else:
        assert len({c.call_id for c in calls}) == len(calls)
    tool_of = {c.call_id: c.tool_name for c in calls}
    for r in _results(s):
        assert tool_of.get(r.call_id, r.tool_name) == r.tool_name


@pytest.mark.parametrize("name", NAMES)
def test_thinking_parts_name_the_model_that_wrote_them(name: str) -> None:
    for message in _assistants(CORPUS[name]):
        models = {getattr(p, "model_id", None) for p in message.parts if _is_thinking(p)}
        assert len(models) <= 1 and None not in models, message


# ---------------------------------------------------------------- tags say what the data contains


@pytest.mark.parametrize("name", NAMES)
def test_derivable_tags_match_the_content(name: str) -> None:
    s = CORPUS[name]
    tags = set(s.tags)
    called = {c.tool_name for c in _calls(s)}
    defined = {t.name for t in s.params.tools or []} | _added(s)
    has_tools = bool(called) or bool(_results(s))
    thinking = any(_is_thinking(p) for m in _assistants(s) for p in m.parts)
    images = any(_has_images(e) for e in s.history)
    aborted = any(m.stop_reason == "aborted" for m in _assistants(s)) or any(
        r.status == "aborted" for r in _results(s)
    )
    assert ("tools" in tags) == has_tools
    assert ("tools-given" in tags) == (bool(called) and called <= defined)
    assert ("tools-derived" in tags) == bool(called - defined)
    assert ("developer" in tags) == any(isinstance(e, DeveloperMessage) for e in s.history)
    assert ("images" in tags) == images
    assert ("thinking" in tags) == thinking
    assert ("interrupt" in tags) == aborted
    assert ("system-in-params" in tags) == bool(s.params.system)
    assert ("tool-strict" in tags) == any(t.strict is not None for t in s.params.tools or [])
    assert ("tool-choice" in tags) == (s.params.tool_choice is not None)
    assert ("output-format" in tags) == (s.params.output_format is not None)
    controls = ("top_p", "top_k", "presence_penalty", "frequency_penalty", "stop", "seed")
    controls += ("parallel_tool_calls", "service_tier")
    assert ("call-controls" in tags) == any(getattr(s.params, c) is not None for c in controls)
    marked = [p for e in s.history for p in getattr(e, "parts", [])] + [*s.history, *(s.params.tools or [])]
    cached = any(getattr(x, "cache_breakpoint", None) is not None for x in marked)
    assert ("cache-breakpoints" in tags) == (cached or s.params.system_cache_breakpoint is not None)
    by_reference = s.params.previous_response_id is not None or s.params.conversation is not None
    assert ("server-state" in tags) == by_reference
    assert ("real-tokens" in tags) == any(sig.signature in REAL_SIGNATURES for sig, _ in _signatures(s))
    if "plain" in tags:
        assert not (has_tools or thinking or images)


@pytest.mark.parametrize("name", [n for n in NAMES if set(CORPUS[n].tags) & NATIVE_TAG_FORMATS.keys()])
def test_native_signature_tags_match_params_model(name: str) -> None:
    """signature-<format> promises a non-empty signature of that format whose model_id is params.model."""
    s = CORPUS[name]
    for tag in sorted(set(s.tags) & NATIVE_TAG_FORMATS.keys()):
        hits = [
            sig
            for sig, before in _signatures(s)
            if sig.format == NATIVE_TAG_FORMATS[tag]
            and sig.signature
            and (tag != "signature-google-text" or (bool(before) and isinstance(before[-1], TextPart)))
            and (
                tag != "signature-google-function-call"
                or (bool(before) and isinstance(before[-1], ToolCallPart))
            )
        ]
        assert any(sig.model_id == s.params.model for sig in hits), (tag, s.params.model)


def _developer_after(kind: type | None) -> Callable[[Scenario], bool]:
    def check(s: Scenario) -> bool:
        messages = _messages(s)
        for i, m in enumerate(messages):
            if isinstance(m, DeveloperMessage):
                prev = messages[i - 1] if i else None
                if (prev is None and kind is None) or (kind is not None and isinstance(prev, kind)):
                    return True
        return False

    return check


def _parallel(in_order: bool) -> Callable[[Scenario], bool]:
    def check(s: Scenario) -> bool:
        for m in _assistants(s):
            ids = [p.call_id for p in m.parts if isinstance(p, ToolCallPart)]
            got = [r.call_id for r in _results(s) if r.call_id in ids]
            if len(ids) >= 2 and sorted(got) == sorted(ids) and (got == ids) == in_order:
                return True
        return False

    return check


def _kinds_contain(pattern: list[str]) -> Callable[[Scenario], bool]:
    def check(s: Scenario) -> bool:
        for m in _assistants(s):
            kinds = [p.type for p in m.parts]
            if any(kinds[i : i + len(pattern)] == pattern for i in range(len(kinds))):
                return True
        return False

    return check


def _lost_thinking(s: Scenario) -> bool:
    loop = [m for m in _assistants(s) if m.stop_reason == "tool_use"]
    enabled = s.params.thinking is not None and s.params.thinking.enabled
    return (
        enabled
        and (s.params.model or "").startswith("claude")
        and bool(loop)
        and not any(_is_thinking(p) for p in loop[-1].parts)
    )


NON_ASCII_SAMPLES = (
    "東",
    "👩\u200d💻",
    "🇳🇱",
    "م",
    "ש",
    "e\u0301",
    "\U0001d518",
    "\u2028",
)  # last two: MATHEMATICAL FRAKTUR CAPITAL U, LINE SEPARATOR

# Tags that no single field decides: each maps to the check that the data really contains it.
TAG_CHECKS: dict[str, Callable[[Scenario], bool]] = {
    "plain-single-turn": lambda s: len(_messages(s)) == 1 and isinstance(_messages(s)[0], UserMessage),
    "plain-multi-turn": lambda s: (
        sum(isinstance(e, UserMessage) for e in s.history) >= 2 and bool(_assistants(s))
    ),
    "user-multipart": lambda s: any(
        isinstance(e, UserMessage) and len(e.parts) >= 3 and _has_images(e) for e in s.history
    ),
    "image-http-url": lambda s: any(
        isinstance(p, ImageURLPart) and p.url.startswith("https://") for e in s.history for p in _parts(e)
    ),
    "image-data-url": lambda s: any(
        isinstance(p, ImageURLPart) and p.url.startswith("data:image/png;base64,")
        for e in s.history
        for p in _parts(e)
    ),
    "assistant-image-file": lambda s: any(
        isinstance(p, ImageFilePart) for m in _assistants(s) for p in m.parts
    ),
    "tool-result-image": lambda s: any(
        isinstance(p, ImageURLPart | ImageFilePart) for r in _results(s) for p in r.parts
    ),
    "files": lambda s: any(isinstance(p, FilePart) for e in s.history for p in _parts(e)),
    "file-document": lambda s: any(
        isinstance(p, FilePart) and p.media_type == "application/pdf" for e in s.history for p in _parts(e)
    ),
    "file-text": lambda s: any(
        isinstance(p, FilePart) and p.media_type.startswith("text/") for e in s.history for p in _parts(e)
    ),
    "file-audio": lambda s: any(
        isinstance(p, FilePart) and p.media_type.startswith("audio/") for e in s.history for p in _parts(e)
    ),
    "file-video": lambda s: any(
        isinstance(p, FilePart) and p.media_type.startswith("video/") for e in s.history for p in _parts(e)
    ),
    "file-reference": lambda s: any(
        isinstance(p, FilePart) and (p.file_id or p.uri) for e in s.history for p in _parts(e)
    ),
    "tool-result-file": lambda s: any(isinstance(p, FilePart) for r in _results(s) for p in r.parts),
    "tool-result-structured": lambda s: any(r.output_json is not None for r in _results(s)),
    "tool-result-text-blocks": lambda s: any(r.text_blocks for r in _results(s)),
    "tool-result-interleaved": lambda s: any(r.part_positions for r in _results(s)),
    "file-document-options": lambda s: any(
        isinstance(p, FilePart) and (p.text_chunks or p.context or p.citations)
        for e in s.history
        for p in _parts(e)
    ),
    "file-container": lambda s: any(
        isinstance(p, FilePart) and p.purpose == "container" for e in s.history for p in _parts(e)
    ),
    "file-video-metadata": lambda s: any(
        isinstance(p, FilePart) and p.video_metadata for e in s.history for p in _parts(e)
    ),
    "text-empty": lambda s: "" in _texts(s),
    "text-whitespace": lambda s: any(t and not t.strip() for t in _texts(s)),
    "text-non-ascii": lambda s: all(c in dumps_history(s.history) for c in NON_ASCII_SAMPLES),
    "developer-after-user": _developer_after(UserMessage),
    "developer-after-tool": _developer_after(ToolResultMessage),
    "developer-after-assistant": _developer_after(AssistantMessage),
    "developer-at-start": _developer_after(None),
    "developer-image": lambda s: any(isinstance(e, DeveloperMessage) and _has_images(e) for e in s.history),
    "developer-ui-fields": lambda s: (
        any(isinstance(e, DeveloperMessage) and e.command_output and e.ui_extra for e in s.history)
        and any(isinstance(e, DeveloperMessage) and e.at_files for e in s.history)
    ),
    "thinking-multiple-pairs": _kinds_contain(["thinking_text", "thinking_signature"] * 2),
    "thinking-two-texts-one-signature": _kinds_contain(
        ["thinking_text", "thinking_text", "thinking_signature"]
    ),
    "signature-orphan": lambda s: any(
        sig.format not in ("anthropic-redacted", "google")  # these never pair with a thinking text
        and not any(isinstance(p, ThinkingTextPart) for p in before)
        for sig, before in _signatures(s)
    ),
    "thinking-foreign-provider": lambda s: any(
        sig.format == "google" and (s.params.model or "").startswith("claude") for sig, _ in _signatures(s)
    ),
    "thinking-foreign-model": lambda s: any(
        sig.format == "anthropic" and sig.model_id != s.params.model for sig, _ in _signatures(s)
    ),
    "thinking-redacted": lambda s: any(
        sig.format == "anthropic-redacted" and sig.signature for sig, _ in _signatures(s)
    ),
    "signature-empty": lambda s: any(sig.signature == "" for sig, _ in _signatures(s)),
    "thinking-enabled-lost-thinking": _lost_thinking,
    "mixed-provider": lambda s: len({sig.model_id for sig, _ in _signatures(s)}) >= 3,
    "tool-single": lambda s: any(
        sum(isinstance(p, ToolCallPart) for p in m.parts) == 1 for m in _assistants(s)
    ),
    "tool-parallel-in-order": _parallel(True),
    "tool-parallel-out-of-order": _parallel(False),
    "tool-error": lambda s: any(r.status == "error" for r in _results(s)),
    "tool-aborted": lambda s: any(r.status == "aborted" for r in _results(s)),
    "tool-args-empty-string": lambda s: any(c.arguments_json == "" for c in _calls(s)),
    "tool-args-empty-object": lambda s: any(c.arguments_json == "{}" for c in _calls(s)),
    "tool-id-invalid-chars": lambda s: any(
        not c.call_id.replace("_", "").replace("-", "").isalnum() for c in _calls(s)
    ),
    "tool-id-too-long": lambda s: sorted({len(c.call_id) for c in _calls(s)} & {64, 80}) == [64, 80],
    "tool-result-orphan": lambda s: any(r.call_id not in {c.call_id for c in _calls(s)} for r in _results(s)),
    "turn-aborted-dangling-call": lambda s: any(
        m.stop_reason == "aborted"
        and any(
            isinstance(p, ToolCallPart) and p.call_id not in {r.call_id for r in _results(s)} for p in m.parts
        )
        for m in _assistants(s)
    ),
    "interrupt-mid-text": lambda s: any(
        m.stop_reason == "aborted" and bool(m.parts) and isinstance(m.parts[-1], TextPart)
        for m in _assistants(s)
    ),
    "system-in-history": lambda s: isinstance(_messages(s)[0], SystemMessage),
    "system-mid-history": lambda s: any(isinstance(m, SystemMessage) for m in _messages(s)[1:]),
    "event-error": lambda s: any(isinstance(e, ErrorEvent) for e in s.history),
    "event-task-metadata": lambda s: any(isinstance(e, TaskMetadataEvent) for e in s.history),
    "agent-loop-long": lambda s: (
        len(_assistants(s)) >= 12 and sum(isinstance(e, DeveloperMessage) for e in s.history) >= 2
    ),
    "regression": lambda s: (
        s.name.startswith("regression_")
        and re.match(r"Regression (F\d+|(import-check|audit-traffic) [a-z-]+): ", s.description) is not None
    ),
    "field-report": lambda s: s.name.startswith("field_"),
    "tool-id-reused": lambda s: len({c.call_id for c in _calls(s)}) < len(_calls(s)),
    "server-tools": lambda s: any(
        isinstance(p, ServerToolCallPart | ServerToolResultPart) for m in _assistants(s) for p in m.parts
    ),
    "sources": lambda s: any(isinstance(p, SourcePart) for m in _assistants(s) for p in m.parts),
    "cross-provider": lambda s: (
        bool(_added(s))
        or any(
            isinstance(p, ServerToolCallPart | ServerToolResultPart | SourcePart)
            for m in _assistants(s)
            for p in m.parts
        )
    ),
    "tool-availability": lambda s: (
        bool(_added(s))
        or any(t.allowed_callers for t in s.params.tools or [])
        or any(c.caller is not None for c in _calls(s))
    ),
}


def _added(s: Scenario) -> set[str]:
    """The tools the scenario's system messages add mid-conversation."""
    return {t.name for e in s.history if isinstance(e, SystemMessage) for t in e.added_tools or []}


def test_every_tag_has_a_check() -> None:
    derivable = {
        "plain",
        "images",
        "developer",
        "thinking",
        "interrupt",
        "tools",
        "tools-given",
        "tools-derived",
    }
    derivable |= {"system-in-params", "tool-strict", "tool-choice", "output-format", "real-tokens"}
    derivable |= {"call-controls", "cache-breakpoints", "server-state"}
    derivable |= set(NATIVE_TAG_FORMATS)
    assert set(TAG_CHECKS) | derivable == TAGS


@pytest.mark.parametrize("name", NAMES)
def test_every_tag_is_backed_by_the_data(name: str) -> None:
    s = CORPUS[name]
    missing = [tag for tag in s.tags if tag in TAG_CHECKS and not TAG_CHECKS[tag](s)]
    assert not missing, missing


def test_every_required_tag_is_covered() -> None:
    covered = {tag for s in CORPUS.values() for tag in s.tags}
    assert REQUIRED_TAGS <= TAGS == set(TAG_INFO)
    assert not REQUIRED_TAGS - covered, sorted(REQUIRED_TAGS - covered)


def test_long_ids_have_the_promised_lengths() -> None:
    lengths = sorted(len(c.call_id) for c in _calls(get_scenario("tool_call_id_too_long")))
    assert lengths == [64, 80]
