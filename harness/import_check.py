"""``harness import-check``: every accepted recorded request is evidence about our reference adapters.

For each HTTP 200 request of the five providers in some traffic, ``import_request``
reads it back into a canonical history and params; when it represents the request fully,
the reference adapter renders it for the same provider and model, and the render is
compared with the recorded body by JSON path (``harness.jsondiff.diff_json``). A difference
is accepted only by an entry of ``ALLOWLIST`` (id, provider, path pattern, why,
evidence); anything else is listed, per provider, as a difference beyond it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from harness.closed_loop import ALLOWLIST as LOOP_ALLOWLIST
from harness.importer import NATIVE_WIRE, PROVIDERS, import_request
from harness.jsondiff import Accepts, DiffContext, JsonAllowance, JsonDifference, diff_json
from harness.targets import get_target
from harness.traffic import load_traffic

__all__ = ["ALLOWLIST", "CheckedRequest", "ImportCheck", "check_traffic"]

#: Closed-loop allowances that hold for a single request too (defaults, shorthands, recorder
#: spellings); the loop's evidence is its own test suite (tests/test_closed_loop.py).
_FROM_LOOP = {
    "anthropic-tool-choice-auto",
    "anthropic-empty-tool-description",
    "anthropic-is-error-false",
    "anthropic-tool-result-string-content",
    "chat-tool-choice-auto",
    "chat-empty-tool-description",
    "chat-assistant-null-content",
    "responses-tool-choice-auto",
    "responses-null-tool-description",
    "responses-store-false",
    "responses-message-type",
    "responses-user-content-string",
    "responses-output-text-logprobs",
    "gemini-response-modalities-text",
    "gemini-snake-case-field",
    "gemini-signature-base64url",
    "gemini-function-response-key",
    "openrouter-stream-options",
    "openrouter-stream-false",
}


def _is(expected: Any) -> Accepts:
    """The one-sided value must be exactly ``expected`` (a default the other side left implicit)."""

    def accepts(recorded: Any, ours: Any, ctx: DiffContext) -> bool:
        value = recorded if recorded is not None else ours
        return type(value) is type(expected) and value == expected

    return accepts


def _is_null(recorded: Any, ours: Any, ctx: DiffContext) -> bool:
    return recorded is None and ours is None


def _camel_deep(value: Any) -> Any:
    if isinstance(value, dict):
        items = cast(dict[str, Any], value).items()
        return {re.sub(r"_([a-z])", lambda m: m.group(1).upper(), k): _camel_deep(v) for k, v in items}
    if isinstance(value, list):
        return [_camel_deep(v) for v in cast(list[Any], value)]
    return value


def _same_in_camel(recorded: Any, ours: Any, ctx: DiffContext) -> bool:
    """The same object once every snake_case key of the recorded one is spelled lowerCamel."""
    return isinstance(recorded, dict) and recorded != ours and _camel_deep(recorded) == ours


def _one_text_block(recorded: Any, ours: Any, ctx: DiffContext) -> bool:
    return isinstance(recorded, str) and ours == [{"type": "text", "text": recorded}]


ALLOWLIST: tuple[JsonAllowance, ...] = (
    *(a for a in LOOP_ALLOWLIST if a.id in _FROM_LOOP),
    *(
        JsonAllowance(
            f"{provider}-stream-false",
            provider,
            "stream",
            "stream: false is the API default; our adapter sends stream only when streaming",
            kind="missing",
            accepts=_is(False),
        )
        for provider in ("anthropic", "openai-chat", "openai-responses")
    ),
    JsonAllowance(
        "anthropic-system-string",
        "anthropic",
        "system",
        "a string system is shorthand for one text block (system is string | TextBlockParam[]); ours sends "
        "the same text as [{type: text}]",
        kind="changed",
        accepts=_one_text_block,
    ),
    JsonAllowance(
        "openrouter-tool-choice-auto",
        "openrouter",
        "tool_choice",
        "tool_choice 'auto' is the default when tools are given (OpenRouter follows the Chat Completions "
        "schema); CallParams has no tool_choice",
        kind="missing",
        accepts=_is("auto"),
    ),
    JsonAllowance(
        "openrouter-empty-tool-description",
        "openrouter",
        "tools[*].function.description",
        "an empty description is the same as none; our adapter omits empty descriptions",
        kind="missing",
        accepts=_is(""),
    ),
    JsonAllowance(
        "openrouter-reasoning-enabled",
        "openrouter",
        "reasoning.enabled",
        "reasoning.enabled: true is implied by reasoning.effort / max_tokens (OpenRouter reasoning docs); "
        "ours sends the effort alone",
        kind="missing",
        accepts=_is(True),
    ),
    JsonAllowance(
        "responses-include-encrypted",
        "openai-responses",
        "include",
        "with store: false (responses-store-false) our adapter asks for reasoning.encrypted_content so "
        "reasoning can be replayed statelessly; it changes what comes back, not what the request says",
        kind="extra",
        accepts=_is(["reasoning.encrypted_content"]),
    ),
    JsonAllowance(
        "responses-empty-instructions",
        "openai-responses",
        "instructions",
        "empty instructions are the same as none; our adapter omits them",
        kind="missing",
        accepts=_is(""),
    ),
    JsonAllowance(
        "responses-null-item-status",
        "openai-responses",
        "input[*].status",
        "status: null on a replayed item is the same as none",
        kind="missing",
        accepts=_is_null,
    ),
    JsonAllowance(
        "gemini-empty-generation-config",
        "gemini",
        "generationConfig",
        "an empty generationConfig is the same as none; our adapter omits it",
        kind="missing",
        accepts=_is({}),
    ),
    JsonAllowance(
        "gemini-system-instruction-role",
        "gemini",
        "systemInstruction.role",
        "the recording client labels systemInstruction with role 'user'; the role of a system instruction "
        "is not used (ours sends parts only, and our rendered requests are accepted without it)",
        kind="missing",
        accepts=_is("user"),
    ),
    *(
        JsonAllowance(
            f"gemini-snake-case-{where}",
            "gemini",
            path,
            "the recording client (google-genai) spelled proto fields snake_case; Gemini's JSON accepts "
            "snake_case and lowerCamel alike and ours sends lowerCamel; accepted only when the object is "
            "otherwise identical",
            kind="changed",
            accepts=_same_in_camel,
        )
        for where, path in (
            ("thinking-config", "generationConfig.thinkingConfig"),
            ("function-response", "contents[*].parts[*].functionResponse"),
            ("part", "contents[*].parts[*]"),
        )
    ),
)


@dataclass
class CheckedRequest:
    """One accepted request: where it is, what the importer could not hold, and the render's differences."""

    provider: str
    where: str
    unrepresented: list[str]
    differences: list[JsonDifference] = field(default_factory=list[JsonDifference])
    error: str | None = None

    @property
    def beyond(self) -> list[JsonDifference]:
        return [d for d in self.differences if d.allowed_by is None]

    @property
    def verdict(self) -> str:
        if self.error is not None:
            return "not-imported"
        if self.unrepresented:
            return "partial"
        if not self.differences:
            return "identical"
        return "beyond" if self.beyond else "allowed"


