"""OpenAI Chat Completions: the model facts the mapping depends on, kept apart from the mapping code."""

from __future__ import annotations

from harness.contract.providers import provider_entry
from harness.mapping.call_controls import ControlNames
from harness.mapping.file_support import FileSupport
from harness.mapping.openai_family import OPENAI_TOOL_NAMES, accepts_reasoning
from harness.mapping.wire import IdPolicy

__all__ = [
    "ACCEPTS_SYSTEM_ONLY",
    "CONTROLS",
    "DEFAULT_MODEL",
    "FILES",
    "ID_POLICY",
    "TOOL_NAMES",
    "accepts_reasoning",
]

#: The model a request names when ``params.model`` is None (the provider table's).
DEFAULT_MODEL = provider_entry("openai-chat").default_model
# ChatCompletionMessageToolCall.id: the API enforces maxLength 40 (not in the spec).
ID_POLICY = IdPolicy(max_length=40)
TOOL_NAMES = OPENAI_TOOL_NAMES
#: ``messages`` holding only the system message is accepted
#: (traffic/pydantic-ai/models__test_openai__test_openai_model_without_system_prompt.yaml#0, o3-mini):
#: no placeholder user message is invented after a system-only history.
ACCEPTS_SYSTEM_ONLY = True

#: Files: PDFs as ``file`` (``file_data``, a base64 data URL, or ``file_id``; ``filename``): "Chat
#: Completions accepts only PDF files as file content parts" and no ``file_url``
#: (developers.openai.com/api/docs/guides/file-inputs; SDK ChatCompletionContentPartParam ``File``).
#: "To use text from a file in Chat Completions, read the file ... and send its contents as a text
#: content part": a text document goes as its text (file-text-inlined). Audio as ``input_audio``
#: (base64, ``format`` wav or mp3: "Currently supports wav and mp3") on the audio models only
#: (``files_for``). Recorded accepted: pydantic-ai test_document_as_binary_content_input_with_tool,
#: test_audio_as_binary_content_input (gpt-4o-audio-preview). A tool message is text only: a
#: result's file goes in a user message after the results (recorded: multimodal_tool_return_matrix
#: [tool_return_content-binary-document-openai_chat]). Video: no part.
FILES = FileSupport(
    provider="openai",
    title="OpenAI Chat Completions",
    user={"pdf": frozenset({"data", "file_id"})},
    evidence="developers.openai.com/api/docs/guides/file-inputs; openai ChatCompletionContentPartParam (File); "
    "recorded test_document_as_binary_content_input_with_tool",
)
_AUDIO_FILES = FileSupport(
    provider="openai",
    title="OpenAI Chat Completions",
    user={"pdf": frozenset({"data", "file_id"}), "audio": frozenset({"data"})},
    forms={"audio": "input_audio"},
    media_types={"audio": frozenset({"audio/wav", "audio/x-wav", "audio/wave", "audio/mpeg", "audio/mp3"})},
    evidence="openai ChatCompletionContentPartInputAudioParam; recorded test_audio_as_binary_content_input "
    "(gpt-4o-audio-preview)",
)


def files_for(model: str) -> FileSupport:
    """What the model takes as files: audio input only on the audio models (gpt-4o-audio-preview,
    gpt-4o-mini-audio-preview, gpt-audio; guides/audio)."""
    return _AUDIO_FILES if "audio" in model else FILES


#: Call controls by native name (openai 3.54 ``CompletionCreateParams``; API reference
#: chat/create): ``top_p`` 0..1, penalties -2..2, ``stop`` up to 4 sequences, ``seed``,
#: ``parallel_tool_calls``, ``service_tier``, ``prompt_cache_key`` / ``prompt_cache_retention``,
#: ``store``; ``moderation`` (recorded accepted with ``omni-moderation-latest``) as a setting.
#: No ``top_k``, no server-side conversation state.
CONTROLS = ControlNames(
    "openai-chat",
    top_p="top_p",
    presence_penalty="presence_penalty",
    frequency_penalty="frequency_penalty",
    stop="stop",
    seed="seed",
    parallel_tool_calls="parallel_tool_calls",
    service_tier="service_tier",
    service_tiers=frozenset({"auto", "default", "flex", "scale", "priority", "fast"}),
    cache_key="prompt_cache_key",
    cache_retention="prompt_cache_retention",
    store="store",
    settings=frozenset({"moderation", "safety_identifier"}),
    max_stop=4,
)
