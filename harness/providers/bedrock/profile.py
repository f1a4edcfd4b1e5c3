"""AWS Bedrock Converse: the model facts behind the one wire, kept apart from the mapping code.

Bedrock serves many model families through one Converse body; what differs between them
is decided here from the model id, each fact with its evidence: a recorded request Bedrock
accepted or rejected (``traffic/pydantic-ai-more/``, pydantic-ai's cassettes, cited
``file#interaction``), then the AWS documentation
(https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference-supported-models-features.html).
Model ids may carry a cross-region prefix (``us.``, ``eu.``, ``apac.``, ``global.``); the
family is the provider segment after it.
"""

from __future__ import annotations

import re

from harness.contract.providers import provider_entry
from harness.mapping.call_controls import ControlNames
from harness.mapping.file_support import FileKind, FileSource, FileSupport
from harness.mapping.toolnames import NameRule
from harness.mapping.wire import IdPolicy

__all__ = [
    "CONTROLS",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MODEL",
    "DEFAULT_THINKING_BUDGET",
    "DOCUMENT_FORMATS",
    "FILES",
    "IMAGE_FORMATS",
    "MIN_THINKING_BUDGET",
    "TOOL_ID_POLICY",
    "TOOL_NAMES",
    "VIDEO_FORMATS",
    "family",
    "files_for",
    "reasoning_style",
    "takes_tool_result_images",
    "top_k_field",
]

#: The model a request names when ``params.model`` is None (the provider table's).
DEFAULT_MODEL = provider_entry("bedrock").default_model
#: Sent as ``inferenceConfig.maxTokens`` with thinking (Anthropic requires max_tokens > budget).
DEFAULT_MAX_TOKENS = 4096
DEFAULT_THINKING_BUDGET = 4096
#: Anthropic's ``thinking.budget_tokens`` minimum, forwarded unchanged by Bedrock.
MIN_THINKING_BUDGET = 1024
#: botocore service model ``ImageFormat`` enum: media subtype -> Converse ``image.format``.
IMAGE_FORMATS: dict[str, str] = {
    "image/png": "png",
    "image/jpeg": "jpeg",
    "image/gif": "gif",
    "image/webp": "webp",
}
#: Service model ``ToolUseId``: pattern ``[a-zA-Z0-9_.:-]+``, 1..64 characters.
TOOL_ID_POLICY = IdPolicy(pattern=r"[a-zA-Z0-9_.:-]+", max_length=64)
#: Service model ``ToolName``: pattern ``[a-zA-Z0-9_-]+``, 1..64 characters.
TOOL_NAMES = NameRule("A-Za-z0-9_-", 64)

_PREFIX = re.compile(r"^(?:us|eu|apac|us-gov|global|jp|au|ca)\.")


def family(model: str) -> str:
    """The provider segment of a Bedrock model id: ``anthropic``, ``amazon``, ``meta``, ``mistral``,
    ``deepseek``, ``qwen``, ``openai``, ``writer``, ... (``us.anthropic.claude-...`` -> ``anthropic``)."""
    return _PREFIX.sub("", model).split(".", 1)[0]


#: Families seen accepting an ``image`` block inside ``toolResult.content`` (HTTP 200):
#: anthropic (models__test_multimodal_tool_returns__test_mixed_content_ordering[bedrock_claude].yaml#1),
#: amazon Nova (models__test_multimodal_tool_returns__test_multimodal_tool_return_matrix[direct-uploaded_file-image-bedrock_nova].yaml#1, an s3Location image),
#: meta Llama 4 (models__test_bedrock__test_bedrock_media_kind_delivered_in_tool_result[meta_image].yaml#1).
#: AWS lists tool-result images for Claude 3+ and Nova. Mistral is not among them: pydantic-ai sends
#: Pixtral's tool-returned images as a user message after the result
#: (models__test_bedrock__test_bedrock_mistral_tool_return_image_accepted.yaml#0), and so do we.
_TOOL_RESULT_IMAGES = frozenset({"anthropic", "amazon", "meta"})


def takes_tool_result_images(model: str) -> bool:
    return family(model) in _TOOL_RESULT_IMAGES


def reasoning_style(model: str) -> str | None:
    """How a model takes a reasoning switch in ``additionalModelRequestFields``, None if it takes none.

    - ``anthropic``: ``thinking: {type: enabled, budget_tokens}`` (Claude 3.7+;
      models__test_bedrock__test_bedrock_model_thinking_part_anthropic.yaml#0, claude-sonnet-4;
      the reasoningContent sent back with its signature is accepted in #1);
    - ``openai``: ``reasoning_effort`` (gpt-oss;
      models__test_bedrock__test_bedrock_thinking_high_openai_variant.yaml#0);
    - ``qwen``: ``reasoning_config`` (qwen3;
      models__test_bedrock__test_bedrock_thinking_high_qwen_variant.yaml#0).
    DeepSeek R1 reasons always, with no switch (models__test_bedrock__test_bedrock_model_thinking_part_deepseek.yaml#0).
    """
    kind = family(model)
    if kind == "anthropic" and not re.search(r"claude-(instant|v2|3-(haiku|sonnet|opus|5))", model):
        return "anthropic"
    if kind in ("openai", "qwen"):
        return kind
    return None


