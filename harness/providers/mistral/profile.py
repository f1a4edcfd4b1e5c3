"""Mistral (``api.mistral.ai``): the model facts and dialect rules the mapping depends on.

Evidence for each rule: docs/field-rules.md ("Mistral") and the recordings in
traffic/pydantic-ai-more/ (``api.mistral.ai``, 37 model calls, all accepted).
"""

from __future__ import annotations

from harness.contract.providers import provider_entry
from harness.mapping.call_controls import ControlNames
from harness.mapping.dialects import AlnumIdPolicy
from harness.mapping.file_support import FileSupport
from harness.mapping.openai_family import OPENAI_TOOL_NAMES

__all__ = [
    "CONTROLS",
    "DEFAULT_MODEL",
    "FILES",
    "ID_POLICY",
    "MAX_TOKENS_FIELD",
    "TOOL_NAMES",
]

#: The model a request names when ``params.model`` is None (the provider table's).
DEFAULT_MODEL = provider_entry("mistral").default_model
#: "Tool call id was abc123 but must be a-z, A-Z, 0-9, with a length of 9." (HTTP 400,
#: quoted in langchain-ai/langchain#24668, openclaw/openclaw#57672); every id Mistral mints
#: in the recordings is 9 such characters (e.g. ``rHU0eZiMa``).
ID_POLICY = AlnumIdPolicy(length=9)
TOOL_NAMES = OPENAI_TOOL_NAMES
#: Mistral's ChatCompletionRequest has ``max_tokens`` (no ``max_completion_tokens``).
MAX_TOKENS_FIELD = "max_tokens"

#: Files: PDF documents as ``document_url`` (a URL, or the bytes as a base64 data URL): Mistral's
#: DocumentURLChunk (mistralai SDK models/documenturlchunk.py; docs.mistral.ai document
#: understanding); recorded accepted: pydantic-ai-more multimodal_tool_return_matrix
#: [direct-binary-document-mistral] (data URL) and [tool_return_content-url-document-mistral] (URL).
#: A tool message is text only: a result's file goes in a user message after the results.
FILES = FileSupport(
    provider="mistral",
    title="Mistral Chat Completions",
    user={"pdf": frozenset({"data", "url"})},
    forms={"pdf": "document_url"},
    evidence="mistralai DocumentURLChunk; recorded multimodal_tool_return_matrix[*-document-mistral]",
)


#: Call controls by native name (mistralai 3.7 ``ChatCompletionStreamRequest``): ``top_p``,
#: penalties -2..2, ``stop``, ``random_seed``, ``parallel_tool_calls``, ``prompt_cache_key``
#: (recorded accepted: traffic ``mistral-history-cache``); ``safe_prompt`` as a setting. No
#: ``top_k``, service tier or server-side state.
CONTROLS = ControlNames(
    "mistral",
    top_p="top_p",
    presence_penalty="presence_penalty",
    frequency_penalty="frequency_penalty",
    stop="stop",
    seed="random_seed",
    parallel_tool_calls="parallel_tool_calls",
    cache_key="prompt_cache_key",
    settings=frozenset({"safe_prompt"}),
)
