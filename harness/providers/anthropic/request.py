"""Anthropic Messages API input adapter (provider id ``anthropic``).

Maps a canonical history to a ``POST /v1/messages`` body
(https://docs.claude.com/en/api/messages, spec ``CreateMessageParams``). The shared
rules run first in ``harness.mapping.prepare``; this module only maps the wire items and
enforces Anthropic's own request rules.

Decisions (where DESIGN.md left room), each with its scenario and function, and the
warning codes emitted here: DECISIONS.md beside this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from harness.contract.rendered import Rendered
from harness.contract.warning_codes import Code
from harness.mapping.alternation import merge_role_runs
from harness.mapping.cache import system_breakpoints
from harness.mapping.call_controls import apply_controls
from harness.mapping.controls import tool_choice, warn_allowed_tools
from harness.mapping.files import warn_json_as_text
from harness.mapping.media import normalize_media_type
from harness.mapping.prepare import prepare
from harness.mapping.provider_parts import (
    ALL_PARTS,
    place_definitions,
    server_tool_definitions,
    sources_by_text,
)
from harness.mapping.tool_additions import anthropic_message
from harness.mapping.toolbox import (
    parse_arguments,
    parse_data_url,
    placeholder_user,
    signature_drop_code,
    signature_problem,
    thinking_text_problem,
    warn_image_file,
)
from harness.mapping.wire import (
    ContentItem,
    PartUnit,
    Prepared,
    ProviderUnit,
    ThinkingUnit,
    Warnings,
    WireAssistant,
    WireToolAddition,
    WireToolResult,
    WireUser,
    with_additions,
)
from harness.model import (
    FilePart,
    HistoryEvent,
    ImageFilePart,
    ImageURLPart,
    SourcePart,
    TextPart,
    ThinkingSignaturePart,
    ToolCallPart,
)
from harness.params import CallParams
from harness.providers.anthropic.cache import Holder, block_breakpoint, place
from harness.providers.anthropic.files import file_block
from harness.providers.anthropic.params import (
    Thinking,
    adaptive_effort,
    output_config,
    parallel_tool_use,
    resolve_tokens,
    sampling_under_thinking,
    server_tool_definition,
    system_blocks,
    temperature_value,
    tool_choice_value,
    tool_definitions,
)
from harness.providers.anthropic.profile import (
    CONTROLS,
    DEFAULT_MAX_TOKENS,
    DEFAULT_MODEL,
    DEFAULT_THINKING_BUDGET,
    FILES,
    IMAGE_MEDIA_TYPES,
    TOOL_ID_POLICY,
    TOOL_NAMES,
)

__all__ = [
    "ADAPTER",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MODEL",
    "DEFAULT_THINKING_BUDGET",
    "PROVIDER_ID",
    "AnthropicAdapter",
]

PROVIDER_ID = "anthropic"
# Sent as the content of an error tool result that has none (Anthropic rejects it empty).
EMPTY_ERROR_TEXT = "(the tool reported an error without output)"

_THINKING_TYPES = frozenset({"thinking", "redacted_thinking"})

Json = dict[str, Any]


@dataclass
class _Block:
    """One content block plus the canonical part it came from (for warnings on later drops)."""

    body: Json
    message_index: int | None
    part_index: int | None
    part_type: str | None
    # Further canonical parts folded into this block (a thinking text's signature).
    also: tuple[tuple[int, int | None, str], ...] = ()

    @property
    def type(self) -> str:
        return str(self.body["type"])


@dataclass
class _Message:
    """A wire message being built; ``sources`` are the canonical assistant ids merged into it."""

    role: Literal["user", "assistant", "system"]  # system: tools added mid-conversation
    index: int | None
    blocks: list[_Block]
    sources: list[tuple[str | None, str | None]] = field(default_factory=lambda: [])


# ---------------------------------------------------------------- images


def _image_block(part: ImageURLPart) -> tuple[Json | None, str]:
    """An Anthropic image block for an image URL, or None and why it cannot be sent.

    Implements https://docs.claude.com/en/api/messages (RequestImageBlock: base64 / url source).
    """
    url = part.url
    if url.startswith(("http://", "https://")):
        return {"type": "image", "source": {"type": "url", "url": url}}, ""
    data = parse_data_url(url)
    if data is None:
        return None, "image URL is neither http(s) nor a base64 data URL; dropped"
    media_type = normalize_media_type(data[0])  # prepare() already warned about a relabel
    if media_type not in IMAGE_MEDIA_TYPES:
        return None, f"media type '{data[0]}' is not one of jpeg, png, gif, webp; dropped"
    return {"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data[1]}}, ""


def _content_block(item: ContentItem, warnings: Warnings) -> _Block | None:
    """A user-side text, image or file part as a content block (RequestTextBlock /
    RequestImageBlock / RequestDocumentBlock, ``harness.providers.anthropic.files``)."""
    part = item.part
    where = (item.message_index, item.part_index)
    if isinstance(part, TextPart):
        return _Block({"type": "text", "text": part.text}, *where, "text")
    if isinstance(part, FilePart):
        file = file_block(part, *where, warnings)
        return None if file is None else _Block(file, *where, "file")
    if isinstance(part, ImageFilePart):
        warn_image_file(warnings, *where, part)
        return None
    block, reason = _image_block(part)
    if block is None:
        warnings.add(*where, "image_url", Code.IMAGE_URL_UNSUPPORTED, reason)
        return None
    return _Block(block, *where, "image_url")


# ---------------------------------------------------------------- user side


def _user_message(item: WireUser, warnings: Warnings) -> _Message:
    """A user (or degraded developer) turn; see Messages API ``messages[].content``."""
    blocks = [b for ci in item.items if (b := _content_block(ci, warnings)) is not None]
    return _Message("user", item.index, blocks)


def _tool_result_content(item: WireToolResult, warnings: Warnings) -> list[_Block]:
    """Output text (one block per text block) and images and files in the tool's order, then
    appended developer parts: all allowed inside a tool_result. A structured value goes as its output_text (``tool-json-as-text``)."""
    blocks: list[_Block] = []
    if item.output_json is not None:
        warn_json_as_text(warnings, item.index, "Anthropic")
    # Several text blocks go back as the tool split them, images and files where the tool put
    # them (a tool_result's content is an ordered block list).
    for entry in [*item.content_in_order(), *item.appended]:
        if not isinstance(entry, str):
            block = _content_block(entry, warnings)
            if block is not None:
                blocks.append(block)
        elif entry.strip():
            blocks.append(_Block({"type": "text", "text": entry}, item.index, None, "output_text"))
        elif entry:
            warnings.add(
                item.index, None, "output_text", Code.EMPTY_TEXT, "whitespace-only tool output dropped"
            )
    for name in item.discovered_tools:  # deferred tools the client's tool search loads
        blocks.append(
            _Block({"type": "tool_reference", "tool_name": name}, item.index, None, "discovered_tools")
        )
    return blocks


def _tool_result_message(item: WireToolResult, warnings: Warnings) -> _Message:
    """A ``tool_result`` block (RequestToolResultBlock) in its own user message, merged later.

    ``is_error`` marks error and aborted results; empty results omit the optional ``content``.
    """
    body: Json = {"type": "tool_result", "tool_use_id": item.call_id}
    content = _tool_result_content(item, warnings)
    if not content and item.is_error:
        # "content cannot be empty if is_error is true": keep the error flag, say so in words.
        warnings.add(
            item.index,
            None,
            "output_text",
            Code.TOOL_ERROR_EMPTY_OUTPUT,
            "error result has no output; Anthropic rejects an empty error result, so sent "
            f"'{EMPTY_ERROR_TEXT}'",
        )
        content = [_Block({"type": "text", "text": EMPTY_ERROR_TEXT}, item.index, None, "output_text")]
    if content:
        body["content"] = [b.body for b in content]
    if item.is_error:
        body["is_error"] = True
    return _Message("user", item.index, [_Block(body, item.index, None, "tool_result")])


# ---------------------------------------------------------------- assistant side


def _thinking_block(unit: ThinkingUnit, index: int, model: str, warnings: Warnings) -> _Block | None:
    """A native ``thinking`` / ``redacted_thinking`` block, or None (warned) for anything else.

    Implements https://docs.claude.com/en/docs/build-with-claude/extended-thinking
    (preserving thinking blocks; redacted thinking is passed back unchanged).
    """
    sig, text = unit.signature, unit.text
    if sig is not None and unit.redacted:
        problem = signature_problem(sig, PROVIDER_ID, model)
        if problem is None:
            return _Block(
                {"type": "redacted_thinking", "data": sig.signature},
                index,
                unit.signature_index,
                "thinking_signature",
            )
        warnings.add(
            index, unit.signature_index, "thinking_signature", signature_drop_code(sig), f"{problem}; dropped"
        )
        return None
    if text is None:
        if sig is not None:
            _warn_lone_signature(sig, index, unit.signature_index, model, warnings)
        return None
    if sig is None:
        warnings.add(
            index,
            unit.text_index,
            "thinking_text",
            Code.THINKING_UNSIGNED,
            "thinking has no signature; dropped",
        )
        return None
    problem = signature_problem(sig, PROVIDER_ID, model) or thinking_text_problem(text, model)
    if problem is None:
        body = {"type": "thinking", "thinking": text.text, "signature": sig.signature}
        return _Block(
            body,
            index,
            unit.text_index,
            "thinking_text",
            ((index, unit.signature_index, "thinking_signature"),),
        )
    code = signature_drop_code(sig)
    warnings.add(index, unit.text_index, "thinking_text", code, f"{problem}; dropped")
    warnings.add(index, unit.signature_index, "thinking_signature", code, f"{problem}; dropped")
    return None


def _warn_lone_signature(
    sig: ThinkingSignaturePart, index: int, part_index: int | None, model: str, warnings: Warnings
) -> None:
    """A signature with no thinking text to pair with is never sent; say why.

    A foreign one (a Responses ``encrypted_content``, a Gemini ``thoughtSignature`` that
    belongs to the part before it, another model's) is reported as foreign: that is the
    reason it is not sent, whatever it would have paired with. Only a native one is
    "unpaired" (shared decision: it stays in history but is not sent or displayed).
    """
    problem = signature_problem(sig, PROVIDER_ID, model)
    if problem is not None:
        warnings.add(index, part_index, "thinking_signature", signature_drop_code(sig), f"{problem}; dropped")
        return
    warnings.add(
        index,
        part_index,
        "thinking_signature",
        Code.THINKING_SIGNATURE_UNPAIRED,
        "signature has no thinking text to pair with; stays in history but is not sent",
    )


def _tool_use_block(item: WireAssistant, part: ToolCallPart, part_index: int, warnings: Warnings) -> _Block:
    """A ``tool_use`` block (RequestToolUseBlock): ``input`` must be a JSON object."""
    arguments, reason = parse_arguments(part.arguments_json)
    if reason is not None:
        warnings.add(item.index, part_index, "tool_call", Code.TOOL_ARGUMENTS_INVALID, reason)
    body = {
        "type": "tool_use",
        "id": item.call_ids.get(part.call_id, part.call_id),
        "name": part.tool_name,
        "input": arguments,
    }
    if part.caller is not None:  # programmatic tool calling: who made the call, as given
        body["caller"] = dict(part.caller)
    return _Block(body, item.index, part_index, "tool_call")


def _provider_block(item: WireAssistant, unit: ProviderUnit) -> _Block | None:
    """A server tool block of Anthropic's own, byte-exact in its place (``server_tool_use``,
    ``*_tool_result``, ``mcp_tool_use`` ...); a source rides on the text it cites instead."""
    part = unit.part
    if isinstance(part, SourcePart) or part.raw is None:
        return None
    return _Block(dict(part.raw), item.index, unit.index, part.type)


def _assistant_part_block(
    item: WireAssistant, unit: PartUnit, cites: dict[int, list[tuple[int, SourcePart]]], warnings: Warnings
) -> _Block | None:
    """Text and tool calls map natively; images are not allowed in assistant content. A text's
    own citations go back on its block (``citations``, each byte-exact)."""
    part = unit.part
    if isinstance(part, TextPart):
        body: Json = {"type": "text", "text": part.text}
        if unit.index in cites:
            body["citations"] = [dict(s.raw) for _, s in cites[unit.index] if s.raw is not None]
        return _Block(body, item.index, unit.index, "text")
    if isinstance(part, ToolCallPart):
        return _tool_use_block(item, part, unit.index, warnings)
    if isinstance(part, ImageFilePart):
        warn_image_file(warnings, item.index, unit.index, part)
        return None
    warnings.add(
        item.index,
        unit.index,
        part.type,
        Code.ASSISTANT_IMAGE_DROPPED,
        f"Anthropic does not accept {'files' if isinstance(part, FilePart) else 'images'} in assistant messages; dropped",
    )
    return None


def _assistant_message(item: WireAssistant, model: str, warnings: Warnings) -> _Message:
    """An assistant turn; parts keep their order (thinking may interleave with tool use)."""
    blocks: list[_Block] = []
    used_ids: set[str] = set()
    cites = sources_by_text(item.units)
    for unit in item.units:
        if isinstance(unit, ThinkingUnit):
            block = _thinking_block(unit, item.index, model, warnings)
        elif isinstance(unit, ProviderUnit):
            block = _provider_block(item, unit)
        else:
            block = _assistant_part_block(item, unit, cites, warnings)
        if block is not None and block.type == "tool_use":
            if block.body["id"] in used_ids:
                warnings.add(
                    item.index,
                    block.part_index,
                    "tool_call",
                    Code.TOOL_CALL_DUPLICATE_DROPPED,
                    f"tool_use id '{block.body['id']}' already used in this message; Anthropic requires unique ids",
                )
                continue
            used_ids.add(block.body["id"])
        if block is not None:
            blocks.append(block)
    source = (item.message.id, item.message.response_id)
    return _Message("assistant", item.index, blocks, [source])


# ---------------------------------------------------------------- alternation


def _drop_empty(messages: list[_Message], warnings: Warnings) -> list[_Message]:
    """Anthropic rejects messages with empty content."""
    kept: list[_Message] = []
    for msg in messages:
        if msg.blocks:
            kept.append(msg)
        else:
            warnings.add(
                msg.index, None, None, Code.EMPTY_MESSAGE, f"{msg.role} message has no content left; dropped"
            )
    return kept


def _merge_roles(messages: list[_Message], warnings: Warnings) -> list[_Message]:
    """Strict user/assistant alternation (``harness.mapping.alternation``)."""
    return merge_role_runs(
        messages,
        warnings,
        is_result=lambda b: b.type == "tool_result",
        merged="consecutive assistant messages merged into one (with message {index}) for alternation",
    )


def _ensure_a_message(messages: list[_Message], warnings: Warnings) -> list[_Message]:
    """An empty conversation gets a placeholder user message (``messages`` must not be empty).

    An assistant-first one is sent as it is: the API accepts it
    (traffic/pydantic-ai/models__test_anthropic__test_anthropic_model_empty_message_on_history.yaml#0,
    claude-sonnet-4-5; docs/import-check-decisions.md#placeholder-turns), and a user turn the
    user never wrote would only change the conversation.
    """
    if messages:
        return messages
    reason = "no message left to send; a placeholder user message was sent"
    placeholder = _Block({"type": "text", "text": placeholder_user(warnings, reason)}, None, None, None)
    return [_Message("user", None, [placeholder])]


# ---------------------------------------------------------------- thinking and max_tokens


def _current_turn(messages: list[_Message]) -> list[_Message]:
    """The assistant messages after the last user message that is not (only) tool results."""
    start = 0
    for pos, msg in enumerate(messages):
        if msg.role == "user" and not any(b.type == "tool_result" for b in msg.blocks):
            start = pos + 1
    return [m for m in messages[start:] if m.role == "assistant"]


def _tool_loop_needs_thinking(messages: list[_Message]) -> bool:
    """Field lesson 3: in an open tool-use loop the turn must start with a thinking block.

    Anthropic: "When thinking is enabled, a final assistant message must start with a
    thinking block (preceding the lastmost set of tool_use and tool_result blocks)".
    True when that rule would fail, so thinking must be disabled for this request.
    """
    turn = _current_turn(messages)
    if not any(b.type == "tool_use" for m in turn for b in m.blocks):
        return False
    return turn[0].blocks[0].type not in _THINKING_TYPES


# ---------------------------------------------------------------- final assistant (prefill)


def _fix_prefill(messages: list[_Message], thinking: Thinking, warnings: Warnings) -> list[_Message]:
    """A final assistant message is a prefill: no trailing thinking, no thinking when off,
    no trailing whitespace (https://docs.claude.com/en/api/messages, ``messages``)."""
    if not messages or messages[-1].role != "assistant":
        return messages
    last = messages[-1]
    kept: list[_Block] = []
    for block in last.blocks:
        if block.type in _THINKING_TYPES and not thinking.enabled:
            _warn_block(
                block,
                warnings,
                Code.PREFILL_THINKING_DROPPED,
                "thinking is off and this is the final message",
            )
        else:
            kept.append(block)
    while kept and kept[-1].type in _THINKING_TYPES:
        _warn_block(
            kept.pop(), warnings, Code.PREFILL_THINKING_DROPPED, "a final message cannot end with thinking"
        )
    if not kept:
        warnings.add(
            last.index, None, None, Code.EMPTY_MESSAGE, "final assistant message has no content left; dropped"
        )
        return messages[:-1]
    tail = kept[-1]
    if tail.type == "text" and tail.body["text"] != tail.body["text"].rstrip():
        kept[-1] = replace(tail, body={**tail.body, "text": tail.body["text"].rstrip()})
        _warn_block(
            tail,
            warnings,
            Code.PREFILL_TRAILING_WHITESPACE,
            "trailing whitespace stripped from the final text",
        )
    warnings.add(
        last.index,
        None,
        None,
        Code.ASSISTANT_PREFILL,
        "history ends with an assistant message; sent as prefill (models without prefill support reject it)",
    )
    return [*messages[:-1], _Message("assistant", last.index, kept, last.sources)]


def _warn_block(block: _Block, warnings: Warnings, code: Code, why: str) -> None:
    warnings.add(block.message_index, block.part_index, block.part_type, code, f"{block.type} block: {why}")
    for message_index, part_index, part_type in block.also:
        warnings.add(message_index, part_index, part_type, code, f"{block.type} block: {why}")


# ---------------------------------------------------------------- adapter


def _wire_messages(prepared: Prepared, model: str) -> list[_Message]:
    warnings = prepared.warnings
    messages: list[_Message] = []
    for item in with_additions(prepared.items, prepared.additions):
        if isinstance(item, WireToolAddition):
            body = anthropic_message(item, prepared.name)
            blocks = [_Block(b, item.index, None, "added_tools") for b in body["content"]]
            messages.append(_Message("system", item.index, blocks))
        elif isinstance(item, WireUser):
            messages.append(_user_message(item, warnings))
        elif isinstance(item, WireToolResult):
            messages.append(_tool_result_message(item, warnings))
        else:
            messages.append(_assistant_message(item, model, warnings))
    messages = _drop_empty(messages, warnings)
    return _ensure_a_message(_merge_roles(messages, warnings), warnings)


class AnthropicAdapter:
    """history + params -> Anthropic Messages request body; see the module docstring."""

    provider = PROVIDER_ID

    def render(self, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        prepared = prepare(
            history,
            params,
            PROVIDER_ID,
            TOOL_ID_POLICY,
            TOOL_NAMES,
            undeclared_calls_accepted=True,  # beside declared tools: docs/import-check-decisions.md#gemini-derived-declarations
            native_parts=ALL_PARTS | {"discovered_tools", "tool_additions", "tool_callers"},
            files=FILES,
        )
        warnings = prepared.warnings
        model = params.model or DEFAULT_MODEL
        messages = _wire_messages(prepared, model)  # tool names already mapped by prepare()
        max_tokens, thinking = resolve_tokens(params, _tool_loop_needs_thinking(messages), warnings)
        messages = _fix_prefill(messages, thinking, warnings)  # never drops the leading user message
        body: Json = {
            "model": model,
            "max_tokens": max_tokens,
            "messages": [{"role": m.role, "content": [b.body for b in m.blocks]} for m in messages],
        }
        system = system_blocks(prepared)
        if system:
            body["system"] = system
        servers = server_tool_definitions(params, PROVIDER_ID, warnings, server_tool_definition)
        tools = place_definitions(tool_definitions(prepared.tools, warnings), servers)
        if tools:
            body["tools"] = tools
        mcp_servers = place_definitions([], servers, "mcp_servers")
        if mcp_servers:
            body["mcp_servers"] = mcp_servers
        if params.container is not None:  # the code-execution container the earlier calls used
            body["container"] = params.container
        choice = tool_choice_value(tool_choice(params, prepared), thinking, warnings)
        warn_allowed_tools(params, prepared, "Anthropic")
        choice = parallel_tool_use(choice, params, prepared.tools, warnings)
        if choice is not None:
            body["tool_choice"] = choice
        output = output_config(params.output_format, warnings)
        effort = adaptive_effort(params.thinking, warnings) if thinking.enabled else {}
        output = {**(output or {}), **effort} or None
        if output is not None:
            body["output_config"] = output
        if thinking.config is not None:
            body["thinking"] = thinking.config
        temperature = temperature_value(params, thinking, warnings)
        if temperature is not None:
            body["temperature"] = temperature
        if params.stream:
            body["stream"] = True
        _place_breakpoints(history, params, prepared, messages, body, warnings)
        apply_controls(
            body,
            sampling_under_thinking(params, thinking, warnings),
            CONTROLS,
            warnings,
            skip=("parallel_tool_calls",),
        )
        return Rendered(body, list(warnings))


ADAPTER = AnthropicAdapter()


def _place_breakpoints(
    history: Sequence[HistoryEvent],
    params: CallParams,
    prepared: Prepared,
    messages: list[_Message],
    body: Json,
    warnings: Warnings,
) -> None:
    """Every canonical cache breakpoint on the block that ends it, in request order: tools,
    system, messages (``harness.providers.anthropic.cache``)."""
    holders: list[Holder] = []
    specs = {t.name: t for t in reversed(prepared.tools)}  # the first definition is the one sent
    for spec in body.get("tools", []):
        # a server tool's definition is its provider's own, byte-exact: its breakpoint is in it
        tool = specs.get(spec["name"]) if "input_schema" in spec else None
        if tool is not None and tool.cache_breakpoint is not None:
            holders.append(Holder(spec, tool.cache_breakpoint))
    sent = iter(body.get("system", []))
    for (index, text), bp in zip(
        prepared.system, system_breakpoints(history, params, prepared.system), strict=True
    ):
        if not text.strip():
            continue
        block = next(sent)
        if bp is not None:
            holders.append(Holder(block, bp, index, None, "text"))
    blocks = [b for m in messages for b in m.blocks]
    last = {b.message_index: i for i, b in enumerate(blocks) if b.message_index is not None}
    for i, b in enumerate(blocks):
        at_end = b.message_index is not None and last.get(b.message_index) == i
        bp = block_breakpoint(history, b.message_index, b.part_index, at_end)
        if bp is not None:
            holders.append(Holder(b.body, bp, b.message_index, b.part_index, b.part_type))
    place(holders, params.cache_breakpoint, body, warnings)
