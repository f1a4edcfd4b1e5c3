"""OpenAI Responses: the model facts the mapping depends on, kept apart from the mapping code."""

from __future__ import annotations

from harness.contract.providers import provider_entry
from harness.mapping.call_controls import ControlNames
from harness.mapping.file_support import FileKind, FileSource, FileSupport
from harness.mapping.openai_family import OPENAI_TOOL_NAMES, accepts_reasoning
from harness.mapping.wire import IdPolicy

__all__ = [
    "CONTROLS",
    "DEFAULT_MODEL",
    "FILES",
    "ID_POLICY",
    "MESSAGE_PHASES",
    "MIN_OUTPUT_TOKENS",
    "TOOL_NAMES",
    "accepts_reasoning",
]

PROVIDER_ID = "openai-responses"
#: The model a request names when ``params.model`` is None (the provider table's).
DEFAULT_MODEL = provider_entry("openai-responses").default_model
# FunctionCallOutputItemParam.call_id: maxLength 64 (field lesson 6).
ID_POLICY = IdPolicy(max_length=64)
TOOL_NAMES = OPENAI_TOOL_NAMES
# CreateResponse.max_output_tokens: minimum 16.
MIN_OUTPUT_TOKENS = 16
# MessagePhase (OutputMessage.phase, EasyInputMessage.phase).
MESSAGE_PHASES = ("commentary", "final_answer")


_ANY_SOURCE: frozenset[FileSource] = frozenset({"data", "url", "file_id"})
_INPUT_FILES: dict[FileKind, frozenset[FileSource]] = {
    "pdf": _ANY_SOURCE,
    "text": _ANY_SOURCE,
    "other": _ANY_SOURCE,
    "image": frozenset({"file_id"}),
}
#: Files: ``input_file`` (``file_data`` a base64 data URL, ``file_url`` or ``file_id``; ``filename``)
#: for documents ("The Responses API accepts the file types listed below as input_file items": PDF,
#: text and code, rich documents, spreadsheets; developers.openai.com/api/docs/guides/file-inputs), and ``input_image`` by ``file_id`` for an image file: the SDK's
#: ResponseInputContentParam (input_text | input_image | input_file, no audio or video) and
#: ResponseInputFileParam; ``function_call_output.output`` takes the same parts
#: (ResponseFunctionCallOutputItemListParam). Recorded accepted: langchain
#: TestChatOpenAICodexStandard.test_pdf_inputs, pydantic-ai multimodal_tool_return_matrix
#: [direct-uploaded_file-document-openai_responses] (file id in the output),
#: [tool_return_content-uploaded_file-image-openai_responses] (input_image by file id).
FILES = FileSupport(
    provider="openai",
    title="OpenAI Responses",
    user=_INPUT_FILES,
    tool=_INPUT_FILES,
    evidence="openai ResponseInputContentParam, ResponseInputFileParam; recorded test_pdf_inputs, "
    "multimodal_tool_return_matrix[*-openai_responses]",
)


#: Call controls by native name (openai 3.54 ``ResponseCreateParams``; API reference
#: responses/create): ``top_p``, ``parallel_tool_calls``, ``service_tier``, ``prompt_cache_key``,
#: ``prompt_cache_retention``, server-side state (``previous_response_id``, ``conversation``,
#: ``store``, ``background``, ``include``); ``moderation`` as a setting. Responses has no
#: ``top_k``, penalties, ``stop`` or ``seed``.
CONTROLS = ControlNames(
    "openai-responses",
    top_p="top_p",
    parallel_tool_calls="parallel_tool_calls",
    service_tier="service_tier",
    service_tiers=frozenset({"auto", "default", "flex", "scale", "priority", "fast", "ultrafast"}),
    cache_key="prompt_cache_key",
    cache_retention="prompt_cache_retention",
    previous_response_id="previous_response_id",
    conversation="conversation",
    store="store",
    background="background",
    include="include",
    settings=frozenset({"moderation", "safety_identifier"}),
)
