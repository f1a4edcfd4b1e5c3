"""import-check's open entries: differences decided as our adapter's to fix, never allowed.

Each ``Pending`` entry has the five facts of an allowance (id, provider, where, why,
evidence) and the anchor of its decision in docs/import-check-decisions.md (the rule, the
intended adapter change and its golden impact). A request whose only differences beyond
``ALLOWLIST`` are these is reported as open: adapter change pending.
"""

from __future__ import annotations

from harness import import_shapes as shapes
from harness.import_allowlist import Pending, pending, rewritten

__all__ = ["PENDING", "PENDING_BY_ID"]


#: Differences decided as "our adapter is wrong" (docs/import-check-decisions.md): open, never allowed.
PENDING: tuple[Pending, ...] = (
    pending(
        "anthropic-inline-system-hoisted",
        "anthropic",
        "$",
        "changed",
        "a system message inside messages is hoisted into the top-level system prompt, which moves the "
        "instruction to the start and changes the cached prefix; the traffic shows the model accepts it "
        "in place",
        **rewritten(shapes.hoist_anthropic_system_messages, lambda v: v),
        evidence="in place accepted: traffic/pydantic-ai/models__test_anthropic_mid_conversation_system__"
        "test_mid_conversation_system_prompt_kept_mid_history.yaml#0 (claude-opus-4-8)",
        decision="inline-system",
    ),
    pending(
        "chat-inline-system-hoisted",
        "openai-chat",
        "messages",
        "changed",
        "a system message after another role is hoisted into the leading system message, which moves the "
        "instruction to the start; the traffic shows it accepted in place",
        **rewritten(shapes.hoist_chat_system_messages, lambda v: {"messages": v}),
        evidence="system after user accepted: traffic/pydantic-ai/test_tool_availability_portability__test_"
        "tool_availability_portability_matrix[R4-T6-announcement].yaml#0",
        decision="inline-system",
    ),
)


PENDING_BY_ID = {p.id: p for p in PENDING}
