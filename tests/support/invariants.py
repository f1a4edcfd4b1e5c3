"""Test-side helpers for the invariant suites: well-formed agent loops, and deliberately broken targets.

``agent_loops(provider)`` builds the histories an agent CLI really persists: a user
question, then rounds of one assistant message per call (usage and stop reason set,
thinking native to the provider's model, tool calls with unique ids) answered by their
tool results, with developer reminders and interrupts in between. Every assistant
message that can be is *representable* by ``harness.emit`` for that provider (usage
fields, ids and signature formats as the provider's stream carries them), so the
stream round trips run on them.

``Mutant`` wraps the reference target and breaks one thing (the history it renders,
the body it returns, or its stream parser), so each invariant is shown to fail.
"""

from __future__ import annotations

import base64
import copy
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from harness.codec import dumps_history
from harness.contract.chunking import Chunking
from harness.contract.rendered import Rendered
from harness.invariants import Violation, run_invariants
from harness.invariants.base import Continuation
from harness.invariants.continuation import next_turn as default_next_turn
from harness.model import (
    AnyPart,
    AssistantMessage,
    DeveloperMessage,
    ErrorEvent,
    FilePart,
    HistoryEvent,
    ImageFilePart,
    ImageURLPart,
    StopReason,
    SystemMessage,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    ToolStatus,
    Usage,
    UserMessage,
)
from harness.params import CallParams, ThinkingParams, ToolSpec
from harness.providers import PROVIDERS
from harness.providers.replay import Exchange
from harness.stream.base import CallResult
from harness.targets import Target, get_target

__all__ = [
    "KNOWN_FINDINGS",
    "MODELS",
    "REFERENCE",
    "Finding",
    "Mutant",
    "agent_loops",
    "assert_holds",
    "assert_holds_everywhere",
    "distinct_text",
    "unexplained",
]

REFERENCE: Target = get_target("reference")

#: Models the loops are rendered for; thinking parts carry the same model_id, so they are native.
MODELS: dict[str, tuple[str, ...]] = {
    "anthropic": ("claude-sonnet-4-5",),
    "gemini": ("gemini-2.5-flash", "gemini-3-pro-preview"),
    "openai-chat": ("gpt-4.1-mini",),
    "openai-responses": ("gpt-5",),
    "openrouter": ("anthropic/claude-sonnet-4.5", "openai/gpt-5"),
    "bedrock": ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", "us.amazon.nova-pro-v1:0"),
    # the OpenAI-compatible dialects: a thinking model where there is one
    "mistral": ("mistral-large-latest",),
    "groq": ("openai/gpt-oss-120b",),
    "deepseek": ("deepseek-v4-flash", "deepseek-reasoner"),
    "cerebras": ("zai-glm-4.7",),
    "zai": ("glm-4.7",),
    "huggingface": ("deepseek-ai/DeepSeek-R1",),
    "cohere": ("command-a-reasoning-08-2025", "command-r7b-12-2024"),
}
TOOL_NAMES = ("read", "bash", "search")
PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"

#: Short text with non-ASCII; every generated text also gets a unique label, so checks can find it.
_snippets = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=0, max_size=10
)


def distinct_text(label: str, n: int, extra: str = "") -> str:
    return f"{label} {n}{': ' + extra if extra else ''}"


def _compact(arguments: dict[str, Any]) -> str:
    return json.dumps(arguments, separators=(",", ":"), ensure_ascii=False)


