"""The canonical conversation model, exactly as DESIGN.md pins it.

Parts are discriminated by ``type``, messages by ``role``; a history line is a
message or a non-message event (``type``). The seed's rules are enforced at
construction so that an invalid history is rejected where it is read, not deep
inside an adapter.
"""

from __future__ import annotations

import base64
import binascii
from datetime import datetime
from itertools import pairwise
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    JsonValue,
    Tag,
    field_validator,
    model_validator,
)

__all__ = [
    "FILE_SOURCES",
    "PART_TYPES",
    "AddedTool",
    "AnyPart",
    "AssistantMessage",
    "CacheBreakpoint",
    "DeveloperMessage",
    "ErrorEvent",
    "FilePart",
    "HistoryEvent",
    "ImageFilePart",
    "ImageURLPart",
    "Message",
    "ProviderPart",
    "ServerToolCallPart",
    "ServerToolResultPart",
    "SourcePart",
    "SourceType",
    "StopReason",
    "SystemMessage",
    "TaskMetadataEvent",
    "TextPart",
    "ThinkingSignaturePart",
    "ThinkingTextPart",
    "ToolCallPart",
    "ToolPart",
    "ToolResultMessage",
    "ToolStatus",
    "Usage",
    "UserMessage",
    "is_provider_executed",
    "message_role",
    "split_blocks",
]

