"""import-check on the recorded traffic: the acceptance, the figures the audit shows, the allowlist's evidence.

Every accepted request of cassettes/ and traffic/ the importer represents fully renders
identical, within the allowlist, or open (an adapter change decided in
docs/import-check-decisions.md); the audit document's tables equal a fresh run; every
entry's cited requests exist and were accepted; each structural rewrite does what its
rule says; the command exits 1 beyond the allowlist.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from harness.accepted.registry import REGISTRY
from harness.cli.main import app
from harness.contract.accepted import Accepted
from harness.contract.rendered import Rendered
from harness.importcheck import shapes
from harness.importcheck.check import (
    CheckedRequest,
    ImportCheck,
    check_one,
    entries,
    render_markdown,
    render_unrepresented_markdown,
    unrepresented_counts,
)
from harness.importer import PROVIDERS
from harness.loop.jsondiff import JsonDifference
from harness.targets import get_target
from harness.traffic import load_traffic
from tests.support.traffic import import_check

ROOT = Path(__file__).resolve().parent.parent

#: Providers none of whose accepted requests the importer represents fully yet, with why: the
#: test fails once one is, so the exemption cannot outlive its reason.
NOTHING_REPRESENTED: dict[str, str] = {}


@pytest.fixture(scope="module")
def traffic_check() -> ImportCheck:
    return import_check()  # every traffic folder, as CI judges it (shared with test_accepted_needed)


def test_every_represented_request_renders_identical_or_within_the_allowlist_or_open(
    traffic_check: ImportCheck,
) -> None:
    """The acceptance: no difference beyond the allowlist; open ones name their decision."""
    beyond = [f"{r.where}: {sorted({d.path for d in r.beyond})}" for r in traffic_check.requests if r.beyond]
    assert beyond == []
    for request in traffic_check.requests:
        for difference in request.open:
            assert difference.allowed_by in {p.id for p in entries() if p.open}, request.where


def test_traffic_figures_are_consistent_and_match_the_audit_document(traffic_check: ImportCheck) -> None:
    for provider, row in traffic_check.figures().items():
        parts = ("identical", "within_allowlist", "open_adapter_change", "beyond_allowlist")
        assert sum(row[k] for k in parts) == row["represented"]
        assert row["accepted"] > 0, provider
        assert row["imported"] == row["accepted"], provider
        if provider in NOTHING_REPRESENTED:
            assert row["represented"] == 0, (
                f"{provider} is represented now: drop its NOTHING_REPRESENTED entry"
            )
            continue
        assert row["identical"] + row["within_allowlist"] > 0, provider
    document = (ROOT / "docs" / "audits" / "import-check.md").read_text(encoding="utf-8")
    hint = "re-run: harness import-check cassettes traffic --markdown (and the unrepresented list)"
    assert render_markdown(traffic_check) in document, hint
    assert render_unrepresented_markdown(traffic_check) in document, hint


def test_what_is_not_represented_is_counted_per_provider_never_skipped(traffic_check: ImportCheck) -> None:
    counts = unrepresented_counts(traffic_check.requests)
    for provider, row in traffic_check.figures().items():
        partial = [r for r in traffic_check.requests if r.provider == provider and r.verdict == "partial"]
        assert len(partial) == row["imported"] - row["represented"]
        assert all(r.unrepresented for r in partial)
        # every partial request contributes at least one named feature to its provider's counts
        assert sum(counts.get(provider, {}).values()) >= len(partial)


def test_an_open_difference_inside_a_node_a_structural_allowance_accepted_is_still_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Leading system messages -> instructions is allowed, but an open difference inside it stays open.

    A stand-in for a decided adapter gap (the output-format one, since fixed): a reference that
    drops ``text`` and a pending entry for that loss.
    """
    lost = Accepted(
        "test-text-format-dropped",
        judges=("import-check",),
        provider="openai-responses",
        where="text",
        diff="missing",
        kind="degrade",
        why="stand-in for an adapter that drops the output format",
        evidence=("none (test stand-in)",),
        still_needed="none (test stand-in)",
        open="output-format",
    )
    monkeypatch.setattr("harness.accepted.registry.REGISTRY", (*REGISTRY, lost))
    reference = get_target("reference")

    class Dropping:
        def render(self, provider: str, history: Any, params: Any) -> Rendered:
            body = reference.render(provider, history, params).body
            return Rendered({k: v for k, v in body.items() if k != "text"})

    def dropping(name: str) -> Dropping:
        return Dropping()

    monkeypatch.setattr("harness.importcheck.check.get_target", dropping)
    where = "traffic/pydantic-ai/models__test_openai_responses__test_prompted_output.yaml#0"
    call = next(c for c in load_traffic([ROOT / "traffic"]) if c.where.endswith(where))
    request = check_one("openai-responses", call.where, Path(call.file).stem, call.body, call.uri)
    assert "responses-leading-system-as-instructions" in {d.allowed_by for d in request.differences}
    assert {d.allowed_by for d in request.open} == {lost.id}
    assert request.verdict == "open"