class _Loop:
    """Builds one history; ``n`` numbers every generated string so each is unique."""

    def __init__(self, draw: st.DrawFn, provider: str, model: str) -> None:
        self.draw, self.provider, self.model = draw, provider, model
        self.n = 0
        self.history: list[HistoryEvent] = []

    def next(self) -> int:
        self.n += 1
        return self.n

    def text(self, label: str) -> str:
        return distinct_text(label, self.next(), self.draw(_snippets))

    def usage(self, reasoning: bool) -> Usage:
        draw = self.draw
        i, o = draw(st.integers(0, 5000)), draw(st.integers(0, 2000))
        if self.provider in ("anthropic", "bedrock"):  # both report no total; input includes cache reads
            cached = draw(st.integers(0, i))
            written = draw(st.integers(0, i - cached))
            return Usage(
                input_tokens=i,
                output_tokens=o,
                cached_input_tokens=cached,
                cache_creation_input_tokens=written,
            )
        if self.provider == "cohere":  # input, output and cached tokens; no total (harness.emit.cohere)
            cached = draw(st.integers(0, i))
            return Usage(input_tokens=i, output_tokens=o, cached_input_tokens=cached or None)
        r = draw(st.integers(0, o)) if reasoning else 0
        if self.provider == "gemini":
            return Usage(input_tokens=i, output_tokens=o, reasoning_tokens=r or None, total_tokens=i + o)
        if self.provider == "openai-responses":
            cached = draw(st.integers(0, i))
            return Usage(
                input_tokens=i,
                output_tokens=o,
                cached_input_tokens=cached,
                reasoning_tokens=r,
                total_tokens=i + o,
            )
        return Usage(input_tokens=i, output_tokens=o, total_tokens=i + o)

    def thinking(self) -> list[AnyPart]:
        """One native reasoning unit as the provider's stream carries it (none for Chat, which has no signatures)."""
        n, text = self.next(), self.text("thinking about the task")
        m = self.model
        if self.provider == "anthropic":
            if self.draw(st.booleans()):
                return [
                    ThinkingTextPart(text=text, model_id=m),
                    ThinkingSignaturePart(signature=f"EqsBsig{n}Anthropic==", model_id=m, format="anthropic"),
                ]
            return [
                ThinkingSignaturePart(signature=f"redacted{n}data", model_id=m, format="anthropic-redacted")
            ]
        if self.provider == "bedrock":
            sig = base64.b64encode(f"bedrock-{n}".encode()).decode()
            if self.draw(st.booleans()):
                return [
                    ThinkingTextPart(text=text, model_id=m),
                    ThinkingSignaturePart(signature=sig, model_id=m, format="bedrock"),
                ]
            return [ThinkingSignaturePart(signature=sig, model_id=m, format="bedrock-redacted")]
        if self.provider == "gemini":
            sig = base64.b64encode(f"gemini-thought-{n}".encode()).decode()
            return [
                ThinkingTextPart(text=text, model_id=m),
                ThinkingSignaturePart(signature=sig, model_id=m, format="google"),
            ]
        if self.provider == "openai-responses":
            rid = f"rs_{n:04d}"
            return [
                ThinkingTextPart(id=rid, text=text, model_id=m),
                ThinkingSignaturePart(
                    id=rid, signature=f"gAAAAenc{n}", model_id=m, format="openai-responses"
                ),
            ]
        if self.provider == "openrouter":
            if m.startswith("anthropic/"):
                return [
                    ThinkingTextPart(text=text, model_id=m),
                    ThinkingSignaturePart(signature=f"EqsBor{n}", model_id=m, format="anthropic-claude-v1"),
                ]
            rid = f"rs_{n:04d}"
            return [
                ThinkingTextPart(id=rid, text=text, model_id=m),
                ThinkingSignaturePart(
                    id=rid, signature=f"gAAAAor{n}", model_id=m, format="openai-responses-v1"
                ),
            ]
        if self.provider == "cohere":  # unsigned, and its stream names no model (harness.emit.cohere)
            return [ThinkingTextPart(text=text)]
        return [ThinkingTextPart(text=text, model_id=m)]

    def foreign_thinking(self) -> list[AnyPart]:
        """Thinking another provider signed: it must be dropped, never sent as native or as text."""
        n = self.next()
        other = "openai-responses" if self.provider == "anthropic" else "anthropic"
        return [
            ThinkingTextPart(text=self.text("foreign reasoning to be dropped"), model_id="some-other-model"),
            ThinkingSignaturePart(
                signature=f"ForeignSignature{n}xyz", model_id="some-other-model", format=other
            ),
        ]

    def call(self) -> ToolCallPart:
        n = self.next()
        style = self.draw(st.sampled_from(["plain", "plain", "plain", "kimi", "long"]))
        call_id = {"plain": f"call_{n}", "kimi": f"functions.read:{n}", "long": f"call_{n}_" + "x" * 70}[
            style
        ]
        arguments = _compact({"path": f"file{n}.py", "note": self.draw(_snippets)})
        item_id = f"fc_{n:04d}" if self.provider == "openai-responses" else None
        return ToolCallPart(
            call_id=call_id,
            tool_name=self.draw(st.sampled_from(TOOL_NAMES)),
            arguments_json=arguments,
            item_id=item_id,
        )

    def assistant(self, *, calls: int, aborted: bool = False) -> AssistantMessage:
        draw = self.draw
        parts: list[AnyPart] = []
        reasoning = draw(st.booleans())
        if reasoning:
            parts += self.thinking()
        if draw(st.integers(0, 9)) == 0:
            parts = self.foreign_thinking() + parts
        if calls == 0 or draw(st.booleans()):
            parts.append(TextPart(text=self.text("assistant says")))
        tool_calls = [self.call() for _ in range(calls)]
        parts += tool_calls
        if self.provider == "gemini" and tool_calls and draw(st.booleans()):
            sig = base64.b64encode(f"gemini-call-{self.next()}".encode()).decode()
            parts.append(ThinkingSignaturePart(signature=sig, model_id=self.model, format="google"))
        stop: StopReason = (
            "aborted"
            if aborted
            else "tool_use"
            if calls
            else draw(st.sampled_from(["stop", "stop", "length"]))
        )
        n = self.next()
        return AssistantMessage(
            id=f"msg_{n:04d}" if draw(st.booleans()) else None,
            response_id=f"resp_{n:04d}",
            parts=parts,
            usage=self.usage(reasoning),
            stop_reason=stop,
        )

    def user(self) -> UserMessage:
        parts: list[TextPart | ImageURLPart] = [TextPart(text=self.text("user asks"))]
        if self.draw(st.integers(0, 5)) == 0:
            parts.append(ImageURLPart(url=PNG))
        return UserMessage(parts=list(parts))

    def developer(self) -> DeveloperMessage:
        n = self.next()
        ui = self.draw(st.booleans())
        return DeveloperMessage(
            parts=[TextPart(text=self.text("developer reminder"))],
            command_output=f"UI-ONLY command output {n}" if ui else None,
            at_files=[f"ui/only/attached_{n}.py"] if ui else None,
            ui_extra={"panel": f"ui-only-panel-{n}"} if ui else None,
        )

    def results(self, calls: list[ToolCallPart]) -> list[HistoryEvent]:
        draw = self.draw
        results: list[HistoryEvent] = []
        for call in calls:
            status: ToolStatus = draw(st.sampled_from(["success", "success", "success", "error", "aborted"]))
            output = "" if draw(st.integers(0, 9)) == 0 else self.text(f"output of {call.tool_name}")
            images: list[ImageURLPart | ImageFilePart | FilePart] = (
                [ImageURLPart(url=PNG)] if draw(st.integers(0, 9)) == 0 else []
            )
            results.append(
                ToolResultMessage(
                    call_id=call.call_id,
                    tool_name=call.tool_name,
                    status=status,
                    output_text=output,
                    parts=images,
                )
            )
        if len(results) > 1 and draw(st.booleans()):
            results.reverse()  # completion order, not call order
        return results


