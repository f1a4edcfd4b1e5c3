"""The registry of accepted differences (``harness.accepted``): every list in it, every list's
entries argued for, and every list held to a test that fails on an entry nothing needs."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from harness.accepted import REGISTRY, AcceptedList, entries
from harness.contract.accepted import Accepted

ROOT = Path(__file__).resolve().parent.parent


def _test_functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}


def missing_tests(accepted_list: AcceptedList) -> list[str]:
    """The ``needed_by`` tests of a list that do not exist (a renamed or deleted test)."""
    missing: list[str] = []
    for ref in accepted_list.needed_by:
        file, _, function = ref.partition("::")
        path = ROOT / file
        if not path.is_file() or function not in _test_functions(path):
            missing.append(ref)
    return missing


@pytest.mark.parametrize("accepted_list", REGISTRY, ids=[a.name for a in REGISTRY])
def test_every_list_names_the_tests_that_prove_its_entries_needed(accepted_list: AcceptedList) -> None:
    assert accepted_list.needed_by and missing_tests(accepted_list) == []
    assert (ROOT / accepted_list.module).is_file(), accepted_list.module


def test_a_list_naming_a_test_that_does_not_exist_fails() -> None:
    first = REGISTRY[0]
    renamed = AcceptedList(
        first.name, first.module, first.accepts, first.entries, ("tests/test_oracles.py::test_gone",)
    )
    assert missing_tests(renamed) == ["tests/test_oracles.py::test_gone"]


def test_every_entry_has_evidence_or_the_corpus_is_its_evidence() -> None:
    """An entry cites what shows it (a recorded request, a doc), or sits in a list whose tests run it
    on the recordings and fail when they do not need it."""
    corpus_checked = {id(e) for a in REGISTRY if a.corpus_needs_each for e in a.entries}
    unargued = [f"{a.name}: {e.id}" for a, e in entries() if not e.evidence and id(e) not in corpus_checked]
    assert unargued == []


def test_ids_are_unique_within_a_list_and_provider() -> None:
    """One id names one quirk: the oracle's spec and sdk halves of a quirk share it, nothing else does."""
    for accepted_list in REGISTRY:
        seen: dict[tuple[str, str], Accepted] = {}
        for entry in accepted_list.entries:
            key = (entry.provider, entry.id)
            if key in seen:
                assert accepted_list.name in ("oracle", "stream oracle"), (accepted_list.name, key)
                assert seen[key].why == entry.why, (accepted_list.name, key)
            seen[key] = entry
