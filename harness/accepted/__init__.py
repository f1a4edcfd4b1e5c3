"""The one registry of accepted differences: ``harness.accepted.registry`` (entries in per-judge files).

Each entry is an ``Accepted`` (``harness.contract.accepted``), matched one way
(``harness.accepted.predicates.matches``). Data and pure predicates only: every judge may read it.
"""