_CITED = re.compile(r"((?:traffic|cassettes)/[^\s;,]+?\.yaml(?:\.gz)?)#(\d+)")


def _entries() -> list[Accepted]:
    """import-check's own entries (the closed loop's shared ones are evidenced by its tests)."""
    return [a for a in entries() if "closed-loop" not in a.judges]


@pytest.mark.parametrize("entry", _entries(), ids=lambda a: a.id)
def test_each_entry_states_evidence_and_its_cited_requests_were_accepted(entry: Accepted) -> None:
    assert entry.id and entry.provider in PROVIDERS and entry.where and entry.why and entry.evidence
    for file, index in _CITED.findall("; ".join(entry.evidence)):
        calls = {c.index: c for c in load_traffic([ROOT / file])}
        assert int(index) in calls, (entry.id, file, index)
        assert calls[int(index)].status == 200, (entry.id, file, index)


def test_each_pending_entry_has_its_decision_in_the_decisions_document() -> None:
    document = (ROOT / "docs" / "import-check-decisions.md").read_text(encoding="utf-8")
    anchors = set(re.findall(r'<a id="([a-z0-9-]+)"></a>', document))
    for pending in [e for e in entries() if e.open is not None]:
        assert pending.open in anchors, pending.id
        assert pending.id in document, pending.id


def test_import_check_command_exits_0_within_the_allowlist_and_1_beyond(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ok = CliRunner().invoke(app, ["import-check", str(ROOT / "cassettes")])
    assert ok.exit_code == 0, ok.output
    assert ok.stdout.startswith("provider")
    beyond = ImportCheck(
        [CheckedRequest("anthropic", "x.yaml#0", [], [JsonDifference("model", "changed", "a", "b")])]
    )

    def check(paths: list[Path]) -> ImportCheck:
        return beyond

    monkeypatch.setattr("harness.importcheck.check.check_traffic", check)
    failed = CliRunner().invoke(app, ["import-check", str(ROOT / "cassettes")])
    assert failed.exit_code == 1
    assert "x.yaml#0: beyond the allowlist: model" in failed.stdout


# ---------------------------------------------------------------- the structural rewrites

_SYS = {"role": "system", "content": "a"}
_USER = {"role": "user", "content": "u"}


_REWRITES: list[tuple[Callable[[Any], Any], Any, Any]] = [
    (
        shapes.join_leading_system,
        [_SYS, {"role": "system", "content": "b"}, _USER],
        [{"role": "system", "content": "a\n\nb"}, _USER],
    ),
    (shapes.join_leading_system, [_SYS, _USER], None),
    (
        shapes.merge_anthropic_user_turns,
        [_USER, {"role": "user", "content": [{"type": "text", "text": "v"}]}],
        [{"role": "user", "content": [{"type": "text", "text": "u"}, {"type": "text", "text": "v"}]}],
    ),
    (
        shapes.hoist_anthropic_system_messages,
        {"system": "s", "messages": [_USER, {"role": "system", "content": "later"}]},
        {
            "system": [{"type": "text", "text": "s"}, {"type": "text", "text": "later"}],
            "messages": [_USER],
        },
    ),
    (shapes.hoist_anthropic_system_messages, {"messages": [_USER]}, None),
    (
        shapes.hoist_chat_system_messages,
        [_SYS, _USER, {"role": "system", "content": "later"}],
        [{"role": "system", "content": "a\n\nlater"}, _USER],
    ),
    (shapes.hoist_chat_system_messages, [_SYS, _USER], None),
    (
        shapes.drop_unsigned_thoughts,
        [
            {"text": "t", "thought": True},
            {"text": "s", "thought": True, "thoughtSignature": "x"},
            {"text": "a"},
        ],
        [{"text": "s", "thought": True, "thoughtSignature": "x"}, {"text": "a"}],
    ),
    (shapes.drop_unsigned_thoughts, [{"text": "a"}], None),
    (
        shapes.drop_empty_assistant_items,
        [_USER, {"role": "assistant", "content": ""}, {"type": "function_call"}],
        [_USER, {"type": "function_call"}],
    ),
    (
        shapes.leading_system_to_instructions,
        {"input": [_SYS, {"role": "developer", "content": "b"}, _USER]},
        {"instructions": "a\n\nb", "input": [_USER]},
    ),
    (shapes.leading_system_to_instructions, {"instructions": "i", "input": [_USER]}, None),
]


@pytest.mark.parametrize(("rewrite", "recorded", "expected"), _REWRITES)
def test_each_structural_rewrite_does_what_its_rule_says_and_only_when_it_applies(
    rewrite: Callable[[Any], Any], recorded: Any, expected: Any
) -> None:
    result = rewrite(recorded)
    if expected is None:
        assert result is None or result == recorded
    else:
        assert result == expected
