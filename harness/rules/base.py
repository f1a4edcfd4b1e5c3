"""What a provider hard rule is, and small helpers to read a wire body without trusting its shape.

A rule reads one request body as sent on the wire (JSON already parsed) and says where
the provider rejects it (``reject``) or silently loses something (``degrade``), in the
provider's own words. Rules never guess: a body too malformed to read is the schema
oracles' business, so helpers here return empty values instead of raising.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from harness.contract.kinds import Kind

__all__ = ["Check", "Rule", "RuleFinding", "as_dict", "as_list", "blocks", "snippet"]

Json = Any


@dataclass(frozen=True)
class RuleFinding:
    """One broken rule: where (``/``-joined body path), what, and why a maintainer should care."""

    rule: str
    kind: Kind
    path: str
    message: str
    example: str
    why: str

    def __str__(self) -> str:
        return f"[{self.rule}] {self.path or '<root>'}: {self.message}"


#: A rule's check: (provider id, the body's wire, the body, its model) -> findings.
Check = Callable[[str, str, dict[str, Any], str | None], list[RuleFinding]]


@dataclass(frozen=True)
class Rule:
    """A named hard rule: of every provider on some wires (``wires``), of some providers on their
    own wire (``providers``), or of one provider on another wire it serves (``provider:wire``)."""

    id: str
    providers: tuple[str, ...]
    kind: Kind
    summary: str
    #: Where the rule and its wording come from: provider docs, an API error quoted in an
    #: issue thread, or a rejected request in ``traffic/`` (file#interaction).
    evidence: tuple[str, ...]
    check: Check
    #: The invariant that reports the rule's findings on a rendered request (I7 tool pairing
    #: and ids, I8 conversation shape, I12 syntax); ``harness.invariants`` checks it is one
    #: that reports rules.
    invariant: str
    #: Wires whose every provider has the rule.
    wires: tuple[str, ...] = ()
    #: Providers a wire rule does not hold for (each with its evidence beside the rule).
    exempt: tuple[str, ...] = ()
    #: The hosts whose API has the rule (empty: every host of the provider). A request whose
    #: host is known and not listed (an OpenAI-compatible router) is not judged by it.
    hosts: tuple[str, ...] = ()

    def applies(self, provider: str, wire: str, own: bool) -> bool:
        """Whether the rule judges ``provider``'s body in ``wire`` (``own``: its own API's wire)."""
        if provider in self.exempt:
            return False
        return (
            wire in self.wires
            or (own and provider in self.providers)
            or f"{provider}:{wire}" in self.providers
        )

    def applies_to(self, host: str | None) -> bool:
        return not self.hosts or host is None or host in self.hosts

    def finding(self, path: str, message: str, example: Json, why: str) -> RuleFinding:
        return RuleFinding(self.id, self.kind, path, message, snippet(example), why)


def snippet(value: Json, limit: int = 160) -> str:
    """A short JSON rendering of the offending piece (sorted keys, cut at ``limit``)."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def as_dict(value: Json) -> dict[str, Any]:
    return cast(dict[str, Any], value) if isinstance(value, dict) else {}


def as_list(value: Json) -> list[Any]:
    return cast(list[Any], value) if isinstance(value, list) else []


def blocks(message: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    """A message's content blocks with their index (a string content has none)."""
    return [(i, b) for i, b in enumerate(as_list(message.get("content"))) if isinstance(b, dict)]
