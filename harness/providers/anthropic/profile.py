"""Anthropic Messages: the model facts the mapping depends on, kept apart from the mapping code.

Each fact names its evidence (API documentation or the API's own error text).
"""

from __future__ import annotations

from harness.contract.providers import provider_entry
from harness.mapping.call_controls import ControlNames
from harness.mapping.file_support import FileKind, FileSource, FileSupport
from harness.mapping.toolnames import NameRule
from harness.mapping.wire import IdPolicy

__all__ = [
    "ADAPTIVE_EFFORTS",
    "CACHE_TTLS",
    "CONTROLS",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MODEL",
    "DEFAULT_THINKING_BUDGET",
    "EFFORT_BUDGETS",
    "FILES",
    "IMAGE_MEDIA_TYPES",
    "MAX_BREAKPOINTS",
    "MIN_THINKING_BUDGET",
    "THINKING_TOP_P",
    "TOOL_ID_POLICY",
    "TOOL_NAMES",
]

#: The model a request names when ``params.model`` is None (the provider table's).
DEFAULT_MODEL = provider_entry("anthropic").default_model
#: ``max_tokens`` is required; sent when the caller gives none (plus the budget with thinking).
DEFAULT_MAX_TOKENS = 4096
DEFAULT_THINKING_BUDGET = 4096
#: ``thinking.budget_tokens``: "must be ≥1024 and less than max_tokens".
MIN_THINKING_BUDGET = 1024
#: ``thinking.effort`` -> budget tokens (effort is not sent as ``output_config.effort``).
EFFORT_BUDGETS: dict[str, int] = {"minimal": 1024, "low": 2048, "medium": 4096, "high": 16384}
# https://docs.claude.com/en/docs/build-with-claude/vision: the four accepted media types.
IMAGE_MEDIA_TYPES = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})
# Spec RequestToolUseBlock.id / RequestToolResultBlock.tool_use_id, and Tool.name.
TOOL_ID_POLICY = IdPolicy(pattern=r"[a-zA-Z0-9_-]+")
# Messages API Tool.name: ^[a-zA-Z0-9_-]{1,128}$.
TOOL_NAMES = NameRule("A-Za-z0-9_-", 128)


#: Files: ``document`` blocks take a PDF by base64, URL or file id and plain text (a ``text``
#: source holds the decoded text, ``media_type: text/plain``); an image by file id is an ``image``
#: block with a file source (anthropic SDK DocumentBlockParam sources: Base64PDFSource,
#: URLPDFSource, PlainTextSource, FileDocumentSource). Inside a ``tool_result`` as well (its
#: content is text, image, document and search-result blocks). Recorded accepted: pydantic-ai
#: test_document_url_input (URL), multimodal_tool_return_matrix[direct-uploaded_file-document-anthropic]
#: (file id inside tool_result), [tool_return_content-uploaded_file-image-anthropic] (image file id).
#: No audio or video block exists.
_DOCUMENTS: dict[FileKind, frozenset[FileSource]] = {
    "pdf": frozenset({"data", "url", "file_id"}),
    "text": frozenset({"data"}),
    "image": frozenset({"file_id"}),
}
FILES = FileSupport(
    provider="anthropic",
    title="Anthropic",
    user=_DOCUMENTS,
    tool=_DOCUMENTS,
    evidence="anthropic DocumentBlockParam; recorded test_document_url_input, multimodal_tool_return_matrix[*-anthropic]",
    # DocumentBlockParam context, citations and ContentBlockSource: recorded accepted in
    # clients2 langchain anthropic test_citations; BetaContainerUploadBlockParam {file_id}:
    # recorded accepted pydantic-ai test_code_execution_files_vcr__*.
    document_options=True,
    container_upload=True,
)


#: Call controls by native name (anthropic 2.12 ``MessageCreateParams``; docs api/messages):
#: ``top_p``, ``top_k``, ``stop_sequences``, ``service_tier`` (``auto`` / ``standard_only``).
#: Parallel tool use is ``tool_choice.disable_parallel_tool_use`` (mapped in ``params.py``).
#: No penalties, ``seed``, cache key or server-side state.
CONTROLS = ControlNames(
    "anthropic",
    cache="explicit",
    top_p="top_p",
    top_k="top_k",
    stop="stop_sequences",
    service_tier="service_tier",
    service_tiers=frozenset({"auto", "standard_only"}),
    settings=frozenset({"inference_geo"}),
)
#: ``top_p`` with extended thinking on (docs: build-with-claude/extended-thinking, "Feature
#: compatibility": "you can set top_p to values between 1 and 0.95").
THINKING_TOP_P = (0.95, 1.0)
#: Prompt caching (docs: build-with-claude/prompt-caching): "You can define up to 4 cache
#: breakpoints"; ``cache_control.ttl`` is ``5m`` (the default) or ``1h``.
MAX_BREAKPOINTS = 4
CACHE_TTLS = ("5m", "1h")
#: ``output_config.effort`` levels with adaptive thinking (docs: build-with-claude/effort:
#: low, medium, high, max; ``xhigh`` recorded accepted on claude-opus-4-7 and -4-8).
ADAPTIVE_EFFORTS = ("low", "medium", "high", "xhigh", "max")