#: Why a model call ended: ``tool_use`` when it calls tools, ``error`` when it failed (with an
#: error event), ``aborted`` when the client cut it short.
StopReason = Literal["stop", "length", "tool_use", "error", "aborted"]
#: How a tool call ended: ``aborted`` when it was interrupted before a result.
ToolStatus = Literal["success", "error", "aborted"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CacheBreakpoint(_Model):
    """A prompt-cache breakpoint: the provider's cache ends after the part, message, tool
    definition or system prompt that carries it. ``ttl`` is the provider's own lifetime
    string (Anthropic ``5m`` / ``1h``); None is the provider's default lifetime."""

    ttl: str | None = None


class _Part(_Model):
    """What every part has in common (each part class adds its ``type`` and fields); a field
    every part carries is declared here once.

    ``cache_breakpoint``: the prompt cache ends after this part (Anthropic ``cache_control``,
    Bedrock ``cachePoint``); providers that cache on their own degrade it with a warning."""

    cache_breakpoint: CacheBreakpoint | None = None


# ---------------------------------------------------------------- parts


class TextPart(_Part):
    """Text. ``item_id`` and ``phase`` (beyond the seed) keep an assistant text's Responses
    message item id (``msg_``) and phase (``commentary`` / ``final_answer``) for round trips:
    the API expects both back on the replayed message item."""

    type: Literal["text"] = "text"
    text: str
    item_id: str | None = None
    phase: str | None = None


class ImageURLPart(_Part):
    """An image by URL or ``data:`` URL."""

    type: Literal["image_url"] = "image_url"
    url: str
    id: str | None = None


class ImageFilePart(_Part):
    """An image on disk (assistant-generated artifacts)."""

    type: Literal["image_file"] = "image_file"
    file_path: str
    mime_type: str | None = None
    byte_size: int | None = None
    sha256: str | None = None


class FilePart(_Part):
    """A file: a document, audio, video or any file reference (images keep ``image_url`` /
    ``image_file``).

    ``media_type`` is the IANA label (``application/pdf``, ``audio/mpeg``, ``video/mp4``,
    ``text/plain`` ...). Exactly one source: ``data`` (the bytes, base64), ``url`` (http(s)),
    ``file_id`` (an id a provider's Files API issued) or ``uri`` (a cloud storage URI:
    ``gs://``, ``s3://``). ``filename`` and ``title`` name it where a provider shows a name.

    Beyond the pinned fields: ``provider`` names the provider whose Files API issued
    ``file_id`` (an id is meaningless elsewhere: adapters of other providers warn rather than
    send it), and ``id`` keeps the provider's own id of a generated output (Chat Completions
    assistant audio is replayed by that id).

    Document options (beyond the pinned fields; Anthropic ``document`` blocks and Bedrock
    ``DocumentBlock``): ``context`` is text about the document the model reads but never cites,
    ``citations`` whether the model may cite it, and ``text_chunks`` keeps a text document given
    as its own blocks (Anthropic's custom-content source ``{"type": "content"}``, Bedrock's
    ``source.content``): the length of each block in Unicode code points, in order, one or more,
    summing to the length of the decoded ``data`` (UTF-8 text; each block is a citable chunk).
    ``purpose`` says what the file is for when it is not content for the model to read:
    ``container`` puts it in the code-execution container's input directory for the provider's
    code tool (Anthropic ``container_upload``, by file id). Providers without a place for these
    warn (``file-document-options-dropped``, ``file-container-unsupported``).
    """

    type: Literal["file"] = "file"
    media_type: str
    data: str | None = None
    url: str | None = None
    file_id: str | None = None
    uri: str | None = None
    filename: str | None = None
    title: str | None = None
    provider: str | None = None
    id: str | None = None
    video_metadata: dict[str, JsonValue] | None = None
    context: str | None = None
    citations: bool | None = None
    text_chunks: list[int] | None = None
    purpose: Literal["container"] | None = None

    @model_validator(mode="after")
    def _one_source(self) -> FilePart:
        given = [name for name in FILE_SOURCES if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError(
                f"a file part needs exactly one of data, url, file_id, uri (got {', '.join(given) or 'none'})"
            )
        return self

    @model_validator(mode="after")
    def _chunks_cover_text(self) -> FilePart:
        if self.text_chunks is None:
            return self
        if self.data is None or not self.text_chunks or any(n < 0 for n in self.text_chunks):
            raise ValueError("text_chunks holds one or more block lengths (>= 0) of a document's data")
        try:
            text = base64.b64decode(self.data, validate=True).decode("utf-8")
        except (binascii.Error, ValueError):
            raise ValueError("text_chunks needs data that is base64 of UTF-8 text") from None
        if sum(self.text_chunks) != len(text):
            raise ValueError(f"text_chunks lengths sum to {sum(self.text_chunks)}, the text has {len(text)}")
        return self

    def chunk_texts(self) -> list[str]:
        """The document's text blocks (``text_chunks`` applied to the decoded ``data``)."""
        text = base64.b64decode(self.data or "").decode("utf-8")
        return split_blocks(text, self.text_chunks)

    @property
    def source(self) -> str:
        """Which source field this part carries: ``data``, ``url``, ``file_id`` or ``uri``."""
        return next(name for name in FILE_SOURCES if getattr(self, name) is not None)


#: A file part's source fields, of which exactly one is set.
FILE_SOURCES = ("data", "url", "file_id", "uri")


class ThinkingTextPart(_Part):
    """Reasoning text. ``id`` is the provider's reasoning unit id (e.g. a Responses ``rs_`` item)."""

    type: Literal["thinking_text"] = "thinking_text"
    id: str | None = None
    text: str
    model_id: str | None = None


class ThinkingSignaturePart(_Part):
    """Opaque reasoning state; pairs with the nearest preceding unpaired thinking text.

    ``format`` says whose signature it is (``anthropic``, ``anthropic-redacted``,
    ``openai-responses``, ``google``, or an OpenRouter ``reasoning_details`` format).
    """

    type: Literal["thinking_signature"] = "thinking_signature"
    id: str | None = None
    signature: str
    model_id: str | None = None
    format: str | None = None


class ToolCallPart(_Part):
    """A tool call. ``item_id`` (beyond the seed) keeps a Responses ``fc_`` item id for round trips;
    ``namespace`` (beyond the seed) is the Responses tool namespace the called tool was loaded
    under (deferred tools found by tool search), sent back on the ``function_call`` item;
    ``caller`` (beyond the seed) is who made the call, as Anthropic's programmatic tool calling
    says it (``{"type": "direct"}``: the model; ``{"type": "code_execution_20250825", "tool_id"}``:
    code the provider ran, by its server tool call id), kept as given."""

    type: Literal["tool_call"] = "tool_call"
    call_id: str
    tool_name: str
    arguments_json: str
    item_id: str | None = None
    namespace: str | None = None
    caller: dict[str, JsonValue] | None = None


class ServerToolCallPart(_Part):
    """A call of a tool the provider executed itself (web search, code execution, MCP, tool search ...).

    ``provider`` is the provider id whose model made the call; ``input_json`` the call's input as
    JSON text; ``raw`` the provider's own block or item, kept byte-exact: it goes back exactly as
    received to that provider, and never to another one (there it degrades with a warning, and is
    never sent as a client tool call). A Responses item that carries its own outcome (a
    ``web_search_call``, ``mcp_call`` ...) is this part holding the whole item in ``raw``, followed
    by a ``server_tool_result`` without ``raw``.
    """

    type: Literal["server_tool_call"] = "server_tool_call"
    call_id: str
    tool_name: str
    provider: str
    input_json: str
    raw: dict[str, JsonValue] | None = None


class ServerToolResultPart(_Part):
    """The result of a provider-executed call, in the same assistant message as its call.

    ``status`` is the outcome (``error`` when the provider reported the tool failed); ``raw`` the
    provider's result block byte-exact (None when the call's own item carries the outcome).
    """

    type: Literal["server_tool_result"] = "server_tool_result"
    call_id: str
    tool_name: str
    provider: str
    status: ToolStatus
    raw: dict[str, JsonValue] | None = None


#: What a source points at: a web page, a document given to the model, or a search result block.
SourceType = Literal["url", "document", "search_result"]


class SourcePart(_Part):
    """A citation or grounding source of the assistant's answer (seed 004's ``sources``).

    Beyond the pinned fields: ``provider`` says whose ``raw`` it is (a citation goes back natively
    only to that provider); ``start_index``/``end_index`` are the cited span in the text of the
    text part this source follows, when the provider gives one (Responses annotations, Gemini
    grounding supports). A source stands after the text part it cites, and after that text's
    earlier sources; a source before any text part cites the whole answer (Gemini grounding).
    """

    type: Literal["source"] = "source"
    source_type: SourceType
    id: str | None = None
    url: str | None = None
    title: str | None = None
    cited_text: str | None = None
    start_index: int | None = None
    end_index: int | None = None
    provider: str | None = None
    raw: dict[str, JsonValue] | None = None


#: Any part an assistant message may hold (a union discriminated by ``type``).
AnyPart = Annotated[
    TextPart
    | ImageURLPart
    | ImageFilePart
    | FilePart
    | ThinkingTextPart
    | ThinkingSignaturePart
    | ToolCallPart
    | ServerToolCallPart
    | ServerToolResultPart
    | SourcePart,
    Field(discriminator="type"),
]
#: The parts of the provider-executed family: they go back natively only to their own provider.
ProviderPart = ServerToolCallPart | ServerToolResultPart | SourcePart


def is_provider_executed(part: object) -> bool:
    """A server tool call or result, or a source (the parts no other provider can take natively)."""
    return isinstance(part, ServerToolCallPart | ServerToolResultPart | SourcePart)


ContentPart = Annotated[TextPart | ImageURLPart | ImageFilePart | FilePart, Field(discriminator="type")]
ImagePart = Annotated[ImageURLPart | ImageFilePart, Field(discriminator="type")]
#: What a tool result's ``parts`` may hold: images and files (its text is ``output_text``).
ToolPart = Annotated[ImageURLPart | ImageFilePart | FilePart, Field(discriminator="type")]


class Usage(_Model):
    """Token usage of one model call. ``input_tokens`` includes cached tokens.

    The contract every output adapter honours: ``input_tokens`` and ``output_tokens`` are
    required (0 when the provider reports none); the optional counts are None when the
    provider did not report them. Checks treat None and 0 of an optional count as one
    class, since a stream often cannot say which it was.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cached_input_tokens: int | None = None
    cache_creation_input_tokens: int | None = None
    reasoning_tokens: int | None = None
    total_tokens: int | None = None


# ---------------------------------------------------------------- messages


class _MessageBase(_Model):
    id: str | None = None
    created_at: datetime | None = None
    response_id: str | None = None
    #: The prompt cache ends after this whole message (on the wire: its last block).
    cache_breakpoint: CacheBreakpoint | None = None


class AddedTool(_Model):
    """A tool made available from this point of the conversation on (tool availability changed
    mid-conversation, the prompt cache before it kept).

    With ``parameters`` it is a whole function definition (Responses ``additional_tools`` item,
    Anthropic ``tool_addition`` of a ``tool_definition``); without, a reference by name to a
    deferred tool (``ToolSpec.defer_loading``) of the call's tools (Anthropic ``tool_addition``
    of a ``tool_reference``)."""

    name: str
    description: str | None = None
    parameters: dict[str, JsonValue] | None = None
    strict: bool | None = None


class SystemMessage(_MessageBase):
    """System text where it stands in the history (``CallParams.system`` is the leading prompt).

    ``added_tools`` (beyond the seed): tools added at this point of the conversation (see
    ``AddedTool``); a message may hold them and no text."""

    role: Literal["system"] = "system"
    parts: list[TextPart]
    added_tools: list[AddedTool] | None = None


class DeveloperMessage(_MessageBase):
    """Harness-to-model reminders. Only ``parts`` ever reach a provider; the rest is UI-only."""

    role: Literal["developer"] = "developer"
    parts: list[ContentPart]
    command_output: str | None = None
    at_files: list[str] | None = None
    ui_extra: dict[str, JsonValue] | None = None


class UserMessage(_MessageBase):
    """What the user wrote: text, images and files."""

    role: Literal["user"] = "user"
    parts: list[ContentPart]


class AssistantMessage(_MessageBase):
    """Exactly one per model call, carrying that call's usage and stop reason."""

    role: Literal["assistant"] = "assistant"
    parts: list[AnyPart]
    usage: Usage | None = None
    stop_reason: StopReason | None = None


class ToolResultMessage(_MessageBase):
    """A tool's result. ``output_text`` is the only tool text; ``parts`` carry images and files,
    in the order the tool returned them; ``output_json`` is a structured result (any JSON value)
    where the tool returned one, beside ``output_text`` (a plain-text result leaves it None).

    ``text_blocks`` (beyond the pinned fields) keeps where a result given as several text blocks
    was split: the length of each block, in Unicode code points, in order; ``output_text`` is
    their concatenation (no separator), so the text is held once. None for a one-block result.
    Providers whose tool result takes several text blocks send them split exactly; the others
    send ``output_text``.

    ``part_positions`` (beyond the pinned fields) keeps a result whose text and parts the tool
    interleaved (text after an image or file): for each of ``parts``, how many of the text blocks
    (``text_block_list()``) come before it. None when every part follows all the text (the usual
    order, and the only one a history without it has). Wires whose tool result is an ordered block
    list send that order; the others warn ``tool-result-order-lost``.

    ``discovered_tools`` (beyond the seed): the deferred tools this result loads, by name, when
    the client ran the tool search itself (Anthropic ``tool_reference`` blocks after the text)."""

    role: Literal["tool"] = "tool"
    call_id: str
    tool_name: str
    status: ToolStatus
    output_text: str
    output_json: JsonValue | None = None
    text_blocks: list[int] | None = None
    parts: list[ToolPart] = Field(default_factory=lambda: [])
    part_positions: list[int] | None = None
    discovered_tools: list[str] | None = None
    ui_extra: dict[str, JsonValue] | None = None
    side_effects: list[JsonValue] | None = None
    task_metadata: dict[str, JsonValue] | None = None

    @field_validator("parts", mode="before")
    @classmethod
    def _no_text_parts(cls, value: object) -> object:
        items: list[object] = list(value) if isinstance(value, list) else []  # pyright: ignore[reportUnknownArgumentType]
        for item in items:
            kind = item.get("type") if isinstance(item, dict) else getattr(item, "type", None)  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
            if kind == "text":
                raise ValueError("tool result parts must not be text; put tool text in output_text")
        return value  # pyright: ignore[reportUnknownVariableType]

    @model_validator(mode="after")
    def _blocks_cover_text(self) -> ToolResultMessage:
        blocks = self.text_blocks
        if blocks is None:
            return self
        if len(blocks) < 2 or any(n < 0 for n in blocks):
            raise ValueError("text_blocks holds two or more block lengths (>= 0); omit it for one block")
        if sum(blocks) != len(self.output_text):
            raise ValueError(
                f"text_blocks lengths sum to {sum(blocks)}, output_text has {len(self.output_text)} characters"
            )
        return self

    @model_validator(mode="after")
    def _positions_fit(self) -> ToolResultMessage:
        positions = self.part_positions
        if positions is None:
            return self
        count = len(self.text_block_list())
        if len(positions) != len(self.parts):
            raise ValueError(f"part_positions has {len(positions)} entries for {len(self.parts)} parts")
        if any(b < a for a, b in pairwise(positions)):
            raise ValueError("part_positions must not decrease (parts keep their order)")
        if any(not 0 <= n <= count for n in positions):
            raise ValueError(f"part_positions counts text blocks before a part: 0 to {count}")
        if all(n == count for n in positions):
            raise ValueError("part_positions puts every part after the text; omit it")
        return self

    def text_block_list(self) -> list[str]:
        """The result's text blocks: ``output_text`` split at ``text_blocks`` (one block without it)."""
        return split_blocks(self.output_text, self.text_blocks)

    def content_in_order(self) -> list[str | ImageURLPart | ImageFilePart | FilePart]:
        """Text blocks and parts in the order the tool gave them (``part_positions``)."""
        return interleave(self.text_block_list(), list(self.parts), self.part_positions)


_P = TypeVar("_P")


def interleave(texts: list[str], parts: list[_P], positions: list[int] | None) -> list[str | _P]:
    """Text blocks and parts in one list: each part after ``positions[i]`` text blocks (all the
    parts after all the text when ``positions`` is None)."""
    if positions is None:
        return [*texts, *parts]
    out: list[str | _P] = []
    taken = 0
    for part, at in zip(parts, positions, strict=True):
        out += texts[taken:at]
        taken = max(taken, at)
        out.append(part)
    return [*out, *texts[taken:]]


def split_blocks(text: str, lengths: list[int] | None) -> list[str]:
    """``text`` cut into consecutive pieces of the given lengths (``[text]`` when None)."""
    if lengths is None:
        return [text]
    out: list[str] = []
    start = 0
    for n in lengths:
        out.append(text[start : start + n])
        start += n
    return out


#: Any message of a history (a union discriminated by ``role``).
Message = Annotated[
    SystemMessage | DeveloperMessage | UserMessage | AssistantMessage | ToolResultMessage,
    Field(discriminator="role"),
]


# ---------------------------------------------------------------- non-message events


class ErrorEvent(_Model):
    """A stream or call error, kept in history so replay can show it."""

    type: Literal["error"] = "error"
    error_message: str
    created_at: datetime | None = None
    response_id: str | None = None
    can_retry: bool | None = None


class TaskMetadataEvent(_Model):
    """Task-level metadata (model, accumulated usage, duration) for replay."""

    type: Literal["task_metadata"] = "task_metadata"
    created_at: datetime | None = None
    metadata: dict[str, JsonValue] = Field(default_factory=lambda: {})


def _history_tag(value: Any) -> str | None:
    """Messages are told apart by ``role``, other events by ``type``."""
    if isinstance(value, dict):
        role = value.get("role")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        if role is not None:
            return str(role)  # pyright: ignore[reportUnknownArgumentType]
        kind = value.get("type")  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
        return None if kind is None else str(kind)  # pyright: ignore[reportUnknownArgumentType]
    role = getattr(value, "role", None)
    if role is not None:
        return str(role)
    kind = getattr(value, "type", None)
    return None if kind is None else str(kind)


#: One line of a history file: a message (by ``role``), an error or a task-metadata event (by ``type``).
HistoryEvent = Annotated[
    Annotated[SystemMessage, Tag("system")]
    | Annotated[DeveloperMessage, Tag("developer")]
    | Annotated[UserMessage, Tag("user")]
    | Annotated[AssistantMessage, Tag("assistant")]
    | Annotated[ToolResultMessage, Tag("tool")]
    | Annotated[ErrorEvent, Tag("error")]
    | Annotated[TaskMetadataEvent, Tag("task_metadata")],
    Discriminator(
        _history_tag,
        custom_error_type="invalid_history_line",
        custom_error_message="a line needs 'role' (system, developer, user, assistant, tool) "
        "or 'type' (error, task_metadata)",
    ),
]

MESSAGE_TYPES = (SystemMessage, DeveloperMessage, UserMessage, AssistantMessage, ToolResultMessage)


def message_role(event: object) -> str | None:
    """The role of a message event, or None for a non-message event."""
    return event.role if isinstance(event, MESSAGE_TYPES) else None


#: Every part's ``type`` tag (the codec names a field inside a parts list without it), read off
#: the part classes so that a new part needs no edit elsewhere.
PART_TYPES: frozenset[str] = frozenset(
    str(cls.model_fields["type"].default) for cls in _Part.__subclasses__()
)
