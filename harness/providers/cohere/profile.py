"""Cohere v2 Chat (``POST https://api.cohere.com/v2/chat``): the model facts the mapping depends on.

Evidence: the recorded calls in traffic/pydantic-ai-more/ (``api.cohere.com/v2/chat``, 8 calls,
all accepted) and traffic/pydantic-ai/models__test_cohere__test_cohere_model_thinking_part.yaml;
the ``cohere`` SDK's v2 request types (``cohere.v2.raw_client.RawV2Client.chat``); the API
reference (https://docs.cohere.com/v2/reference/chat, https://docs.cohere.com/docs/reasoning).
"""

from __future__ import annotations

import re

from harness.contract.providers import provider_entry
from harness.mapping.call_controls import ControlNames
from harness.mapping.file_support import FileSupport
from harness.mapping.openai_family import OPENAI_TOOL_NAMES
from harness.mapping.wire import IdPolicy

__all__ = [
    "CONTROLS",
    "DEFAULT_MODEL",
    "FILES",
    "ID_POLICY",
    "TOOL_NAMES",
    "reasons",
]

#: The model a request names when ``params.model`` is None (the provider table's).
DEFAULT_MODEL = provider_entry("cohere").default_model
#: ``ToolCallV2.id`` is any string; Cohere mints ``{name}_{12 alphanumerics}``
#: (``get_weather_9gpb31r7h7mj``); no documented limit, so any non-empty id is sent as it is.
ID_POLICY = IdPolicy()
#: ``ToolV2Function.name`` has no documented pattern; the tools are the OpenAI function shape and
#: every recorded name fits OpenAI's rule, so a name outside it is mapped reversibly (``tool-name-mapped``).
TOOL_NAMES = OPENAI_TOOL_NAMES

# Cohere's reasoning models (docs/reasoning: "Cohere's reasoning models are hybrid"): the
# ``command-a-reasoning`` family. Thinking is sent back to them as ``{"type": "thinking"}``
# content (recorded 200: traffic/pydantic-ai/models__test_cohere__test_cohere_model_thinking_part.yaml#1).
_REASONING_MODEL = re.compile(r"command-a-reasoning")


def reasons(model: str) -> bool:
    """Whether the model takes the ``thinking`` parameter (a reasoning model)."""
    return _REASONING_MODEL.search(model) is not None


#: Files: none. Cohere v2 user content is text and image_url (docs.cohere.com/reference/chat); documents go in the top-level documents field, which is grounding, not a file part. A text document goes as its decoded text (``file-text-inlined``); any other
#: file is dropped with ``file-kind-unsupported``.
FILES = FileSupport(
    provider="cohere",
    title="Cohere v2 Chat",
    evidence="Cohere v2 user content is text and image_url (docs.cohere.com/reference/chat); documents go in the top-level documents field, which is grounding, not a file part.",
)


#: Call controls by native name (cohere 7.3 ``V2Client.chat``; docs.cohere.com/v2/reference/chat):
#: ``p`` (0.01..0.99), ``k`` (0..500), penalties 0..1, ``stop_sequences``, ``seed``;
#: ``safety_mode`` as a setting. No parallel switch, service tier, cache key or server-side state.
CONTROLS = ControlNames(
    "cohere",
    cache="none",
    top_p="p",
    top_k="k",
    presence_penalty="presence_penalty",
    frequency_penalty="frequency_penalty",
    stop="stop_sequences",
    seed="seed",
    settings=frozenset({"safety_mode"}),
    top_p_range=(0.01, 0.99),
    penalty_range=(0.0, 1.0),
)
