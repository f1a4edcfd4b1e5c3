"""The one registry of accepted differences, and the views each judge reads.

``REGISTRY`` is every ``Accepted`` entry, in the order each judge tries them (the first
match names the difference). The entries are written in per-judge files only to keep
each file small (``oracle_anthropic``, ``oracle_clients``, ``oracle``, ``loop``, ``loop_dialects``,
``importcheck``, ``importcheck_dialects``, ``importcheck_clients``); one entry is one literal, so adding one is
adding a literal to the file of its judge. ``docs/accepted.md`` is generated from this
(``python -m tools.accepted_docs``); ``tests/test_accepted.py`` holds every entry to its
shape and ``tests/test_accepted_needed.py`` disables each in turn and shows a bundled case
that then fails.
"""

from __future__ import annotations

from harness.accepted.importcheck import IMPORTCHECK
from harness.accepted.importcheck_clients import IMPORTCHECK_CLIENTS
from harness.accepted.importcheck_dialects import IMPORTCHECK_DIALECTS
from harness.accepted.loop import LOOP
from harness.accepted.loop_dialects import LOOP_DIALECTS
from harness.accepted.oracle import ORACLE
from harness.accepted.oracle_anthropic import ORACLE_ANTHROPIC
from harness.accepted.oracle_clients import ORACLE_CLIENTS
from harness.contract.accepted import Accepted, Judge

__all__ = ["REGISTRY", "for_judge"]

REGISTRY: tuple[Accepted, ...] = (
    *ORACLE_ANTHROPIC,
    *ORACLE_CLIENTS,
    *ORACLE,
    *LOOP,
    *LOOP_DIALECTS,
    *IMPORTCHECK,
    *IMPORTCHECK_DIALECTS,
    *IMPORTCHECK_CLIENTS,
)


def for_judge(judge: Judge, registry: tuple[Accepted, ...] | None = None) -> tuple[Accepted, ...]:
    """The entries ``judge`` applies, in registry order (``registry``: a test's edited copy).

    Read at each call from this module's ``REGISTRY``, so a test may replace it.
    """
    source = REGISTRY if registry is None else registry
    kept = _BY_JUDGE.get(judge)
    if kept is not None and kept[0] is source:  # every request asks: the same tuple, the same entries
        return kept[1]
    entries = tuple(e for e in source if judge in e.judges)
    _BY_JUDGE[judge] = (source, entries)
    return entries


#: The last answer per judge, with the (immutable) registry it was read from.
_BY_JUDGE: dict[str, tuple[tuple[Accepted, ...], tuple[Accepted, ...]]] = {}
