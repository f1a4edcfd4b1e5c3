"""Provider-executed tool calls and results, and sources: which go back natively, which are dropped.

A server tool's block or item (``raw``) is the provider's own: it goes back byte-exact, in its
place, to the provider that produced it, and to no other. Another provider cannot replay it
(its ids, encrypted payloads and result shapes mean nothing there), and sending it as a client
tool call would tell the model it called a tool of the client's that the client never ran, so
it is dropped with ``server-tool-foreign`` (recorded evidence: pydantic-ai sends Gemini's code
execution history to Anthropic as its text alone, accepted,
traffic/pydantic-ai/models__test_anthropic__test_anthropic_server_tool_receive_history_from_another_provider.yaml#1).
A source goes back natively only as its own provider's citation attached to the text it
cites; anywhere else it stays in the history and is not sent (``source-not-sent``).

Server-tool definitions follow the same rule: the provider's own definition (``raw``) goes back
byte-exact; another provider's kind is declared natively where the target has that kind
(``native_definition`` of the adapter), else it is not sent (``server-tool-unsupported``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from harness.contract.warning_codes import Code
from harness.mapping.wire import AssistantUnit, PartUnit, ProviderUnit, Warnings, WireAssistant, WireItem
from harness.model import ServerToolCallPart, ServerToolResultPart, SourcePart, TextPart, ToolCallPart
from harness.params import CallParams, ServerToolSpec

__all__ = [
    "ALL_PARTS",
    "SERVER_PARTS",
    "Definition",
    "keep_native",
    "place_definitions",
    "server_tool_definitions",
    "sources_by_text",
    "warn_callers",
]

Json = dict[str, Any]
#: A server tool as the target declares it: where it stands in the tool list, the definition,
#: and the top-level key that holds it (``tools`` unless the provider keeps it elsewhere).
Definition = tuple[int | None, Json, str]


#: The provider part types an adapter replays natively.
SERVER_PARTS = frozenset({"server_tool_call", "server_tool_result"})
ALL_PARTS = SERVER_PARTS | {"source"}


def _why_not(
    unit: ProviderUnit, units: Sequence[AssistantUnit], provider: str, native: frozenset[str]
) -> tuple[Code, str] | None:
    """Why a provider part is not sent to ``provider``, or None when it goes back natively."""
    part = unit.part
    if isinstance(part, SourcePart):
        if "source" not in native or part.provider != provider or part.raw is None:
            whose = part.provider or "no provider"
            return Code.SOURCE_NOT_SENT, (
                f"{part.source_type} source ({whose}'s) has no place in a {provider} request; "
                "kept in history, not sent"
            )
        if _cited_text(unit, units) is None:
            return (
                Code.SOURCE_NOT_SENT,
                "source follows no text part it could cite; kept in history, not sent",
            )
        return None
    if part.type not in native:
        return Code.SERVER_TOOL_FOREIGN, (
            f"{part.provider}'s server tool '{part.tool_name}' cannot be replayed to {provider}; "
            "dropped (never sent as a client tool call)"
        )
    if part.provider != provider:
        return Code.SERVER_TOOL_FOREIGN, (
            f"server tool '{part.tool_name}' ran on {part.provider}; {provider} cannot replay another "
            "provider's block; dropped (never sent as a client tool call)"
        )
    if part.raw is not None:
        return None
    if isinstance(part, ServerToolResultPart) and any(
        isinstance(u.part, ServerToolCallPart) and u.part.call_id == part.call_id and u.part.raw is not None
        for u in units
        if isinstance(u, ProviderUnit)
    ):
        return None  # the call's own item carries the outcome (a Responses web_search_call ...)
    return Code.SERVER_TOOL_FOREIGN, (
        f"server tool '{part.tool_name}' has no raw block to send back byte-exact; dropped "
        "(never sent as a client tool call)"
    )


def _cited_text(unit: ProviderUnit, units: Sequence[AssistantUnit]) -> PartUnit | None:
    """The text part a source follows (across that text's earlier sources), or None."""
    position = next(i for i, u in enumerate(units) if u is unit)
    for earlier in reversed(units[:position]):
        if isinstance(earlier, ProviderUnit) and isinstance(earlier.part, SourcePart):
            continue
        if isinstance(earlier, PartUnit) and isinstance(earlier.part, TextPart):
            return earlier
        return None
    return None


def keep_native(items: list[WireItem], provider: str, native: frozenset[str], warnings: Warnings) -> None:
    """Drop (warned) every provider part ``provider`` cannot take back natively; ``native``: the
    part types its adapter replays (``SERVER_PARTS``, ``ALL_PARTS``, or none)."""
    for item in items:
        if not isinstance(item, WireAssistant):
            continue
        kept: list[AssistantUnit] = []
        for unit in item.units:
            if isinstance(unit, ProviderUnit):
                why = _why_not(unit, item.units, provider, native)
                if why is not None:
                    warnings.add(item.index, unit.index, unit.part.type, *why)
                    continue
            kept.append(unit)
        item.units = kept


def warn_callers(history: Sequence[Any], params: CallParams, provider: str, warnings: Warnings) -> None:
    """Programmatic tool calling (Anthropic: a client tool called from the provider's code
    execution, ``ToolCallPart.caller``; a tool only code may call, ``ToolSpec.allowed_callers``)
    has no field elsewhere: the call goes as a plain call (its code execution, a server tool, is
    dropped as ``server-tool-foreign``) and the tool as a plain tool the model may call directly."""
    for index, event in enumerate(history):
        for pidx, part in enumerate(getattr(event, "parts", None) or []):
            if not isinstance(part, ToolCallPart):
                continue  # (only a call has a caller; asking another part raises inside pydantic)
            caller = part.caller
            if caller is not None and caller.get("type") != "direct":
                warnings.add(
                    index,
                    pidx,
                    "tool_call",
                    Code.TOOL_CALLER_NOT_SENT,
                    f"call of '{part.tool_name}' made by {caller.get('type')} sent to {provider} as a "
                    "call of the model's own (no caller field)",
                )
    for tool in params.tools or []:
        if tool.allowed_callers is not None and tool.allowed_callers != ["direct"]:
            warnings.add(
                None,
                None,
                None,
                Code.TOOL_CALLER_NOT_SENT,
                f"tool '{tool.name}' callable by {', '.join(tool.allowed_callers)} declared to {provider} "
                "as a tool the model calls directly (no allowed_callers field)",
            )


def sources_by_text(units: Sequence[AssistantUnit]) -> dict[int, list[tuple[int, SourcePart]]]:
    """The native sources kept after ``keep_native`` (with their part index), by the part index
    of the text each cites."""
    out: dict[int, list[tuple[int, SourcePart]]] = {}
    for unit in units:
        if isinstance(unit, ProviderUnit) and isinstance(unit.part, SourcePart):
            text = _cited_text(unit, units)
            if text is not None:
                out.setdefault(text.index, []).append((unit.index, unit.part))
    return out


def server_tool_definitions(
    params: CallParams,
    provider: str,
    warnings: Warnings,
    native_definition: Callable[[ServerToolSpec], Json | None] | None = None,
) -> list[Definition]:
    """The call's server tools as ``provider`` declares them: its own ``raw`` byte-exact, another
    provider's kind through ``native_definition``, anything else not sent (warned)."""
    out: list[Definition] = []
    for spec in params.server_tools or []:
        if spec.provider == provider and spec.raw is not None:
            out.append((spec.position, dict(spec.raw), spec.slot or "tools"))
            continue
        definition = native_definition(spec) if native_definition is not None else None
        if definition is None:
            warnings.add(
                None,
                None,
                None,
                Code.SERVER_TOOL_UNSUPPORTED,
                f"{spec.provider}'s server tool '{spec.kind}' has no {provider} counterpart; not sent",
            )
            continue
        _warn_options(spec, definition, provider, warnings)
        position = spec.position if spec.provider == provider else None
        out.append((position, definition, spec.slot if spec.provider == provider and spec.slot else "tools"))
    return out


_OPTIONS = ("allowed_domains", "blocked_domains", "max_uses", "user_location")


def _warn_options(spec: ServerToolSpec, definition: Json, provider: str, warnings: Warnings) -> None:
    """Name the options of another provider's server tool that its counterpart here cannot take."""
    carried = json.dumps(definition)
    lost = [o for o in _OPTIONS if getattr(spec, o) is not None and f'"{o}"' not in carried]
    if lost:
        warnings.add(
            None,
            None,
            None,
            Code.SERVER_TOOL_OPTIONS_DROPPED,
            f"{spec.provider}'s server tool '{spec.kind}' declared as {provider}'s own without "
            f"{', '.join(lost)} (no such option there)",
        )


def place_definitions(
    functions: list[Json], definitions: Sequence[Definition], slot: str = "tools"
) -> list[Json]:
    """Function tool definitions with the server tools of ``slot`` at their recorded positions
    (in position order; those without one after the function tools)."""
    placed = sorted(((p, d) for p, d, s in definitions if s == slot and p is not None), key=lambda pd: pd[0])
    out = list(functions)
    for position, definition in placed:
        out.insert(min(position, len(out)), definition)
    out += [d for p, d, s in definitions if s == slot and p is None]
    return out
