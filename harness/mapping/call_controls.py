"""Call controls every provider maps by name: sampling, tool-call parallelism, service tier,
cache keys, server-side state and the provider's own safety / routing settings.

Each provider's profile declares a ``ControlNames``: the body path its API reads for each
canonical control (a dotted path nests: ``generationConfig.topP``), or None where it has no
such control. ``apply_controls`` sends what the caller set under those names, clamps into the
profile's documented ranges, and warns ``control-not-sent`` for a control the provider lacks,
so nothing the caller asked for is lost silently (docs/mapping-decisions.md#call-controls).
Controls whose mapping is more than a name (the tool-choice subset, reasoning, cache
breakpoints) stay with each provider's ``request.py``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from harness.contract.warning_codes import Code
from harness.mapping.wire import Warnings
from harness.params import CallParams

__all__ = ["EFFORT_ORDER", "NAMED", "ControlNames", "apply_controls", "fold_effort", "put"]

#: The controls mapped by name alone, in the order they are applied (``ControlNames`` fields).
NAMED: tuple[str, ...] = (
    "top_p",
    "top_k",
    "presence_penalty",
    "frequency_penalty",
    "stop",
    "seed",
    "parallel_tool_calls",
    "service_tier",
    "cache_key",
    "cache_retention",
    "cached_content",
    "previous_response_id",
    "conversation",
    "store",
    "background",
    "include",
)


@dataclass(frozen=True)
class ControlNames:
    """Where one provider reads each call control (a body path), None where it has none.

    ``settings``: the top-level fields of ``CallParams.provider_settings`` the provider reads
    (safety, guardrail, routing). Ranges are the provider's documented ones (its profile cites
    them); ``max_stop`` is the most stop sequences it takes.
    """

    provider: str
    top_p: str | None = None
    top_k: str | None = None
    presence_penalty: str | None = None
    frequency_penalty: str | None = None
    stop: str | None = None
    seed: str | None = None
    parallel_tool_calls: str | None = None
    service_tier: str | None = None
    cache_key: str | None = None
    cache_retention: str | None = None
    cached_content: str | None = None
    previous_response_id: str | None = None
    conversation: str | None = None
    store: str | None = None
    background: str | None = None
    include: str | None = None
    settings: frozenset[str] = field(default_factory=lambda: frozenset())
    #: How the provider takes cache breakpoints: ``explicit`` (mapped by its adapter),
    #: ``automatic`` (it caches prefixes on its own: ``cache-breakpoint-automatic``) or ``none``
    #: (no prompt cache to steer: ``cache-breakpoint-dropped``).
    cache: Literal["explicit", "automatic", "none"] = "automatic"
    #: The tier names the provider takes (its SDK's literal); None: any string.
    service_tiers: frozenset[str] | None = None
    top_p_range: tuple[float, float] = (0.0, 1.0)
    penalty_range: tuple[float, float] = (-2.0, 2.0)
    max_stop: int | None = None

    def native(self, control: str) -> str | None:
        """The body path of ``control`` (one of ``NAMED``), None where the provider has none."""
        value: str | None = getattr(self, control)
        return value


def put(body: dict[str, Any], path: str, value: Any) -> None:
    """Set ``value`` at a dotted ``path`` of ``body``, creating the objects on the way."""
    *outer, last = path.split(".")
    node = body
    for key in outer:
        inner: Any = node.get(key)
        if not isinstance(inner, dict):
            inner = {}
            node[key] = inner
        node = cast(dict[str, Any], inner)
    node[last] = value


def _ranged(control: str, value: Any, names: ControlNames, warnings: Warnings) -> Any:
    """``value`` inside the provider's range (clamped, with ``control-clamped``), or None if it
    is not a number where one is needed."""
    bounds = {
        "top_p": names.top_p_range,
        "presence_penalty": names.penalty_range,
        "frequency_penalty": names.penalty_range,
    }.get(control)
    if bounds is not None:
        if not math.isfinite(value):
            warnings.add(
                None, None, None, Code.CONTROL_NOT_SENT, f"{control} {value} is not a number; not sent"
            )
            return None
        low, high = bounds
        clamped = min(high, max(low, value))
        if clamped != value:
            warnings.add(
                None,
                None,
                None,
                Code.CONTROL_CLAMPED,
                f"{control} {value} clamped to {names.provider}'s {low}..{high}",
            )
        return clamped
    if control == "service_tier" and names.service_tiers is not None and value not in names.service_tiers:
        warnings.add(
            None,
            None,
            None,
            Code.CONTROL_NOT_SENT,
            f"service_tier {value!r} is not one {names.provider} takes ({', '.join(sorted(names.service_tiers))}); not sent",
        )
        return None
    if control == "stop" and names.max_stop is not None and len(value) > names.max_stop:
        warnings.add(
            None,
            None,
            None,
            Code.CONTROL_CLAMPED,
            f"{len(value)} stop sequences; {names.provider} takes at most {names.max_stop}, the first sent",
        )
        return list(value[: names.max_stop])
    return list(cast(list[Any], value)) if isinstance(value, list) else value


def apply_controls(
    body: dict[str, Any],
    params: CallParams,
    names: ControlNames,
    warnings: Warnings,
    *,
    skip: Iterable[str] = (),
) -> None:
    """Send every named control the caller set under the provider's name; warn where it has none.

    ``skip``: controls the adapter maps itself (Anthropic's ``parallel_tool_calls`` lives in
    its tool choice).
    """
    skipped = set(skip)
    for control in NAMED:
        value = getattr(params, control)
        if value is None or control in skipped:
            continue
        if control == "parallel_tool_calls" and not any(k in body for k in ("tools", "toolConfig")):
            # OpenAI: "parallel_tool_calls is only allowed when 'tools' are specified" (400).
            warnings.add(
                None, None, None, Code.CONTROL_NOT_SENT, "parallel_tool_calls given without tools; not sent"
            )
            continue
        path = names.native(control)
        if path is None:
            warnings.add(
                None,
                None,
                None,
                Code.CONTROL_NOT_SENT,
                f"{names.provider} has no {control} control; {control} not sent",
            )
            continue
        value = _ranged(control, value, names, warnings)
        if value is not None:
            put(body, path, value)
    for key, value in sorted((params.provider_settings or {}).items()):
        if key in names.settings:
            body[key] = value
        else:
            warnings.add(
                None,
                None,
                None,
                Code.CONTROL_NOT_SENT,
                f"provider setting {key!r} is not one {names.provider} reads; not sent",
            )


#: The effort scale, lowest first: a level a provider lacks folds to the nearest it has.
EFFORT_ORDER: tuple[str, ...] = ("none", "minimal", "low", "medium", "high", "xhigh", "max")


def fold_effort(effort: str, table: Mapping[str, str], warnings: Warnings, provider: str) -> str:
    """``table[effort]``, or for a level the provider lacks the nearest one it has (ties go up),
    with ``control-clamped``: a provider's scale is its profile's ``table``."""
    if effort in table:
        return table[effort]
    rank = EFFORT_ORDER.index(effort)
    known = sorted(
        table, key=lambda level: (abs(EFFORT_ORDER.index(level) - rank), -EFFORT_ORDER.index(level))
    )
    folded = table[known[0]]
    warnings.add(
        None,
        None,
        None,
        Code.CONTROL_CLAMPED,
        f"reasoning effort {effort!r} is not one {provider} takes; sent {folded!r}",
    )
    return folded
