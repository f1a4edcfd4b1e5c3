"""Hypothesis strategies for the canonical model.

Three families, all built from small lists and samples so that failures shrink to short,
readable histories (no filter-heavy strategies):

- any *valid* model object (``histories``, ``history_events``, ...): what the codec
  round trip and never-crash checks need;
- per-provider representable assistant messages (``representable_messages``): what a
  provider's stream can carry, for the I11 round trip ``parse(emit(m)) == m``;
- agent loops as an agent CLI produces them (``agent_loops``, ``well_formed_turn``) and
  their adversarial mutations (``adversarial_histories``), for the input-side invariants
  and never-crash checks of the request adapters; ``loop_contract_violations`` checks
  the loop contract they keep.

One module per job: ``parts`` and ``events`` (valid objects), ``representable``,
``loops``, ``adversarial``, and ``loop_contract`` (the checker). This facade keeps the names.
"""

from __future__ import annotations

#: The pinned provider ids, in order (what ``agent_loops(provider)`` and ``representable_messages`` take).
from harness.contract.providers import PROVIDERS as PROVIDERS
from harness.strategies.adversarial import NASTY_TEXT as NASTY_TEXT
from harness.strategies.adversarial import adversarial_histories as adversarial_histories
from harness.strategies.events import added_tools as added_tools
from harness.strategies.events import assistant_messages as assistant_messages
from harness.strategies.events import developer_messages as developer_messages
from harness.strategies.events import error_events as error_events
from harness.strategies.events import histories as histories
from harness.strategies.events import history_events as history_events
from harness.strategies.events import system_messages as system_messages
from harness.strategies.events import task_metadata_events as task_metadata_events
from harness.strategies.events import tool_addition_messages as tool_addition_messages
from harness.strategies.events import tool_messages as tool_messages
from harness.strategies.events import user_messages as user_messages
from harness.strategies.loop_contract import loop_contract_violations as loop_contract_violations
from harness.strategies.loops import agent_loops as agent_loops
from harness.strategies.loops import well_formed_turn as well_formed_turn
from harness.strategies.parts import SIGNATURE_FORMATS as SIGNATURE_FORMATS
from harness.strategies.parts import TINY_IMAGES as TINY_IMAGES
from harness.strategies.parts import assistant_parts as assistant_parts
from harness.strategies.parts import content_parts as content_parts
from harness.strategies.parts import file_parts as file_parts
from harness.strategies.parts import ids as ids
from harness.strategies.parts import image_file_parts as image_file_parts
from harness.strategies.parts import image_parts as image_parts
from harness.strategies.parts import image_url_parts as image_url_parts
from harness.strategies.parts import json_scalars as json_scalars
from harness.strategies.parts import model_ids as model_ids
from harness.strategies.parts import optional_ids as optional_ids
from harness.strategies.parts import provider_parts as provider_parts
from harness.strategies.parts import server_tool_runs as server_tool_runs
from harness.strategies.parts import text as text
from harness.strategies.parts import text_parts as text_parts
from harness.strategies.parts import thinking_signature_parts as thinking_signature_parts
from harness.strategies.parts import thinking_text_parts as thinking_text_parts
from harness.strategies.parts import timestamps as timestamps
from harness.strategies.parts import tool_call_parts as tool_call_parts
from harness.strategies.parts import usages as usages
from harness.strategies.representable import PROVIDER_MODELS as PROVIDER_MODELS

#: Text of at least one character (a part a stream can carry).
from harness.strategies.representable import nonempty_text as nonempty_text
from harness.strategies.representable import representable_messages as representable_messages
from harness.strategies.representable import signatures as signatures

__all__ = [
    "NASTY_TEXT",
    "PROVIDERS",
    "PROVIDER_MODELS",
    "SIGNATURE_FORMATS",
    "TINY_IMAGES",
    "added_tools",
    "adversarial_histories",
    "agent_loops",
    "assistant_messages",
    "assistant_parts",
    "content_parts",
    "developer_messages",
    "error_events",
    "file_parts",
    "histories",
    "history_events",
    "ids",
    "image_file_parts",
    "image_parts",
    "image_url_parts",
    "json_scalars",
    "loop_contract_violations",
    "model_ids",
    "nonempty_text",
    "optional_ids",
    "provider_parts",
    "representable_messages",
    "server_tool_runs",
    "signatures",
    "system_messages",
    "task_metadata_events",
    "text",
    "text_parts",
    "thinking_signature_parts",
    "thinking_text_parts",
    "timestamps",
    "tool_addition_messages",
    "tool_call_parts",
    "tool_messages",
    "usages",
    "user_messages",
    "well_formed_turn",
]
