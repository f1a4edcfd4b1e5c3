"""The three kinds of finding (DESIGN "Finding kinds", pinned names), kept apart everywhere.

- ``reject``: the provider's API rejects the request, or documents the rule as required.
- ``degrade``: the API accepts it, but the model loses something it needs (reasoning
  state, a reminder, a result's attribution, the cache prefix).
- ``policy``: differs from the pinned design where the provider accepts both.

Reports, baselines and exit statuses keep them apart; ``policy`` is never fatal by default.
"""

from __future__ import annotations

from typing import Literal, cast

__all__ = ["DEFAULT_FAIL_ON", "KINDS", "KIND_MEANINGS", "Kind", "parse_kinds"]

#: A finding's kind: the provider refuses it, the model silently loses something, or a difference
#: from the pinned design that the provider accepts.
Kind = Literal["reject", "degrade", "policy"]
#: In order of severity: what the provider refuses, what silently loses, what merely differs.
KINDS: tuple[Kind, ...] = ("reject", "degrade", "policy")
KIND_MEANINGS: dict[Kind, str] = {
    "reject": "the provider's API rejects the request (or documents the rule as required)",
    "degrade": "the API accepts the request, but the model loses something it needs",
    "policy": "differs from the pinned design where the provider accepts both",
}
#: What fails a run unless the user says otherwise (``--fail-on``).
DEFAULT_FAIL_ON: tuple[Kind, ...] = ("reject", "degrade")


def parse_kinds(text: str) -> tuple[Kind, ...]:
    """``"reject,degrade"`` -> the kinds; ValueError naming the valid ones on anything else."""
    chosen = [k.strip() for k in text.split(",") if k.strip()]
    unknown = [k for k in chosen if k not in KINDS]
    if unknown:
        raise ValueError(f"unknown finding kind {unknown[0]!r} (expected some of: {', '.join(KINDS)})")
    return tuple(k for k in KINDS if k in chosen) or cast(tuple[Kind, ...], ())
