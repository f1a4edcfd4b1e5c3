"""The registry of accepted differences (``harness.accepted``): one shape, one match form, every
entry argued for and naming the test that fails when it is no longer needed."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import get_args

import pytest

from harness.accepted.predicates import PREDICATES, matches, value_is
from harness.accepted.registry import REGISTRY, for_judge
from harness.contract.accepted import JUDGES, Accepted, Seen, Tolerance, glob
from harness.contract.providers import PROVIDERS
from harness.oracles.allowances import json_path

ROOT = Path(__file__).resolve().parent.parent

#: What each judge compares, so what may differ at a path for it.
DIFFS_OF = {
    "oracle": {"spec-error", "sdk-error", "absent"},
    "closed-loop": {"missing", "extra", "changed"},
    "import-check": {"missing", "extra", "changed"},
}
#: Predicates a judge evaluates itself (``extra``), and the judges that may use them.
JUDGE_PREDICATES = {"restructured": {"import-check"}}


def _test_functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}


def missing_test(ref: str) -> bool:
    """``path::function`` names no test function that exists."""
    file, _, function = ref.partition("::")
    path = ROOT / file
    return not path.is_file() or function not in _test_functions(path)


def problems(entry: Accepted) -> list[str]:
    """What is wrong with an entry's shape (empty: well formed)."""
    found: list[str] = []
    if entry.provider not in PROVIDERS:
        found.append(f"unknown provider {entry.provider}")
    if not entry.judges or not set(entry.judges) <= set(JUDGES):
        found.append(f"judges {entry.judges}")
    if any(entry.diff not in DIFFS_OF[j] for j in entry.judges if j in DIFFS_OF):
        found.append(f"diff {entry.diff} for {entry.judges}")
    if entry.kind not in get_args(Tolerance) or (entry.kind == "oracle-lag") != ("oracle" in entry.judges):
        found.append(f"kind {entry.kind}: an oracle's entry is oracle-lag, and only an oracle's")
    if not entry.where or entry.where == "*":
        found.append("no where")
    glob(entry.where)
    for predicate in entry.when:
        judges = JUDGE_PREDICATES.get(predicate.name)
        if predicate.name not in PREDICATES and not (judges and set(entry.judges) <= judges):
            found.append(f"predicate {predicate.name} has no implementation for {entry.judges}")
    if entry.diff == "absent" and entry.default is None:
        found.append("an absent entry fills in no default")
    if len(entry.why.split()) < 5:
        found.append("why says too little")
    if not entry.evidence and "closed-loop" not in entry.judges:
        found.append("no evidence (only the closed loop's entries are evidenced by the corpus alone)")
    if missing_test(entry.still_needed):
        found.append(f"still_needed names no test: {entry.still_needed}")
    if entry.open is not None and entry.judges != ("import-check",):
        found.append("only import-check has open entries")
    return found


@pytest.mark.parametrize("entry", REGISTRY, ids=[f"{e.id}-{e.diff}" for e in REGISTRY])
def test_every_entry_is_well_formed_and_names_its_still_needed_test(entry: Accepted) -> None:
    assert problems(entry) == []


def test_a_malformed_entry_is_caught() -> None:
    entry = REGISTRY[0]
    assert problems(dataclasses.replace(entry, still_needed="tests/test_oracles.py::test_gone")) != []
    assert problems(dataclasses.replace(entry, provider="openai")) != []
    assert problems(dataclasses.replace(entry, diff="changed")) != []
    assert problems(dataclasses.replace(entry, evidence=())) != []
    assert problems(dataclasses.replace(entry, kind="equivalent")) != []


def test_ids_are_unique_per_judge_and_provider() -> None:
    """One id names one quirk: the oracle's spec and sdk halves of a quirk share it, nothing else does."""
    for judge in JUDGES:
        seen: dict[tuple[str, str], Accepted] = {}
        for entry in for_judge(judge):
            key = (entry.provider, entry.id)
            if key in seen:
                assert judge == "oracle" and seen[key].diff != entry.diff, key
                assert seen[key].why == entry.why, key
            seen[key] = entry


def test_each_judge_reads_its_entries_in_registry_order() -> None:
    for judge in JUDGES:
        mine = for_judge(judge)
        assert mine and [e for e in REGISTRY if judge in e.judges] == list(mine)


@pytest.mark.parametrize(
    ("pattern", "path", "full"),
    [
        ("tools[*].description", "tools[3].description", True),
        ("tools[*].description", "tools.description", False),
        ("messages[*].content[*]{,.type}", "messages[0].content[2]", True),
        ("messages[*].content[*]{,.type}", "messages[0].content[2].type", True),
        ("messages[*].content[*]{,.type}", "messages[0].content[2].text", False),
        ("tools[*]{,.*}", "tools[1].input_schema", True),
        ("tools[*]{,.*}", "tools[1].a.b", False),
        ("{top_p,top_k}", "top_k", True),
        (
            "messages[*].content[*].{,content[*].}source.type",
            "messages[0].content[1].content[0].source.type",
            True,
        ),
        ("$", "$", True),
    ],
)
def test_the_where_glob(pattern: str, path: str, full: bool) -> None:
    assert (glob(pattern).fullmatch(path) is not None) is full


def test_an_oracle_path_is_read_as_a_json_path() -> None:
    assert json_path("messages/0/content/12/type") == "messages[0].content[12].type"
    assert json_path("") == "$"
    assert json_path("reasoning/max_tokens") == "reasoning.max_tokens"


def test_a_match_needs_provider_diff_where_and_every_predicate() -> None:
    entry = Accepted(
        "t",
        judges=("closed-loop",),
        provider="anthropic",
        where="tool_choice",
        diff="missing",
        when=(value_is({"type": "auto"}),),
        kind="equivalent",
        why="test only: the API default",
        still_needed="none",
    )
    seen = Seen("anthropic", "tool_choice", "missing", {"type": "auto"})
    assert matches(entry, seen)
    assert not matches(entry, dataclasses.replace(seen, provider="openai-chat"))
    assert not matches(entry, dataclasses.replace(seen, diff="extra"))
    assert not matches(entry, dataclasses.replace(seen, path="tools"))
    assert not matches(entry, dataclasses.replace(seen, recorded={"type": "any"}))
