"""A finding of the traffic audit: which check, what kind, and where in which cassette.

Every finding points back to the recorded interaction (``file#index``) that shows it,
so a maintainer can open the cassette and see the bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.contract.kinds import Kind

__all__ = ["TrafficFinding"]


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

    @property
    def where(self) -> str:
        return f"{self.file}#{self.index}"

    @property
    def key(self) -> tuple[str, str, int, str]:
        """What a baseline accepts: the same check failing at the same place."""
        return (self.check, self.file, self.index, self.path)

    def sort_key(self) -> tuple[str, int, str, str, str]:
        return (self.file, self.index, self.check, self.path, self.message)
