"""Hugging Face's router (``router.huggingface.co``): the model facts and dialect rules.

Evidence: docs/field-rules.md ("Hugging Face") and the recordings in traffic/pydantic-ai-more/
(``router.huggingface.co``, 9 model calls through Together and Nebius, all accepted).
"""

from __future__ import annotations

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
    "MAX_TOKENS_FIELD",
    "TOOL_NAMES",
]

#: The model a request names when ``params.model`` is None (the provider table's).
DEFAULT_MODEL = provider_entry("huggingface").default_model
ID_POLICY = IdPolicy()
TOOL_NAMES = OPENAI_TOOL_NAMES
#: The router forwards to inference providers of varying age; ``max_tokens`` is the field
#: every one reads (recorded: models__test_huggingface__test_max_completion_tokens.yaml#0).
MAX_TOKENS_FIELD = "max_tokens"

#: Files: none. huggingface_hub's ChatCompletionInputMessageChunk is text or image_url; no file part. A text document goes as its decoded text (``file-text-inlined``); any other
#: file is dropped with ``file-kind-unsupported``.
FILES = FileSupport(
    provider="huggingface",
    title="the Hugging Face router",
    evidence="huggingface_hub's ChatCompletionInputMessageChunk is text or image_url; no file part.",
)


#: Call controls by native name (huggingface_hub 2.4 ``InferenceClient.chat_completion``):
#: ``top_p``, penalties -2..2, ``stop`` (up to 4), ``seed``. No ``top_k`` (Chat), parallel switch,
#: service tier or cache key.
CONTROLS = ControlNames(
    "huggingface",
    cache="none",
    top_p="top_p",
    presence_penalty="presence_penalty",
    frequency_penalty="frequency_penalty",
    stop="stop",
    seed="seed",
    max_stop=4,
)
