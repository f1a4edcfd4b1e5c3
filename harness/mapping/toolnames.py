"""Tool names a provider accepts, and the reversible map to and from canonical names.

Real tool sets carry names no provider's rule admits (MCP names like
``github.create_issue`` or ``Github Get File``, 70-character ``mcp__plugin_...``
names). A name that breaks the rule is sent as a *wire name*: invalid characters
replaced by ``_``, a leading ``_`` where the rule needs a letter or underscore first,
cut to fit, and always suffixed with ``_`` + 8 hex digits of the SHA-256 of the
original name. The suffix makes the map injective and stable: the same name always
maps the same way, whatever other tools are declared. A valid name is sent as is.

The map is pure so both directions can call it: adapters send ``wire_names(...)``
values in declarations, calls and results; whoever parses the response maps a
streamed call's name back with ``canonical_name(name, wire_names(declared, rule))``
(or ``restore_call(part, mapping)``), given the same declared names.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from harness.model import ToolCallPart

__all__ = ["NameRule", "canonical_name", "restore_call", "wire_name", "wire_names"]

_DIGEST = 8


@dataclass(frozen=True)
class NameRule:
    """A provider's tool-name rule: allowed characters (a regex class body), length, first character."""

    allowed: str
    max_length: int
    first: str | None = None  # class body the first character must match, if any

    def ok(self, name: str) -> bool:
        if not 1 <= len(name) <= self.max_length:
            return False
        if re.fullmatch(f"[{self.allowed}]+", name, re.ASCII) is None:
            return False
        return self.first is None or re.match(f"[{self.first}]", name, re.ASCII) is not None


def wire_name(name: str, rule: NameRule, digest_length: int = _DIGEST) -> str:
    """The name to send for ``name``: itself when valid, else sanitized + a stable hash suffix."""
    if rule.ok(name):
        return name
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:digest_length]
    stem = re.sub(f"[^{rule.allowed}]", "_", name, flags=re.ASCII)
    if rule.first is not None and not re.match(f"[{rule.first}]", stem, re.ASCII):
        stem = "_" + stem
    stem = stem[: rule.max_length - digest_length - 1]
    return f"{stem}_{digest}"


def wire_names(names: Iterable[str], rule: NameRule) -> dict[str, str]:
    """Canonical name -> wire name for every given name, injective over the set.

    A mapped name that equals a valid declared name (a 32-bit hash clash, in practice
    never) takes a 16-digit suffix instead, so two tools never share a wire name.
    """
    unique = sorted(set(names))
    valid = {n for n in unique if rule.ok(n)}
    out: dict[str, str] = {}
    taken = set(valid)
    for name in unique:
        if name in valid:
            out[name] = name
            continue
        sent = wire_name(name, rule)
        if sent in taken:
            sent = wire_name(name, rule, digest_length=16)
        taken.add(sent)
        out[name] = sent
    return out


def canonical_name(sent: str, mapping: Mapping[str, str]) -> str:
    """The canonical name behind a wire name (as a response calls it); unknown names unchanged."""
    for canonical, wire in mapping.items():
        if wire == sent:
            return canonical
    return sent


def restore_call(part: ToolCallPart, mapping: Mapping[str, str]) -> ToolCallPart:
    """A parsed tool call with its wire name mapped back to the declared canonical name."""
    name = canonical_name(part.tool_name, mapping)
    return part if name == part.tool_name else part.model_copy(update={"tool_name": name})