@st.composite
def agent_loops(draw: st.DrawFn, provider: str) -> tuple[list[HistoryEvent], CallParams]:
    """A well-formed agent loop for ``provider`` and the params it is rendered with."""
    model = draw(st.sampled_from(MODELS[provider]))
    loop = _Loop(draw, provider, model)
    history = loop.history
    if draw(st.booleans()):
        history.append(SystemMessage(parts=[TextPart(text=loop.text("system rules"))]))
    history.append(loop.user())
    if draw(st.booleans()):
        history.append(loop.developer())
    for _ in range(draw(st.integers(1, 4))):
        calls = draw(st.integers(0, 3))
        interrupt = draw(st.integers(0, 7)) == 0
        message = loop.assistant(calls=calls, aborted=interrupt)
        history.append(message)
        tool_calls = [p for p in message.parts if isinstance(p, ToolCallPart)]
        if interrupt:  # the user pressed Ctrl+C: dangling calls, then a new question
            history.append(loop.user())
            continue
        if tool_calls:
            history += loop.results(tool_calls)
        else:
            if draw(st.integers(0, 5)) == 0:
                history.append(ErrorEvent(error_message=loop.text("stream error")))
            if draw(st.integers(0, 4)) == 0:
                history.append(loop.developer())  # right after an assistant: its own user message
            history.append(loop.user())
        if draw(st.integers(0, 2)) == 0:
            history.append(loop.developer())
    system = loop.text("params system") if draw(st.booleans()) else None
    names = sorted(
        {
            p.tool_name
            for e in history
            if isinstance(e, AssistantMessage)
            for p in e.parts
            if isinstance(p, ToolCallPart)
        }
    )
    tools = (
        [ToolSpec(name=name, description=f"The {name} tool.") for name in names]
        if draw(st.booleans())
        else None
    )
    thinking = ThinkingParams(budget_tokens=2048) if draw(st.booleans()) else None
    params = CallParams(model=model, system=system, tools=tools, thinking=thinking, max_tokens=8192)
    return history, params


