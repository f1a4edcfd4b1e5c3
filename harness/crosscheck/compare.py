"""The comparison: both projections through the deliberate differences, and the verdict."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import cast

from harness.crosscheck.accumulate import SdkResult, ours, sdk_accumulate
from harness.crosscheck.differences import DIFFERENCES, Context
from harness.crosscheck.projection import Part, Shape, project_ours, project_sdk
from harness.stream.base import CallResult


@dataclass(frozen=True)
class SdkComparison:
    """The verdict on one call: disagreements left after the differences, and which ones applied."""

    provider: str
    mismatches: list[str]
    applied: list[str]
    ours: Shape
    sdk: Shape

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def __str__(self) -> str:
        lines = [
            f"{self.provider}: {'agrees' if self.ok else 'DISAGREES'} (applied: {self.applied or 'none'})"
        ]
        return "\n".join([*lines, *(f"  {m}" for m in self.mismatches)])


def _diff(ours_: Shape, sdk: Shape) -> list[str]:
    out: list[str] = []
    for key in ours_.keys() | sdk.keys():
        mine, theirs = ours_.get(key), sdk.get(key)
        if key == "parts" and mine != theirs:
            mine_parts, their_parts = cast(list[Part], mine), cast(list[Part], theirs)
            for n in range(max(len(mine_parts), len(their_parts))):
                a = mine_parts[n] if n < len(mine_parts) else None
                b = their_parts[n] if n < len(their_parts) else None
                if a != b:
                    out.append(f"parts[{n}]: ours {_short(a)} != sdk {_short(b)}")
        elif mine != theirs:
            out.append(f"{key}: ours {_short(mine)} != sdk {_short(theirs)}")
    return sorted(out)


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 160 else text[:157] + "..."


def compare(
    provider: str,
    result: CallResult,
    sdk_result: SdkResult,
    body: bytes,
    *,
    disabled: Collection[str] = (),
) -> SdkComparison:
    """Our result against the SDK's for the same ``body``, through every applicable difference.

    ``disabled`` switches differences off by id (to prove each one is needed somewhere).
    """
    mine, theirs = project_ours(result), project_sdk(provider, sdk_result)
    context = Context(provider, body)
    applied: list[str] = []
    for difference in DIFFERENCES:
        if difference.provider != provider or difference.id in disabled:
            continue
        new_mine, new_theirs = difference.normalise(mine, theirs, context)
        if (new_mine, new_theirs) != (mine, theirs):
            applied.append(difference.id)
        mine, theirs = new_mine, new_theirs
    return SdkComparison(provider, _diff(mine, theirs), applied, mine, theirs)


def crosscheck(
    provider: str, body: bytes, chunk_size: int | None = None, *, disabled: Collection[str] = ()
) -> SdkComparison:
    """Parse ``body`` with our adapter and with the official SDK, and compare."""
    return compare(
        provider,
        ours(provider, body, chunk_size),
        sdk_accumulate(provider, body, chunk_size),
        body,
        disabled=disabled,
    )
