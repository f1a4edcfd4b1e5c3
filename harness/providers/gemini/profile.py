"""Gemini: the model facts the mapping depends on (version gates, Gemma, names, media types).

Mapping code asks these functions instead of testing model names inline; each fact
names its evidence (API documentation or the API's own error text).
"""

from __future__ import annotations

import re

from harness.contract.providers import provider_entry
from harness.mapping.call_controls import ControlNames
from harness.mapping.file_support import FileSource, FileSupport
from harness.mapping.toolnames import NameRule
from harness.mapping.wire import IdPolicy

__all__ = [
    "ACCEPTS_UNDECLARED_CALLS",
    "CONTROLS",
    "DEFAULT_MODEL",
    "EFFORT_TO_LEVEL",
    "FILES",
    "ID_POLICY",
    "MIME_BY_EXTENSION",
    "TOOL_NAMES",
    "accepts_system_instruction",
    "can_disable_thinking",
    "files_for",
    "function_response_parts",
    "validates_call_signatures",
    "version",
]

#: The model a request names when ``params.model`` is None (the provider table's).
DEFAULT_MODEL = provider_entry("gemini").default_model
#: A history may call a tool the request does not declare (beside declared ones): accepted in
#: traffic/pydantic-ai/models__test_multimodal_tool_returns__test_multimodal_tool_return_matrix
#: [direct-binary-image-google_gemini3].yaml#1, so no declaration is derived for it.
ACCEPTS_UNDECLARED_CALLS = True
# Gemini's function call ids are optional and unconstrained; only empty ids get mapped.
ID_POLICY = IdPolicy()
# generativelanguage v1beta FunctionDeclaration.name: "Must be a-z, A-Z, 0-9, or contain
# underscores, colons, dots, and dashes, with a maximum length of 64"; Vertex adds "Must
# start with a letter or an underscore". The stricter reading of both is kept.
TOOL_NAMES = NameRule("A-Za-z0-9_.:-", 64, first="A-Za-z_")
#: Accepted image types, by the file extension an ``image_file`` part names.
MIME_BY_EXTENSION = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".webp": "image/webp",
    ".gif": "image/gif",
    ".heic": "image/heic",
    ".heif": "image/heif",
}
#: ``thinking.effort`` -> ``thinkingConfig.thinkingLevel`` (Gemini 3).
EFFORT_TO_LEVEL = {"minimal": "MINIMAL", "low": "LOW", "medium": "MEDIUM", "high": "HIGH"}


def version(model: str) -> float | None:
    """``gemini-2.5-pro`` -> 2.5, ``gemini-3-pro-preview`` -> 3.0; None for aliases and non-Gemini models."""
    m = re.match(r"(?:models/)?gemini-(\d+(?:\.\d+)?)", model)
    return float(m.group(1)) if m else None


def accepts_system_instruction(model: str) -> bool:
    """Gemma models on the Gemini API reject ``systemInstruction`` ("Developer instruction is
    not enabled for models/gemma-..."); their system text must travel in the first user turn."""
    return not model.removeprefix("models/").startswith("gemma")


def _since(model: str, first: float) -> bool:
    found = version(model)
    return found is not None and found >= first


def function_response_parts(model: str) -> bool:
    """Gemini 3 accepts images inside ``functionResponse.parts`` (multimodal function
    responses, https://ai.google.dev/gemini-api/docs/function-calling); older models do not."""
    return _since(model, 3)


def validates_call_signatures(model: str) -> bool:
    """Gemini 3 and later reject current-turn function calls without a thought signature."""
    return _since(model, 3)


def can_disable_thinking(model: str) -> bool:
    """``thinkingBudget: 0`` turns thinking off on 2.5 Flash / Flash-Lite; Gemini 2.5 Pro and
    Gemini 3 cannot turn it off (https://ai.google.dev/gemini-api/docs/thinking#set-budget)."""
    return not (_since(model, 3) or model.startswith("gemini-2.5-pro"))


_EVERY_SOURCE: frozenset[FileSource] = frozenset({"data", "url", "file_id", "uri"})

#: Files: PDFs, text, audio and video as ``inlineData`` (bytes) or ``fileData`` (a URL, a YouTube
#: URL, a Files API name, a ``gs://`` URI) in user contents, and images by reference with their
#: media type (fileData.mimeType) (docs: document-processing, audio,
#: video, files; recorded accepted: pydantic-ai test_google_model_youtube_video_url_input,
#: test_google_model_text_as_binary_content_input, multimodal_tool_return_matrix[*-google_2_5],
#: pydantic-ai-more test_google_url_input[DocumentUrl (gs)] on Vertex AI). Inside a function
#: response only on multimodal-function-response models (``files_for``).
FILES = FileSupport(
    provider="gemini",
    title="Gemini",
    user=dict.fromkeys(("pdf", "text", "audio", "video", "image"), _EVERY_SOURCE),
    uri_schemes=("gs://",),
    evidence="ai.google.dev Part (inlineData, fileData, videoMetadata); recorded "
    "test_google_model_youtube_video_url_input(_with_vendor_metadata), "
    "multimodal_tool_return_matrix[*-google_2_5|gemini3], test_google_url_input[DocumentUrl (gs)]",
    video_metadata=True,
)

#: Gemini 3's multimodal function responses take files too: recorded accepted
#: multimodal_tool_return_matrix[direct-uploaded_file-document-google_gemini3] (fileData inside
#: ``functionResponse.parts``) and [direct-url-document-google_gemini3] (inlineData inside).
_FILES_IN_RESPONSES = FileSupport(
    provider=FILES.provider,
    title=FILES.title,
    user=FILES.user,
    tool=FILES.user,
    uri_schemes=FILES.uri_schemes,
    evidence=FILES.evidence,
    video_metadata=FILES.video_metadata,
)


def files_for(model: str) -> FileSupport:
    """What the model takes as files: Gemini 3 holds them inside function responses as well."""
    return _FILES_IN_RESPONSES if function_response_parts(model) else FILES


#: Call controls by native name (google-genai 3.4 ``GenerationConfig``; ai.google.dev/api/generate-content):
#: ``generationConfig.topP``, ``topK``, ``presencePenalty``, ``frequencyPenalty``,
#: ``stopSequences`` (up to 5), ``seed``; ``cachedContent`` (a ``cachedContents/...`` name);
#: ``safetySettings`` and Vertex's ``modelArmorConfig`` as settings. No parallel-call switch,
#: no service tier, no cache key.
CONTROLS = ControlNames(
    "gemini",
    top_p="generationConfig.topP",
    top_k="generationConfig.topK",
    presence_penalty="generationConfig.presencePenalty",
    frequency_penalty="generationConfig.frequencyPenalty",
    stop="generationConfig.stopSequences",
    seed="generationConfig.seed",
    cached_content="cachedContent",
    settings=frozenset({"safetySettings", "modelArmorConfig"}),
    max_stop=5,
)