@dataclass
class ImportCheck:
    requests: list[CheckedRequest] = field(default_factory=list[CheckedRequest])
    skipped: dict[str, int] = field(default_factory=dict[str, int])

    def figures(self) -> dict[str, dict[str, int]]:
        """Per provider: accepted requests, imported, fully represented, identical, within and beyond the allowlist."""
        out: dict[str, dict[str, int]] = {}
        for provider in PROVIDERS:
            mine = [r for r in self.requests if r.provider == provider]
            verdicts = [r.verdict for r in mine]
            out[provider] = {
                "accepted": len(mine),
                "imported": sum(v != "not-imported" for v in verdicts),
                "represented": sum(v in ("identical", "allowed", "beyond") for v in verdicts),
                "identical": verdicts.count("identical"),
                "within_allowlist": verdicts.count("allowed"),
                "beyond_allowlist": verdicts.count("beyond"),
            }
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "figures": self.figures(),
            "skipped": dict(sorted(self.skipped.items())),
            "allowlist": [
                {"id": a.id, "provider": a.provider, "path": a.where, "why": a.why} for a in ALLOWLIST
            ],
            "beyond": [
                {"provider": r.provider, "where": r.where, "paths": sorted({d.path for d in r.beyond})}
                for r in self.requests
                if r.verdict == "beyond"
            ],
            "not_imported": [
                {"where": r.where, "error": r.error} for r in self.requests if r.error is not None
            ],
        }


