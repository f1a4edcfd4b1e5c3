"""I18 call-controls: every call control the caller set reaches the field the provider reads.

A control set in ``CallParams`` (sampling, stop sequences, seed, parallel tool calls, service
tier, cache key, server-side state, provider settings) is either in the request at the path
the provider's requests carry it (``harness.contract.controls.TABLE``, read from accepted
recordings and the provider's reference) with the value asked for, or named by a
``control-*`` warning. A control under another name is one the provider ignores: Anthropic
reads ``stop_sequences``, not ``stop``, and answers as if no stop sequence were given.
"""

from __future__ import annotations

from typing import Any

from harness.contract.controls import SETTINGS, TABLE
from harness.invariants.base import CheckContext, Violation, as_dict

__all__ = ["check_call_controls", "controls_set"]

ID = "I18"
_CODES = frozenset({"control-not-sent", "control-clamped"})
#: Controls a provider takes in a model-dependent field (Bedrock's ``top_k``: Claude's own
#: ``top_k``, Nova's ``inferenceConfig.topK``, both in ``additionalModelRequestFields``).
_MODEL_FIELDS: dict[tuple[str, str], tuple[str, ...]] = {
    ("bedrock", "top_k"): (
        "additionalModelRequestFields.top_k",
        "additionalModelRequestFields.inferenceConfig.topK",
    ),
}
#: Every name some provider reads a control under: a value found under one of these that is
#: not the provider's own is sent where the provider does not look.
_ANY_NAME = {
    control: {p.split(".")[-1] for t in TABLE.values() for c, p in t.items() if c == control}
    for control in {c for t in TABLE.values() for c in t}
}


def _get(body: Any, path: str) -> tuple[bool, Any]:
    node = body
    for key in path.split("."):
        found = as_dict(node)
        if found is None or key not in found:
            return False, None
        node = found[key]
    return True, node


def controls_set(ctx: CheckContext) -> list[str]:
    """The named controls the caller set (``CallParams`` fields with a value)."""
    names = {c for t in TABLE.values() for c in t} | {"parallel_tool_calls", "top_k"}
    return sorted(c for c in names if getattr(ctx.params, c, None) is not None)


def _warned(ctx: CheckContext, control: str) -> bool:
    return any(w.code in _CODES and control in w.reason for w in ctx.rendered.warnings)


def _anthropic_parallel(ctx: CheckContext) -> list[Violation]:
    """Anthropic reads parallel tool use as ``tool_choice.disable_parallel_tool_use`` (inverted)."""
    if ctx.params.parallel_tool_calls is not False or _warned(ctx, "parallel_tool_calls"):
        return []
    present, value = _get(ctx.body, "tool_choice.disable_parallel_tool_use")
    choice = as_dict((as_dict(ctx.body) or {}).get("tool_choice")) or {}
    if (present and value is True) or choice.get("type") == "none":
        return []
    return [
        ctx.violation(
            ID,
            None,
            "parallel_tool_calls false is not sent as tool_choice.disable_parallel_tool_use and not warned",
            {"tool_choice": choice},
            kind="degrade",
        )
    ]


def check_call_controls(ctx: CheckContext) -> list[Violation]:
    table = TABLE.get(ctx.provider, {})
    out: list[Violation] = []
    body = ctx.body
    for control in controls_set(ctx):
        if ctx.provider == "anthropic" and control == "parallel_tool_calls":
            out += _anthropic_parallel(ctx)
            continue
        value = getattr(ctx.params, control)
        paths = _MODEL_FIELDS.get((ctx.provider, control)) or ((table[control],) if control in table else ())
        if _warned(ctx, control):
            continue
        found = [_get(body, p) for p in paths]
        if any(present and sent == value for present, sent in found):
            continue
        sent_elsewhere = sorted(
            name
            for name in _ANY_NAME.get(control, set())
            if name not in {p.split(".")[-1] for p in paths} and (as_dict(body) or {}).get(name) == value
        )
        where = f"at {' or '.join(paths)}" if paths else f"(the provider has no {control} control)"
        reason = f"{control} {value!r} is not sent {where} and not warned"
        if sent_elsewhere:
            reason += f"; it is sent as {', '.join(sent_elsewhere)}, which {ctx.provider} does not read"
        elif any(present for present, _ in found):
            reason += f"; a different value is sent: {next(v for p, v in found if p)!r}"
        out.append(ctx.violation(ID, None, reason, {control: value}, kind="degrade"))
    for key, value in sorted((ctx.params.provider_settings or {}).items()):
        ours = key in SETTINGS.get(ctx.provider, frozenset())
        if ours and (as_dict(body) or {}).get(key) != value and not _warned(ctx, key):
            reason = f"provider setting {key!r} is not sent and not warned"
            out.append(ctx.violation(ID, None, reason, {key: value}, kind="degrade"))
    return out
