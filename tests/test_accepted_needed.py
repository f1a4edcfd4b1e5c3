"""Every entry of the registry of accepted differences is still needed: disabled in turn, some
bundled case then fails.

For each judge, a first run over the bundled recordings (and the oracles' own valid cases)
records which cases each entry accepted something in; then, with that one entry removed
from ``harness.accepted.registry.REGISTRY``, those cases are judged again and at least one
must fail: the closed loop finds a difference no entry accepts, import-check reports a
request beyond the allowlist, an oracle rejects a request the real API accepted (or one of
``tests/test_oracles.py``'s valid bodies). An entry no case needs fails here: remove it.
Each entry's ``still_needed`` names its judge's test below.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.accepted import registry
from harness.accepted.registry import REGISTRY, for_judge
from harness.contract.accepted import Accepted
from harness.importcheck.check import check_one
from harness.loop.closed_loop import close_loop, reproduce_request
from harness.loop.jsondiff import JsonDifference
from harness.oracles import validate
from harness.traffic import RecordedCall, load_traffic
from harness.traffic.calibrate import calibrate
from tests.support.bodies import HOSTED, VALID
from tests.support.cassettes import CLOSABLE, model_calls
from tests.support.traffic import calibration, import_check

ROOT = Path(__file__).resolve().parent.parent


def _ids(entries: tuple[Accepted, ...]) -> list[str]:
    return [f"{e.id}-{e.diff}" for e in entries]


def _without(monkeypatch: pytest.MonkeyPatch, entry: Accepted) -> None:
    """The registry with this one entry (this very object: an oracle quirk's halves share an id) removed."""
    monkeypatch.setattr(registry, "REGISTRY", tuple(e for e in REGISTRY if e is not entry))
    assert all(e is not entry for judge in entry.judges for e in for_judge(judge))


# ---------------------------------------------------------------- the closed loop


def _loop_differences(provider: str, path: Path) -> Iterator[JsonDifference]:
    for report in close_loop(provider, path):
        yield from report.differences
    for exchange in model_calls(provider, path):
        yield from reproduce_request(provider, path.stem, exchange)


@pytest.fixture(scope="module")
def loop_cases() -> dict[str, list[tuple[str, Path]]]:
    """Entry id -> the round trips whose loop (or re-rendered request) it accepted something in."""
    used: dict[str, list[tuple[str, Path]]] = {}
    for provider, path in CLOSABLE:
        for allowed in {d.allowed_by for d in _loop_differences(provider, path) if d.allowed_by}:
            used.setdefault(allowed, []).append((provider, path))
    return used


@pytest.mark.parametrize("entry", for_judge("closed-loop"), ids=_ids(for_judge("closed-loop")))
def test_each_closed_loop_entry_is_needed(
    entry: Accepted, loop_cases: dict[str, list[tuple[str, Path]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    cases = loop_cases.get(entry.id, [])
    assert cases, f"{entry.id}: no recorded round trip uses it (remove it)"
    before = {c: sum(d.allowed_by is None for d in _loop_differences(*c)) for c in cases}
    _without(monkeypatch, entry)
    after = {c: sum(d.allowed_by is None for d in _loop_differences(*c)) for c in cases}
    assert any(after[c] > before[c] for c in cases), f"{entry.id}: another entry accepts everything it did"


# ---------------------------------------------------------------- import-check


@pytest.fixture(scope="module")
def import_cases() -> dict[str, list[tuple[str, str]]]:
    """Entry id -> the recorded requests (provider, ``where``) whose render it accepted something in."""
    used: dict[str, list[tuple[str, str]]] = {}
    for request in import_check().requests:
        for allowed in {d.allowed_by for d in request.differences if d.allowed_by}:
            used.setdefault(allowed, []).append((request.provider, request.where))
    return used


def _import_candidates(entry: Accepted, used: dict[str, list[tuple[str, str]]]) -> list[str]:
    """The requests that used the entry; for one used only inside a structural entry's comparison
    (``restructured``: the other entries apply to the rewritten node), those of its provider's
    structural entries."""
    if entry.id in used:
        return [where for _, where in used[entry.id]]
    structural = [e.id for e in for_judge("import-check") if any(p.name == "restructured" for p in e.when)]
    return [
        where for sid in structural for provider, where in used.get(sid, []) if provider == entry.provider
    ]


@functools.cache
def _recorded(file: str) -> tuple[RecordedCall, ...]:
    """A cassette's calls, read once for the module: reading does not consult the registry, and
    judging leaves the calls as read (``_judged``'s bodies are never changed)."""
    return tuple(load_traffic([file]))


def _judged(call: RecordedCall) -> str:
    assert call.route is not None
    return check_one(call.route.provider, call.where, Path(call.file).stem, call.body, call.uri).verdict


@functools.cache
def _unchanged_registry_verdict(file: str, where: str) -> str:
    """A request's verdict under the whole registry: the same for every test that asks before removing its entry."""
    assert registry.REGISTRY is REGISTRY, "only a run under the unchanged registry is shared"
    return _judged(next(c for c in _recorded(file) if c.where == where))


def _verdicts(wheres: list[str], *, registry_unchanged: bool = False) -> list[str]:
    files = sorted({w.rsplit("#", 1)[0] for w in wheres})
    calls = [c for f in files for c in _recorded(f) if c.where in wheres and c.route is not None]
    if registry_unchanged:
        return [_unchanged_registry_verdict(c.file, c.where) for c in calls]
    return [_judged(c) for c in calls]


#: import-check's entries that are the closed loop's too: each is needed by the loop (above).
_IMPORT_ONLY = tuple(e for e in for_judge("import-check") if "closed-loop" not in e.judges)


@pytest.mark.parametrize("entry", _IMPORT_ONLY, ids=_ids(_IMPORT_ONLY))
def test_each_import_check_entry_is_needed(
    entry: Accepted, import_cases: dict[str, list[tuple[str, str]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    wheres = _import_candidates(entry, import_cases)
    assert wheres, f"{entry.id}: no recorded request uses it (remove it)"
    assert "beyond" not in _verdicts(wheres, registry_unchanged=True)
    _without(monkeypatch, entry)
    assert "beyond" in _verdicts(wheres), f"{entry.id}: another entry accepts everything it did"


# ---------------------------------------------------------------- the request oracles


@pytest.fixture(scope="module")
def oracle_cases() -> dict[str, list[str]]:
    """Entry id -> the recorded interactions (``file#index``) calibration accepted something in by it."""
    return calibration().allowances


def _valid_cases(entry: Accepted) -> list[tuple[str, dict[str, Any], str | None]]:
    """``tests/test_oracles.py``'s valid bodies that use the entry: (provider, body, host)."""
    cases: list[tuple[str, dict[str, Any], str | None]] = [
        (c[1], c[2], None) for c in VALID if entry.id in c[3]
    ]
    return cases + [(c[1], c[3], c[2]) for c in HOSTED if entry.id in c[4]]


@pytest.mark.parametrize("entry", for_judge("oracle"), ids=_ids(for_judge("oracle")))
def test_each_oracle_entry_is_needed(
    entry: Accepted, oracle_cases: dict[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded = sorted({w.rsplit("#", 1)[0] for w in oracle_cases.get(entry.id, [])})
    valid = _valid_cases(entry)
    assert recorded or valid, f"{entry.id}: no recorded request and no valid case uses it (remove it)"
    _without(monkeypatch, entry)
    failures = calibrate(recorded).failures if recorded else []
    rejected = [provider for provider, body, host in valid if not validate(provider, body, host=host).ok]
    assert failures or rejected, f"{entry.id} ({entry.diff}): another entry accepts everything it did"


def test_an_entry_another_one_shadows_is_found_unneeded(
    loop_cases: dict[str, list[tuple[str, Path]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check has teeth: a copy of an entry placed after it is never used, and the original is
    no longer needed once the copy is there (removing it adds no finding)."""
    original = for_judge("closed-loop")[0]
    copy = dataclasses.replace(original, id="shadow")
    monkeypatch.setattr(registry, "REGISTRY", (*REGISTRY, copy))
    cases = loop_cases[original.id]
    assert all(d.allowed_by != "shadow" for c in cases for d in _loop_differences(*c))
    before = sum(d.allowed_by is None for c in cases for d in _loop_differences(*c))
    monkeypatch.setattr(registry, "REGISTRY", tuple(e for e in (*REGISTRY, copy) if e is not original))
    assert sum(d.allowed_by is None for c in cases for d in _loop_differences(*c)) == before
