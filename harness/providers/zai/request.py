"""Z.ai input adapter (provider id ``zai``): ``POST https://api.z.ai/api/paas/v4/chat/completions``.

The Chat Completions core plus Z.ai's ``thinking`` object (``type`` enabled/disabled,
``clear_thinking: false`` to keep earlier turns' reasoning: "preserved thinking") and
``reasoning_content`` on the assistant turns whose own reasoning the history holds
(recorded accepted: models__test_zai__test_zai_preserved_thinking_round_trip.yaml#1).
Decisions: DECISIONS.md beside this module.
"""

from __future__ import annotations

from harness.mapping.call_controls import fold_effort
from harness.mapping.chat_completions import JSON, ReasoningMapper
from harness.mapping.dialects import Dialect, DialectAdapter, send_reasoning_content
from harness.mapping.wire import Prepared, Warnings
from harness.params import CallParams
from harness.providers.zai.profile import (
    CONTROLS,
    DEFAULT_MODEL,
    FILES,
    ID_POLICY,
    MAX_TOKENS_FIELD,
    TOOL_NAMES,
    effort_models,
)

__all__ = ["ADAPTER", "DEFAULT_MODEL", "PROVIDER_ID", "controls"]

PROVIDER_ID = "zai"
#: GLM-5's levels; ``max`` recorded accepted on glm-5.3 (models__test_zai__test_zai_glm_5_3_reasoning_effort).
_EFFORT = {"minimal": "low", "low": "low", "medium": "medium", "high": "high", "max": "max"}


def _reasoning(prepared: Prepared, model: str, params: CallParams) -> ReasoningMapper:
    return send_reasoning_content(model, lambda _: True, why_not="")


def controls(body: JSON, params: CallParams, warnings: Warnings, model: str) -> None:
    """``thinking`` (always with ``clear_thinking: false``, so the reasoning sent back is read)."""
    thinking = params.thinking
    if thinking is None:
        return
    body["thinking"] = {"type": "enabled" if thinking.enabled else "disabled", "clear_thinking": False}
    if thinking.enabled and thinking.effort is not None and effort_models(model):
        body["reasoning_effort"] = fold_effort(thinking.effort, _EFFORT, warnings, PROVIDER_ID)


ADAPTER = DialectAdapter(
    Dialect(
        provider=PROVIDER_ID,
        files=FILES,
        ids=ID_POLICY,
        names=TOOL_NAMES,
        reasoning=_reasoning,
        controls=controls,
        call_controls=CONTROLS,
        max_tokens_field=MAX_TOKENS_FIELD,
        #: ``stream_options.include_usage`` when streaming, as the accepted recording sends it
        #: (models__test_zai__test_zai_thinking_stream.yaml#0).
        stream_usage=True,
    )
)
