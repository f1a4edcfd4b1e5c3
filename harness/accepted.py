"""Every accepted difference, in one registry: the four lists, where each lives, and what proves it.

A difference the harness tolerates instead of reporting is an ``Accepted``
(``harness.contract.accepted``: id, provider, where, why, evidence). Each entry stays beside
the check that applies it, because each check matches in its own terms (a regex over an
oracle error's body path, a JSON path glob with a predicate, a stream projection); this
registry is the one place that lists them all. ``docs/accepted.md`` is generated from it
(``python -m tools.accepted_docs``), and ``tests/test_accepted.py`` holds every list to a
test that fails on an entry nothing needs.

Only tools and tests import this module: it loads the reference side (the stream oracle's
list lives with ``harness.crosscheck``), which no judge may reach.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from harness.contract.accepted import Accepted
from harness.crosscheck import DIFFERENCES
from harness.importcheck.allowlist import ALLOWLIST as IMPORT_ALLOWLIST
from harness.loop.allowlist import ALLOWLIST as LOOP_ALLOWLIST
from harness.oracles.allowances import ALLOWANCES, DEFAULTS

__all__ = ["REGISTRY", "AcceptedList", "entries"]


@dataclass(frozen=True)
class AcceptedList:
    """One list of accepted differences: its name, its home, what its entries accept, the entries,
    and the tests (``path::function``) that fail when one of them is no longer needed."""

    name: str
    module: str
    accepts: str
    entries: Sequence[Accepted]
    needed_by: tuple[str, ...]
    #: The ``needed_by`` tests run every entry on the recorded corpus and fail on one it does not
    #: need: the recordings are each entry's evidence, so an entry may cite none of its own.
    corpus_needs_each: bool = False


REGISTRY: tuple[AcceptedList, ...] = (
    AcceptedList(
        "oracle",
        "harness/oracles/allowances.py",
        "an error of the schema (`spec`) or SDK (`sdk`) request oracle on a body; `where` is a regex "
        "over the body path. Recorded evidence is re-checked by tests/test_calibration.py. A `default` "
        "entry is a field the API fills in when absent: the oracles judge the body with it filled in",
        (*ALLOWANCES, *DEFAULTS),
        (
            "tests/test_calibration.py::test_every_recorded_allowance_is_needed_by_its_evidence",
            "tests/test_oracles.py::test_every_allowance_is_needed_and_well_formed",
        ),
    ),
    AcceptedList(
        "closed loop",
        "harness/loop/allowlist.py",
        "a difference between a recorded request N+1 and ours rebuilt from response N; `where` is a "
        "JSON path glob. tests/test_closed_loop.py fails on an entry no recorded round trip needs",
        LOOP_ALLOWLIST,
        ("tests/test_closed_loop.py::test_every_allowance_is_used_by_a_cassette",),
        corpus_needs_each=True,
    ),
    AcceptedList(
        "import check",
        "harness/importcheck/allowlist.py",
        "a difference between a recorded request and the reference render of its import; `where` is "
        "a JSON path glob (it reuses the closed-loop entries that hold for a single request)",
        IMPORT_ALLOWLIST,
        ("tests/test_import_check.py::test_each_entry_states_evidence_and_its_cited_requests_were_accepted",),
    ),
    AcceptedList(
        "stream oracle",
        "harness/crosscheck/differences.py",
        "a difference between an official SDK's accumulation of a stream and our parser's; `where` "
        "says what differs. tests/test_crosscheck.py fails on an entry no case needs",
        DIFFERENCES,
        ("tests/test_crosscheck.py::test_every_difference_is_needed_by_some_case",),
        corpus_needs_each=True,
    ),
)


def entries() -> Iterator[tuple[AcceptedList, Accepted]]:
    """Every entry with its list, in registry order (an entry two lists share comes once per list)."""
    for accepted_list in REGISTRY:
        for entry in accepted_list.entries:
            yield accepted_list, entry
