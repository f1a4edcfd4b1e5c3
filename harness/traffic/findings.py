"""A finding of the traffic audit: which check, what kind, and where in which cassette.

Every finding points back to the recorded interaction (``file#index``) that shows it,
so a maintainer can open the cassette and see the bytes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from harness.contract.kinds import Kind

__all__ = ["TrafficFinding", "one_per_check"]


@dataclass(frozen=True)
class TrafficFinding:
    check: str
    kind: Kind
    file: str
    index: int
    provider: str
    #: ``/``-joined path in the request body ("" for the whole request).
    path: str
    message: str
    why: str
    #: The recorded HTTP status of this interaction (a 4xx the finding explains, or 200).
    status: int = 0
    #: How many places in the body the check found (one finding per request and check; ``path``
    #: and ``message`` are the first place's).
    places: int = 1

    @property
    def where(self) -> str:
        return f"{self.file}#{self.index}"

    @property
    def key(self) -> tuple[str, str, int, str]:
        """What a baseline accepts: the same check failing at the same place."""
        return (self.check, self.file, self.index, self.path)

    def sort_key(self) -> tuple[str, int, str, str, str]:
        return (self.file, self.index, self.check, self.path, self.message)


def one_per_check(findings: list[TrafficFinding]) -> list[TrafficFinding]:
    """One finding per request and check, carrying the number of places it was found at.

    Why: one accepted body with a new block type gave a row per union branch and per
    oracle error; a reader needs to know which check failed on which request, and how often.
    The first place (in sorted order) stands for the rest; the message says how many more.
    """
    groups: dict[tuple[str, int, str], list[TrafficFinding]] = {}
    for f in sorted(findings, key=TrafficFinding.sort_key):
        groups.setdefault((f.file, f.index, f.check), []).append(f)
    out: list[TrafficFinding] = []
    for group in groups.values():
        first = group[0]
        if len(group) == 1:
            out.append(first)
            continue
        more = len(group) - 1
        message = f"{first.message} (and {more} more place{'s' if more > 1 else ''})"
        out.append(replace(first, message=message, places=len(group)))
    return sorted(out, key=TrafficFinding.sort_key)