def _check_one(provider: str, where: str, stem: str, body: Any, uri: str) -> CheckedRequest:
    try:
        imported = import_request(provider, body, uri=uri)
    except ValueError as exc:
        return CheckedRequest(provider, where, [], error=str(exc))
    checked = CheckedRequest(provider, where, imported.unrepresented)
    if imported.unrepresented:
        return checked
    rendered = get_target("reference").render(provider, imported.history, imported.params)
    checked.differences = diff_json(body, rendered.body, DiffContext(provider, stem), ALLOWLIST)
    return checked


def check_traffic(paths: Iterable[str | Path]) -> ImportCheck:
    """Import and render every accepted (HTTP 200) model request of the five providers under ``paths``."""
    result = ImportCheck()
    for call in load_traffic(paths):
        if call.route is None or call.problem is not None:
            continue
        if call.status != 200:
            continue
        provider, wire = call.route.provider, call.route.wire
        if NATIVE_WIRE.get(provider) != wire:
            key = f"{provider} over the {wire} format"
            result.skipped[key] = result.skipped.get(key, 0) + 1
            continue
        result.requests.append(_check_one(provider, call.where, Path(call.file).stem, call.body, call.uri))
    return result


def render_text(check: ImportCheck) -> str:
    """The figures as a table, then each request that differs beyond the allowlist with its paths."""
    cols = ("accepted", "imported", "represented", "identical", "within_allowlist", "beyond_allowlist")
    lines = ["provider          " + "  ".join(f"{c:>16}" for c in cols)]
    for provider, row in check.figures().items():
        lines.append(f"{provider:<18}" + "  ".join(f"{row[c]:>16}" for c in cols))
    for key, n in sorted(check.skipped.items()):
        lines.append(f"skipped: {n} request(s) of {key} (not read by the importer)")
    for r in check.requests:
        if r.verdict == "beyond":
            lines.append(
                f"{r.provider} {r.where}: beyond the allowlist: {', '.join(sorted({d.path for d in r.beyond}))}"
            )
    return "\n".join(lines)


def render_json(check: ImportCheck) -> str:
    return json.dumps(check.to_json(), indent=2, sort_keys=True, ensure_ascii=False)


def render_markdown(check: ImportCheck) -> str:
    """The figures table docs/audits/pydantic-ai-traffic.md shows (a test keeps it equal to a fresh run)."""
    lines = [
        "| provider | accepted | imported | fully represented | identical | within allowlist | beyond allowlist |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for provider, row in check.figures().items():
        share = f"{row['represented']} ({100 * row['represented'] // max(row['imported'], 1)}%)"
        lines.append(
            f"| {provider} | {row['accepted']} | {row['imported']} | {share} | {row['identical']} "
            f"| {row['within_allowlist']} | {row['beyond_allowlist']} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m harness.import_check PATH... [--json]``: the figures (exit 2 with one line on a missing path)."""
    import argparse
    import sys

    from harness.traffic import TrafficInputError

    parser = argparse.ArgumentParser(
        prog="python -m harness.import_check", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("paths", nargs="+", help="cassette files or directories")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--markdown", action="store_true", help="the figures table of the audit document")
    args = parser.parse_args(argv)
    try:
        check = check_traffic(args.paths)
    except TrafficInputError as exc:
        print(f"harness: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(render_json(check))
    else:
        print(render_markdown(check) if args.markdown else render_text(check))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
