"""One shape for every accepted difference: a tolerated quirk, named, placed and argued for.

Four lists accept a difference instead of reporting it: the oracles' allowances
(``harness.oracles.allowances``), the closed loop's and import-check's JSON allowlists
(``harness.loop.allowlist``, ``harness.importcheck.allowlist``) and the stream oracle's deliberate
differences (``harness.crosscheck``). Each entry is an ``Accepted`` (its list adds the
matcher it needs as extra fields), so ``docs/accepted.md`` lists them all in one place,
by provider (``python -m tools.accepted_docs``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Accepted"]


@dataclass(frozen=True)
class Accepted:
    """One accepted difference: ``id`` names it, ``provider`` is the one provider it holds for,
    ``where`` says where it applies (a JSON path pattern, or what differs), ``why`` argues
    it is harmless, and ``evidence`` points at what shows it (a recorded interaction, a doc)."""

    id: str
    provider: str
    where: str
    why: str
    evidence: tuple[str, ...] = ()