def top_k_field(model: str) -> tuple[str, ...] | None:
    """Where ``top_k`` goes (Converse's ``inferenceConfig`` has no top_k), None where it is unknown.

    Anthropic: ``additionalModelRequestFields.top_k``
    (models__test_bedrock__test_bedrock_top_k_anthropic_variant.yaml#0); Nova:
    ``additionalModelRequestFields.inferenceConfig.topK``
    (models__test_bedrock__test_bedrock_top_k_nova_variant.yaml#0).
    """
    kind = family(model)
    if kind == "anthropic":
        return ("top_k",)
    if kind == "amazon":
        return ("inferenceConfig", "topK")
    return None


#: DocumentBlock.format by media type (the service model's DocumentFormat enum).
DOCUMENT_FORMATS: dict[str, str] = {
    "application/pdf": "pdf",
    "text/csv": "csv",
    "application/msword": "doc",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "application/vnd.ms-excel": "xls",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
    "text/html": "html",
    "text/plain": "txt",
    "text/markdown": "md",
}
#: VideoBlock.format by media type (the service model's VideoFormat enum).
VIDEO_FORMATS: dict[str, str] = {
    "video/x-matroska": "mkv",
    "video/quicktime": "mov",
    "video/mp4": "mp4",
    "video/webm": "webm",
    "video/x-flv": "flv",
    "video/mpeg": "mpeg",
    "video/x-ms-wmv": "wmv",
    "video/3gpp": "three_gp",
}
_BYTES_OR_S3: frozenset[FileSource] = frozenset({"data", "uri"})
_BLOCKS: dict[FileKind, frozenset[FileSource]] = {
    "pdf": _BYTES_OR_S3,
    "text": _BYTES_OR_S3,
    "other": _BYTES_OR_S3,
    "video": _BYTES_OR_S3,
    "image": frozenset({"uri"}),
}
_MEDIA_TYPES: dict[FileKind, frozenset[str]] = {
    "text": frozenset(t for t in DOCUMENT_FORMATS if t.startswith("text/")),
    "other": frozenset(t for t in DOCUMENT_FORMATS if not t.startswith("text/") and t != "application/pdf"),
    "video": frozenset(VIDEO_FORMATS),
    "image": frozenset(f"image/{f}" for f in ("png", "jpeg", "gif", "webp")),
}
_EVIDENCE = (
    "bedrock-runtime DocumentBlock, VideoBlock, ImageSource.s3Location, ToolResultContentBlock; recorded "
    "test_bedrock_nova_tool_result_followed_by_document_accepted (txt bytes), test_video_url_input, "
    "multimodal_tool_return_matrix[*-uploaded_file-video-bedrock_nova] (s3Location), "
    "test_bedrock_media_kind_delivered_in_tool_result[meta_document] (a document inside toolResult)"
)
_DOCUMENTS: dict[FileKind, frozenset[FileSource]] = {
    k: v for k, v in _BLOCKS.items() if k in ("pdf", "text", "other")
}
#: Files: documents and video by bytes or ``s3Location`` (no URL, no file id, no audio block), an
#: image by ``s3Location``. Inside ``toolResult``: documents for every family (recorded accepted for
#: meta, mistral and anthropic: test_bedrock_media_kind_delivered_in_tool_result[meta_document],
#: [mistral_document], multimodal_tool_return_matrix[direct-binary-document-bedrock_claude]); images
#: and video only for the families that take images there (``takes_tool_result_images``).
FILES = FileSupport(
    provider="bedrock",
    title="Bedrock Converse",
    user=_BLOCKS,
    tool=_DOCUMENTS,
    media_types=_MEDIA_TYPES,
    uri_schemes=("s3://",),
    evidence=_EVIDENCE,
    document_options=True,  # DocumentBlock context, citations, source.content (service model)
)
_FILES_IN_RESULTS = FileSupport(
    provider="bedrock",
    title="Bedrock Converse",
    user=_BLOCKS,
    tool=_BLOCKS,
    media_types=_MEDIA_TYPES,
    uri_schemes=("s3://",),
    evidence=_EVIDENCE,
    document_options=True,  # DocumentBlock context, citations, source.content (service model)
)


def files_for(model: str) -> FileSupport:
    """What the model takes as files: images and video inside ``toolResult`` too where its family takes media there."""
    return _FILES_IN_RESULTS if takes_tool_result_images(model) else FILES


#: Call controls by native name (Converse API reference, InferenceConfiguration):
#: ``inferenceConfig.topP`` and ``inferenceConfig.stopSequences`` (up to 4); ``serviceTier``
#: is an object (``{"type": ...}``, recorded ``default``); ``top_k`` is a model's own field in
#: ``additionalModelRequestFields`` (mapped in ``request.py``); ``guardrailConfig`` as a setting.
#: No penalties, ``seed``, parallel switch, cache key or server-side state.
CONTROLS = ControlNames(
    "bedrock",
    cache="explicit",
    top_p="inferenceConfig.topP",
    stop="inferenceConfig.stopSequences",
    service_tier="serviceTier.type",
    service_tiers=frozenset({"priority", "default", "flex", "reserved"}),
    settings=frozenset({"guardrailConfig"}),
    max_stop=4,
)