# ---------------------------------------------------------------- broken targets

HistoryMutation = Callable[[str, list[HistoryEvent]], list[HistoryEvent]]
BodyMutation = Callable[[str, dict[str, Any]], None]
ReplayMutation = Callable[[str, CallResult, Chunking], CallResult]


@dataclass
class Mutant:
    """The reference target with one thing broken: what it renders, the body it returns, or what it parses."""

    name: str = "mutant"
    version: str | None = None
    lacks: frozenset[str] = frozenset()
    history: HistoryMutation | None = None
    body: BodyMutation | None = None
    parsed: ReplayMutation | None = None

    def providers(self) -> Sequence[str]:
        return PROVIDERS

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        events = list(history)
        if self.history is not None:
            events = self.history(provider, events)
        rendered = REFERENCE.render(provider, events, params)
        body = copy.deepcopy(rendered.body)
        if self.body is not None:
            self.body(provider, body)
        return Rendered(body, list(rendered.warnings))

    def replay(self, provider: str, exchange: Exchange, chunk_size: Chunking = None) -> CallResult:
        result = REFERENCE.replay(provider, exchange, chunk_size)
        return self.parsed(provider, result, chunk_size) if self.parsed is not None else result


# ---------------------------------------------------------------- known findings in the reference adapters


@dataclass(frozen=True)
class Finding:
    """A violation the reference adapters are known to have; each has a strict-xfail test with its example.

    Property tests ignore violations a finding explains, so they keep guarding everything
    else; when the adapter is fixed, the finding's xfail test passes (XPASS, a failure),
    and the entry must be deleted here.
    """

    id: str
    summary: str
    matches: Callable[[Sequence[HistoryEvent], str, Violation], bool]


#: Findings of the invariants on the reference adapters that await their fix, each with a matcher
#: (empty: every one found so far is fixed and kept as a regression test in test_invariants_findings.py).
KNOWN_FINDINGS: tuple[Finding, ...] = ()


def unexplained(
    history: Sequence[HistoryEvent], provider: str, violations: Sequence[Violation]
) -> list[Violation]:
    """The violations no known finding explains."""
    return [v for v in violations if not any(f.matches(history, provider, v) for f in KNOWN_FINDINGS)]


def assert_holds(
    history: Sequence[HistoryEvent],
    params: CallParams,
    provider: str,
    invariants: Sequence[str],
    target: Target | None = None,
    next_turn: Continuation | None = None,
) -> None:
    """Run the invariants on one provider and fail with the report unless every violation is a known finding."""
    assert_holds_everywhere(history, params, [provider], invariants, target, next_turn)


def assert_holds_everywhere(
    history: Sequence[HistoryEvent],
    params: CallParams,
    providers: Sequence[str],
    invariants: Sequence[str],
    target: Target | None = None,
    next_turn: Continuation | None = None,
) -> None:
    """``assert_holds`` for each of ``providers`` on one history, every failing provider named.

    For a strategy that does not depend on the provider: under the derandomized profile a
    test parametrized by provider drew the same examples once per provider, so Hypothesis's
    drawing was repeated for nothing; one draw judged by every adapter makes the same
    judgements. A violation of the history itself (no provider) fails unless a known finding
    explains it for every provider.
    """
    report = run_invariants(
        history,
        params,
        target=target,
        providers=list(providers),
        invariants=invariants,
        next_turn=next_turn or default_next_turn,
    )
    left = [
        v
        for v in report.violations
        if any(unexplained(history, p, [v]) for p in ([v.provider] if v.provider else providers))
    ]
    assert not left, "\n".join(f"{v}\n    example: {v.example}" for v in left) + "\n" + dumps_history(history)
