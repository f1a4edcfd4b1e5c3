"""Z.ai (``api.z.ai/api/paas/v4``, ``open.bigmodel.cn``): the model facts and dialect rules.

Evidence: docs/field-rules.md ("Z.ai") and the recordings in traffic/pydantic-ai-more/
(``api.z.ai``, 10 model calls, all accepted).
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
    "effort_models",
]

#: The model a request names when ``params.model`` is None (the provider table's).
DEFAULT_MODEL = provider_entry("zai").default_model
ID_POLICY = IdPolicy()
TOOL_NAMES = OPENAI_TOOL_NAMES
#: Z.ai's chat completions API documents ``max_tokens``.
MAX_TOKENS_FIELD = "max_tokens"


def effort_models(model: str) -> bool:
    """GLM-5 takes ``reasoning_effort`` (recorded: glm-5.2 "high", glm-5.3 "max")."""
    return model.startswith("glm-5")


#: Files: none. Z.ai's text models take text content (docs.z.ai/api-reference/llm/chat-completion); file and video parts exist only on its vision models, not modelled here. A text document goes as its decoded text (``file-text-inlined``); any other
#: file is dropped with ``file-kind-unsupported``.
FILES = FileSupport(
    provider="zai",
    title="Z.ai Chat Completions",
    evidence="Z.ai's text models take text content (docs.z.ai/api-reference/llm/chat-completion); file and video parts exist only on its vision models, not modelled here.",
)


#: Call controls by native name (docs.z.ai/api-reference/llm/chat-completion): ``top_p``,
#: ``stop`` ("currently only supports a single stop word"). No ``top_k``, penalties, ``seed``,
#: parallel switch, service tier or cache key.
CONTROLS = ControlNames("zai", top_p="top_p", stop="stop", max_stop=1)
