"""One shape for every accepted difference: a tolerated quirk, named, placed, matched one way and argued for.

An ``Accepted`` entry says which judge tolerates it (``judges``), for which provider, *where*
(a JSON path glob over the document the judge compares), *what* differs there (``diff``),
under which named conditions on the values (``when``: ``Predicate``s, all of which must
hold), what kind of tolerance it is (``kind``), why, the evidence, and the test that fails
when the entry is no longer needed (``still_needed``). Every entry lives in the one registry
(``harness.accepted.registry``); ``harness.accepted.predicates`` holds the named predicates
and the one matcher (``matches``). ``docs/accepted.md`` is generated from the registry.

This module is data only (stdlib), so every judge may read it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["DIFFS", "JUDGES", "Accepted", "Diff", "Judge", "Predicate", "Seen", "Tolerance", "glob"]

#: The judges that consult the registry.
Judge = Literal["oracle", "closed-loop", "import-check"]
JUDGES: tuple[Judge, ...] = ("oracle", "closed-loop", "import-check")

#: What differs at the path. A JSON diff (closed loop, import-check): ``missing`` (only the
#: recorded request has it), ``extra`` (only ours), ``changed``. A request oracle: ``spec-error``
#: / ``sdk-error`` (that oracle reports an error there), ``absent`` (the field is absent and
#: the API fills in ``default``: the oracles judge the body with it filled in).
Diff = Literal["missing", "extra", "changed", "spec-error", "sdk-error", "absent"]
DIFFS: tuple[Diff, ...] = ("missing", "extra", "changed", "spec-error", "sdk-error", "absent")

#: What the tolerance is: ``equivalent`` (two renderings the API reads the same), ``policy``
#: (a documented choice of ours that differs from the recording client), ``degrade`` (something
#: the canonical model cannot carry, named by the importer), ``artifact`` (a recorder's edit,
#: only in its recording), ``oracle-lag`` (a request oracle rejects what the real API accepts).
Tolerance = Literal["equivalent", "policy", "degrade", "artifact", "oracle-lag"]


@dataclass(frozen=True)
class Predicate:
    """A named condition on what a judge saw, with its literal arguments (``value_is({"type": "auto"})``).

    The implementations are in ``harness.accepted.predicates``, by name.
    """

    name: str
    args: tuple[Any, ...] = ()

    def __str__(self) -> str:
        """As written, strings (regexes mostly) without escapes: ``error_says("\\[extra_forbidden\\]")``."""
        shown = [f'"{a}"' if isinstance(a, str) else repr(a) for a in self.args]
        return f"{self.name}({', '.join(shown)})"


@dataclass(frozen=True)
class Accepted:
    """One accepted difference; see the module docstring. ``default`` is for ``diff="absent"`` only;
    ``open`` (import-check only) names the decision in docs/import-check-decisions.md that makes the
    difference our adapter's to fix: such an entry is reported open, never allowed."""

    id: str
    judges: tuple[Judge, ...] = field(kw_only=True)
    provider: str = field(kw_only=True)
    where: str = field(kw_only=True)
    diff: Diff = field(kw_only=True)
    when: tuple[Predicate, ...] = field(default=(), kw_only=True)
    kind: Tolerance = field(kw_only=True)
    why: str = field(kw_only=True)
    evidence: tuple[str, ...] = field(default=(), kw_only=True)
    still_needed: str = field(kw_only=True)
    default: Any = field(default=None, kw_only=True)
    open: str | None = field(default=None, kw_only=True)


@dataclass(frozen=True)
class Seen:
    """What a judge saw at one place of the compared document, for ``matches``.

    ``path`` is a JSON path (``messages[0].content``, ``$`` for the document itself);
    ``recorded`` / ``ours`` the two values of a JSON diff; ``message`` an oracle's error;
    ``parent`` the object holding an ``absent`` field; ``document`` the whole body (a request
    oracle's); ``host`` where the request goes; ``cassette`` the recording's stem;
    ``minted_ids`` the call ids each client minted for the same call (recorded -> ours).
    """

    provider: str
    path: str
    diff: Diff
    recorded: Any = None
    ours: Any = None
    message: str = ""
    parent: Any = None
    document: Any = None
    host: str | None = None
    cassette: str = ""
    minted_ids: Mapping[str, str] = field(default_factory=lambda: {})


@functools.cache
def glob(pattern: str) -> re.Pattern[str]:
    """A ``where`` glob as a regex (full match): ``[*]`` any list index, ``*`` one object key,
    ``{a,b}`` alternatives (each itself a glob; ``{,.type}`` makes ``.type`` optional), ``$`` the
    document itself."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("[*]", i):
            out.append(r"\[\d+\]")
            i += 3
        elif pattern[i] == "*":
            out.append(r"[^.\[\]]+")
            i += 1
        elif pattern[i] == "{":
            end = pattern.index("}", i)
            out.append("(?:" + "|".join(glob(a).pattern for a in pattern[i + 1 : end].split(",")) + ")")
            i = end + 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))
