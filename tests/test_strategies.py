"""The history strategies: what they generate is valid, keeps its contract, covers the shapes agent
loops produce, shrinks to small examples, and never makes a reference request adapter raise."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from contextlib import suppress
from functools import cache
from itertools import pairwise

import pytest
from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample
from pydantic import TypeAdapter

from harness.codec import dumps_history, loads_history
from harness.contract.rendered import RenderWarning, canonical_json
from harness.model import (
    AssistantMessage,
    DeveloperMessage,
    HistoryEvent,
    ImageURLPart,
    TextPart,
    ThinkingSignaturePart,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)
from harness.params import CallParams, ThinkingParams, ToolSpec
from harness.providers import PROVIDERS, get_adapter
from harness.strategies import (
    NASTY_TEXT,
    adversarial_histories,
    agent_loops,
    loop_contract_violations,
    well_formed_turn,
)

HISTORY: TypeAdapter[list[HistoryEvent]] = TypeAdapter(list[HistoryEvent])
PARAMS = (
    CallParams(),
    CallParams(
        model="test-model",
        system="You are terse.",
        tools=[ToolSpec(name="bash"), ToolSpec(name="read")],
        max_tokens=4096,
        thinking=ThinkingParams(budget_tokens=2048, effort="low"),
    ),
)
FORMATS = {
    "anthropic": {"anthropic", "anthropic-redacted"},
    "gemini": {"google"},
    "openai-chat": set[str](),
    "openai-responses": {"openai-responses"},
    "openrouter": {"anthropic-claude-v1", "openai-responses-v1", "google-gemini-v1"},
}


def revalidated(history: list[HistoryEvent]) -> list[HistoryEvent]:
    """The history rebuilt from its plain-data form: what a history file would give back."""
    return HISTORY.validate_python(HISTORY.dump_python(history))


# ---------------------------------------------------------------- valid and contract-keeping


@given(agent_loops())
def test_agent_loops_validate_and_keep_their_contract(history: list[HistoryEvent]) -> None:
    assert revalidated(history) == history
    assert loads_history(dumps_history(history)) == history
    assert loop_contract_violations(history) == []


@pytest.mark.parametrize("provider", sorted(FORMATS))
@given(data=st.data())
def test_agent_loops_speak_the_chosen_provider_format(provider: str, data: st.DataObject) -> None:
    history = data.draw(agent_loops(provider), label="history")
    formats = {
        p.format
        for e in history
        if isinstance(e, AssistantMessage)
        for p in e.parts
        if isinstance(p, ThinkingSignaturePart)
    }
    assert formats <= FORMATS[provider]
    if provider == "openai-responses":
        calls = [
            p
            for e in history
            if isinstance(e, AssistantMessage)
            for p in e.parts
            if isinstance(p, ToolCallPart)
        ]
        assert all(c.item_id for c in calls)


@given(data=st.data())
def test_a_well_formed_turn_only_appends_and_keeps_the_contract(data: st.DataObject) -> None:
    history = data.draw(agent_loops(max_turns=2), label="history")
    longer = list(history)
    for _ in range(data.draw(st.integers(1, 3), label="turns")):
        turn = data.draw(well_formed_turn(longer), label="turn")
        assert turn
        longer = [*longer, *turn]
    assert longer[: len(history)] == history
    assert revalidated(longer) == longer
    assert loop_contract_violations(longer, finished=False) == []


@given(adversarial_histories())
def test_adversarial_histories_are_valid_model_objects(history: list[HistoryEvent]) -> None:
    assert revalidated(history) == history


def test_the_contract_check_catches_what_it_states() -> None:
    call = ToolCallPart(call_id="c1", tool_name="bash", arguments_json="{}")
    asked = AssistantMessage(parts=[call], stop_reason="tool_use")
    user = UserMessage(parts=[TextPart(text="hi")])
    answer = ToolResultMessage(call_id="c1", tool_name="bash", status="success", output_text="ok")
    assert loop_contract_violations([user, asked, answer]) == []
    assert loop_contract_violations([user, asked]) != []
    assert loop_contract_violations([user, asked], finished=False) == []
    assert loop_contract_violations([user, asked, user]) != []  # a user message before the result
    assert loop_contract_violations([user, asked, answer, answer]) != []  # answered twice
    assert loop_contract_violations([user, asked, answer.model_copy(update={"tool_name": "read"})]) != []
    aborted = asked.model_copy(update={"stop_reason": "aborted"})
    assert loop_contract_violations([user, aborted, user]) == []  # an interrupted call stays unanswered


# ---------------------------------------------------------------- coverage of the shapes, and shrinking


def _met(
    strategy: st.SearchStrategy[list[HistoryEvent]],
    shapes: Mapping[str, Callable[[list[HistoryEvent]], bool]],
) -> frozenset[str]:
    """The shapes ``strategy`` produces a history of within a few hundred tries (400 draws at most).

    One search for every shape of the table, stopping once each is met: each shape gets as
    many draws, from the same distribution, as a search of its own had, since a search's draws
    do not depend on what it looks for (generate phase only, no shrinking, no example database).
    """
    met: set[str] = set()

    def all_met(history: list[HistoryEvent]) -> bool:
        met.update(name for name, shape in shapes.items() if name not in met and shape(history))
        return len(met) == len(shapes)

    with suppress(NoSuchExample):  # some shape never met within the budget: its test fails
        find(strategy, all_met, settings=settings(max_examples=400, phases=[Phase.generate], database=None))
    return frozenset(met)


def _parallel_calls(h: list[HistoryEvent]) -> bool:
    return any(
        isinstance(e, AssistantMessage) and sum(isinstance(p, ToolCallPart) for p in e.parts) > 1 for e in h
    )


def _shuffled_results(h: list[HistoryEvent]) -> bool:
    for n, event in enumerate(h):
        if isinstance(event, AssistantMessage):
            calls = [p.call_id for p in event.parts if isinstance(p, ToolCallPart)]
            results = [e.call_id for e in h[n + 1 : n + 1 + len(calls)] if isinstance(e, ToolResultMessage)]
            if len(calls) > 1 and sorted(results) == sorted(calls) and results != calls:
                return True
    return False


def _developer_after(kind: type[object]) -> Callable[[list[HistoryEvent]], bool]:
    return lambda h: any(isinstance(a, kind) and isinstance(b, DeveloperMessage) for a, b in pairwise(h))


SHAPES: dict[str, Callable[[list[HistoryEvent]], bool]] = {
    "parallel tool calls": _parallel_calls,
    "results out of call order": _shuffled_results,
    "developer after a user message": _developer_after(UserMessage),
    "developer after a tool result": _developer_after(ToolResultMessage),
    "interrupted step": lambda h: any(
        isinstance(e, AssistantMessage) and e.stop_reason == "aborted" for e in h
    ),
    "interrupted tool": lambda h: any(isinstance(e, ToolResultMessage) and e.status == "aborted" for e in h),
    "dangling call of an interrupted step": lambda h: any(
        isinstance(e, AssistantMessage)
        and e.stop_reason == "aborted"
        and any(isinstance(p, ToolCallPart) for p in e.parts)
        for e in h
    ),
    "image in a user message": lambda h: any(
        isinstance(e, UserMessage) and any(isinstance(p, ImageURLPart) for p in e.parts) for e in h
    ),
    "image in a tool result": lambda h: any(isinstance(e, ToolResultMessage) and e.parts for e in h),
    "thinking pair": lambda h: any(
        isinstance(e, AssistantMessage) and any(isinstance(p, ThinkingSignaturePart) for p in e.parts)
        for e in h
    ),
}


@cache
def _agent_shapes_met() -> frozenset[str]:
    return _met(agent_loops(), SHAPES)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_agent_loops_cover_the_agent_shapes(shape: str) -> None:
    assert shape in _agent_shapes_met()


def _duplicate_call_ids(h: list[HistoryEvent]) -> bool:
    ids = [
        p.call_id
        for e in h
        if isinstance(e, AssistantMessage)
        for p in e.parts
        if isinstance(p, ToolCallPart)
    ]
    return len(ids) != len(set(ids))


ADVERSARIAL: dict[str, Callable[[list[HistoryEvent]], bool]] = {
    "developer first": lambda h: bool(h) and isinstance(h[0], DeveloperMessage),
    "developer after an assistant": _developer_after(AssistantMessage),
    "duplicate call ids": _duplicate_call_ids,
    "dangling call": lambda h: bool(loop_contract_violations(h)),
    "mixed signature formats": lambda h: (
        len(
            {
                p.format
                for e in h
                if isinstance(e, AssistantMessage)
                for p in e.parts
                if isinstance(p, ThinkingSignaturePart)
            }
        )
        > 1
    ),
    "empty parts": lambda h: any(isinstance(e, UserMessage | AssistantMessage) and not e.parts for e in h),
}


@pytest.mark.parametrize("shape", sorted(ADVERSARIAL))
@pytest.mark.filterwarnings("ignore:Generating overly large repr")  # the >100k-character texts
def test_adversarial_histories_cover_the_hostile_shapes(shape: str) -> None:
    assert shape in _adversarial_shapes_met()


@cache
def _adversarial_shapes_met() -> frozenset[str]:
    return _met(adversarial_histories(), ADVERSARIAL)


def test_a_failure_shrinks_to_a_small_readable_history() -> None:
    """A property failing on duplicate call ids shrinks to a history of a few short events."""
    smallest = find(
        adversarial_histories(),
        _duplicate_call_ids,
        settings=settings(database=None, max_examples=2000, derandomize=True),
    )
    assert len(smallest) <= 4, smallest
    assert len(json.dumps(HISTORY.dump_python(smallest, mode="json", exclude_none=True))) < 600


def test_nasty_text_is_valid_text() -> None:
    assert all(isinstance(t, str) and t for t in NASTY_TEXT)


# ---------------------------------------------------------------- the reference adapters never raise


def _render_checked(provider: str, history: list[HistoryEvent], params: CallParams) -> None:
    rendered = get_adapter(provider).render(history, params)
    body = rendered.body
    assert isinstance(body, dict)
    assert json.loads(json.dumps(body)) == body  # JSON-serializable, nothing but JSON types
    assert canonical_json(body) == canonical_json(get_adapter(provider).render(history, params).body)
    assert all(isinstance(w, RenderWarning) for w in rendered.warnings)


def _render_checked_everywhere(history: list[HistoryEvent], params: CallParams) -> None:
    """``_render_checked`` by every provider's adapter, each failing provider named.

    One draw for all adapters: the strategies do not depend on the provider, and under the
    derandomized profile a test parametrized by provider drew the same examples once per provider.
    """
    failed: dict[str, str] = {}
    for provider in PROVIDERS:
        try:
            _render_checked(provider, history, params)
        except Exception as exc:  # every adapter is judged; the failure names each that failed
            failed[provider] = f"{type(exc).__name__}: {exc}"
    assert not failed, failed


@given(history=adversarial_histories(), params=st.sampled_from(PARAMS))
def test_adapters_render_adversarial_histories_without_raising(
    history: list[HistoryEvent], params: CallParams
) -> None:
    _render_checked_everywhere(history, params)


@given(history=agent_loops(), params=st.sampled_from(PARAMS))
def test_adapters_render_agent_loops_without_raising(history: list[HistoryEvent], params: CallParams) -> None:
    _render_checked_everywhere(history, params)


LONG = "字🙂" * 50_001  # > 100k characters


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize(
    "nasty", [*NASTY_TEXT, LONG], ids=[*(repr(t)[1:-1][:12] for t in NASTY_TEXT), "long"]
)
def test_adapters_render_each_nasty_text(provider: str, nasty: str) -> None:
    """Each hostile text in every role, rendered: the adversarial family draws these only sparingly."""
    history: list[HistoryEvent] = [
        UserMessage(parts=[TextPart(text=nasty)]),
        AssistantMessage(parts=[TextPart(text=nasty)], stop_reason="stop"),
        DeveloperMessage(parts=[TextPart(text=nasty)]),
        AssistantMessage(
            parts=[ToolCallPart(call_id="c1", tool_name="bash", arguments_json="{}")], stop_reason="tool_use"
        ),
        ToolResultMessage(call_id="c1", tool_name="bash", status="success", output_text=nasty),
    ]
    _render_checked(provider, history, PARAMS[1])


def _png_chunks_valid(raw: bytes) -> bool:
    """Every PNG chunk's CRC holds and the IDAT stream inflates (a decodable image, not a bare header)."""
    import struct
    import zlib

    pos, idat, kinds = 8, b"", list[bytes]()
    while pos < len(raw):
        (length,) = struct.unpack(">I", raw[pos : pos + 4])
        kind, data = raw[pos + 4 : pos + 8], raw[pos + 8 : pos + 8 + length]
        (crc,) = struct.unpack(">I", raw[pos + 8 + length : pos + 12 + length])
        if zlib.crc32(kind + data) != crc:
            return False
        kinds.append(kind)
        idat += data if kind == b"IDAT" else b""
        pos += 12 + length
    return kinds[0] == b"IHDR" and kinds[-1] == b"IEND" and len(zlib.decompress(idat)) > 0


def test_generated_images_are_real_decodable_images() -> None:
    import base64

    from harness.strategies import TINY_IMAGES

    raw = {mime: base64.b64decode(data, validate=True) for mime, data in TINY_IMAGES.items()}
    assert set(raw) == {"image/png", "image/jpeg", "image/gif", "image/webp"}
    assert raw["image/png"].startswith(b"\x89PNG\r\n\x1a\n") and _png_chunks_valid(raw["image/png"])
    assert raw["image/jpeg"][:3] == b"\xff\xd8\xff" and raw["image/jpeg"].endswith(b"\xff\xd9")
    assert raw["image/gif"][:6] == b"GIF89a" and raw["image/gif"].endswith(b";")
    webp = raw["image/webp"]
    assert (
        webp[:4] == b"RIFF" and webp[8:12] == b"WEBP" and int.from_bytes(webp[4:8], "little") == len(webp) - 8
    )
