"""Mistral input adapter (provider id ``mistral``): ``POST https://api.mistral.ai/v1/chat/completions``.

The Chat Completions core plus Mistral's rules (``profile.py``): 9-character alphanumeric
tool call ids (renumbered consistently in call and result, ``tool-id-mapped``),
``tool_choice: "any"``, ``max_tokens``, the tool's ``name`` on each tool message (as in
Mistral's function-calling guide). Thinking is not sent back (Magistral reasons on its own;
``thinking-unsupported``). Decisions: DECISIONS.md beside this module.
"""

from __future__ import annotations

from harness.contract.warning_codes import Code
from harness.mapping.chat_completions import JSON, ReasoningMapper
from harness.mapping.dialects import Dialect, DialectAdapter, drop_reasoning
from harness.mapping.wire import Prepared, Warnings
from harness.params import CallParams
from harness.providers.mistral.profile import (
    CONTROLS,
    DEFAULT_MODEL,
    FILES,
    ID_POLICY,
    MAX_TOKENS_FIELD,
    TOOL_NAMES,
)

__all__ = ["ADAPTER", "DEFAULT_MODEL", "PROVIDER_ID", "controls"]

PROVIDER_ID = "mistral"


def _reasoning(prepared: Prepared, model: str, params: CallParams) -> ReasoningMapper:
    return drop_reasoning("Mistral Chat Completions takes no reasoning text back")


def controls(body: JSON, params: CallParams, warnings: Warnings, model: str) -> None:
    """Magistral models always reason and take no effort or switch (recorded:
    test_reasoning_wire_contract[mistral-magistral-always-on-no-effort]): nothing is sent."""
    if params.thinking is not None:
        warnings.add(
            None,
            None,
            None,
            Code.THINKING_PARAM_IGNORED,
            "Mistral has no reasoning switch or effort on Chat Completions; not sent",
        )


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
        tool_message_name=True,
    )
)
