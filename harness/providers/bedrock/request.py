"""AWS Bedrock Converse input adapter (provider id ``bedrock``).

Maps a canonical history to the JSON body of ``POST /model/{modelId}/converse`` (or
``/converse-stream`` when streaming): ``messages`` of content blocks, ``system``,
``toolConfig``, ``inferenceConfig`` and ``additionalModelRequestFields``
(https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html; botocore's
bedrock-runtime service model, shape ``ConverseRequest``). The model id and streaming are
the URL, never the body. Blobs (image bytes, redacted reasoning) are base64 strings in JSON.

The shared rules run first in ``harness.mapping.prepare``; model-family differences are
``profile.py`` facts. Decisions and warning codes: DECISIONS.md beside this module.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from harness.contract.rendered import Rendered
from harness.contract.warning_codes import Code
from harness.mapping.alternation import merge_role_runs
from harness.mapping.cache import system_breakpoints, warn_breakpoints
from harness.mapping.call_controls import apply_controls, fold_effort, put
from harness.mapping.controls import tool_choice, warn_allowed_tools
from harness.mapping.file_support import FileSupport
from harness.mapping.files import fits, warn_moved
from harness.mapping.media import normalize_media_type
from harness.mapping.prepare import prepare
from harness.mapping.provider_parts import SERVER_PARTS, place_definitions, server_tool_definitions
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
    Prepared,
    ProviderUnit,
    ThinkingUnit,
    Warnings,
    WireAssistant,
    WireToolResult,
    WireUser,
)
from harness.model import (
    CacheBreakpoint,
    FilePart,
    HistoryEvent,
    ImageFilePart,
    ImageURLPart,
    SourcePart,
    TextPart,
    ToolCallPart,
)
from harness.params import CallParams, ForcedTool, OutputFormat
from harness.providers.bedrock.files import file_block
from harness.providers.bedrock.profile import (
    CONTROLS,
    DEFAULT_MAX_TOKENS,
    DEFAULT_MODEL,
    DEFAULT_THINKING_BUDGET,
    IMAGE_FORMATS,
    MIN_THINKING_BUDGET,
    TOOL_ID_POLICY,
    TOOL_NAMES,
    files_for,
    reasoning_style,
    takes_tool_result_images,
    top_k_field,
)

__all__ = ["ADAPTER", "PROVIDER_ID", "BedrockAdapter"]

PROVIDER_ID = "bedrock"
#: Sent as the content of a tool result that has none (``toolResult.content`` is required, and a
#: blank ``text`` block is rejected: "The text field in the ContentBlock object is blank").
EMPTY_RESULT_TEXT = "(the tool returned no output)"
_EFFORTS = {"minimal": "low", "low": "low", "medium": "medium", "high": "high"}

Json = dict[str, Any]


@dataclass
class _Message:
    role: Literal["user", "assistant", "system"]  # system: never built (no tool additions)
    index: int | None
    blocks: list[Json]
    sources: list[tuple[str | None, str | None]] = field(default_factory=lambda: [])


def _image(item: ContentItem, warnings: Warnings) -> Json | None:
    """An ``image`` block with base64 ``source.bytes``; Converse takes no image URL (bytes or S3 only)."""
    part = item.part
    where = (item.message_index, item.part_index)
    if isinstance(part, ImageFilePart):
        warn_image_file(warnings, *where, part)
        return None
    assert isinstance(part, ImageURLPart)
    data = parse_data_url(part.url)
    if data is None:
        warnings.add(
            *where,
            "image_url",
            Code.IMAGE_URL_UNSUPPORTED,
            "Converse takes image bytes or S3, not a URL; dropped",
        )
        return None
    fmt = IMAGE_FORMATS.get(normalize_media_type(data[0]))
    if fmt is None:
        warnings.add(
            *where,
            "image_url",
            Code.IMAGE_URL_UNSUPPORTED,
            f"media type '{data[0]}' is not png, jpeg, gif or webp; dropped",
        )
        return None
    return {"image": {"format": fmt, "source": {"bytes": data[1]}}}


def _content(item: ContentItem, warnings: Warnings, files: FileSupport) -> Json | None:
    if isinstance(item.part, TextPart):
        return {"text": item.part.text}
    if isinstance(item.part, FilePart):
        return file_block(files, item.part, item.message_index, item.part_index, warnings)
    return _image(item, warnings)


def cache_point(bp: CacheBreakpoint) -> Json:
    """A ``cachePoint`` block (CachePointBlock: ``type`` default, ``ttl`` 5m or 1h, botocore
    bedrock-runtime 2023-09-30); the cache ends at the block before it."""
    point: Json = {"type": "default"}
    if bp.ttl is not None:
        point["ttl"] = bp.ttl
    return {"cachePoint": point}


def _with_points(pairs: list[tuple[Json, CacheBreakpoint | None]]) -> list[Json]:
    """Blocks in order, each followed by its cache point when its part ends the cache."""
    out: list[Json] = []
    for block, bp in pairs:
        out.append(block)
        if bp is not None:
            out.append(cache_point(bp))
    return out


def _user(item: WireUser, warnings: Warnings, files: FileSupport) -> _Message:
    """A user turn; a breakpoint on a part not sent (a whitespace-only text) ends the cache after
    the block before it instead (the same prefix: the dropped part carried nothing)."""
    pairs: list[tuple[Json, CacheBreakpoint | None]] = []
    for ci in item.items:
        block = _content(ci, warnings, files)
        if block is not None:
            pairs.append((block, ci.part.cache_breakpoint))
        elif ci.part.cache_breakpoint is not None and pairs and pairs[-1][1] is None:
            pairs[-1] = (pairs[-1][0], ci.part.cache_breakpoint)
    return _Message("user", item.index, _with_points(pairs))


def _tool_result(item: WireToolResult, model: str, warnings: Warnings, files: FileSupport) -> list[_Message]:
    """A ``toolResult`` block; ``status: error`` for failed and aborted results; text blocks as the
    tool split them, images and files among them where the tool put them. A structured value
    is a ``json`` block (after the text when the text is not that value's JSON). Images and files
    go inside it where the model family takes them (profile), else into a user message right after."""
    content: list[Json] = []
    moved: list[Json] = []
    structured = item.output_json is not None
    send_text = bool(item.output_text.strip()) and not (
        structured and _is_json_of(item.output_text, item.output_json)
    )
    json_at = 0  # the json block goes right after the text
    # Several text blocks go back as the tool split them, images and files where the tool put them.
    for ci in item.content_in_order():
        if isinstance(ci, str):
            if send_text and ci.strip():
                content.append({"text": ci})
                json_at = len(content)
            continue
        if isinstance(ci.part, FilePart):
            inside = fits(files, ci.part, in_tool=True)
            block = file_block(files, ci.part, ci.message_index, ci.part_index, warnings)
            if block is None:
                continue
            if inside:
                content.append(block)
            else:
                moved.append(block)
                warn_moved(
                    warnings, ci.message_index, ci.part_index, f"{model} takes it in a user message after it"
                )
            continue
        block = _image(ci, warnings)
        if block is None:
            continue
        if takes_tool_result_images(model):
            content.append(block)
        else:
            moved.append(block)
            warnings.add(
                ci.message_index,
                ci.part_index,
                "image_url",
                Code.TOOL_IMAGE_MOVED,
                f"{model} takes no image in a toolResult; sent in a user message after it",
            )
    if structured:
        content.insert(json_at, {"json": item.output_json})
    for ci in item.appended:
        block = _content(ci, warnings, files)
        if block is not None:
            content.append(block)
    if not content:
        code = Code.TOOL_ERROR_EMPTY_OUTPUT if item.is_error else Code.EMPTY_TEXT
        warnings.add(
            item.index, None, "output_text", code, f"tool result has no output; sent '{EMPTY_RESULT_TEXT}'"
        )
        content.append({"text": EMPTY_RESULT_TEXT})
    body: Json = {"toolUseId": item.call_id, "content": content}
    if item.is_error:
        body["status"] = "error"
    blocks = _with_points([({"toolResult": body}, item.cache_breakpoint)])
    out = [_Message("user", item.index, blocks)]
    if moved:
        out.append(_Message("user", item.index, moved))
    return out


def _is_json_of(text: str, value: object) -> bool:
    """Whether ``text`` is the JSON of ``value`` (then the ``json`` block alone carries it)."""
    try:
        return json.loads(text) == value
    except ValueError:
        return False


def _reasoning(unit: ThinkingUnit, index: int, model: str, warnings: Warnings) -> Json | None:
    """``reasoningContent``: ``reasoningText {text, signature}`` or ``redactedContent``; only
    Bedrock's own signatures from the same model are sent back (harness.contract.thinking)."""
    sig, text = unit.signature, unit.text
    if sig is not None and sig.format == "bedrock-redacted":
        problem = signature_problem(sig, PROVIDER_ID, model)
        if problem is None:
            return {"reasoningContent": {"redactedContent": sig.signature}}
        warnings.add(
            index, unit.signature_index, "thinking_signature", signature_drop_code(sig), f"{problem}; dropped"
        )
        return None
    if text is None:
        if sig is not None:
            problem = signature_problem(sig, PROVIDER_ID, model)
            code = signature_drop_code(sig) if problem else Code.THINKING_SIGNATURE_UNPAIRED
            warnings.add(
                index,
                unit.signature_index,
                "thinking_signature",
                code,
                f"{problem or 'no thinking text to pair with'}; dropped",
            )
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
    if problem is not None:
        code = signature_drop_code(sig)
        warnings.add(index, unit.text_index, "thinking_text", code, f"{problem}; dropped")
        warnings.add(index, unit.signature_index, "thinking_signature", code, f"{problem}; dropped")
        return None
    return {"reasoningContent": {"reasoningText": {"signature": sig.signature, "text": text.text}}}


def _tool_use(item: WireAssistant, part: ToolCallPart, part_index: int, warnings: Warnings) -> Json:
    arguments, reason = parse_arguments(part.arguments_json)
    if reason is not None:
        warnings.add(item.index, part_index, "tool_call", Code.TOOL_ARGUMENTS_INVALID, reason)
    call_id = item.call_ids.get(part.call_id, part.call_id)
    return {"toolUse": {"input": arguments, "name": part.tool_name, "toolUseId": call_id}}


def _assistant(item: WireAssistant, model: str, warnings: Warnings) -> _Message:
    blocks: list[tuple[Json, CacheBreakpoint | None]] = []
    for unit in item.units:
        bp: CacheBreakpoint | None = None
        if isinstance(unit, ThinkingUnit):
            block = _reasoning(unit, item.index, model, warnings)
            ends = [p.cache_breakpoint for p in (unit.text, unit.signature) if p is not None]
            bp = next((b for b in ends if b is not None), None)
        elif isinstance(unit, ProviderUnit):
            # A system tool's own toolUse / toolResult block, byte-exact (prepare kept only Bedrock's).
            block = (
                None if isinstance(unit.part, SourcePart) or unit.part.raw is None else dict(unit.part.raw)
            )
        elif isinstance(unit.part, TextPart):
            block, bp = {"text": unit.part.text}, unit.part.cache_breakpoint
        elif isinstance(unit.part, ToolCallPart):
            block, bp = _tool_use(item, unit.part, unit.index, warnings), unit.part.cache_breakpoint
        else:
            warnings.add(
                item.index,
                unit.index,
                "image_url",
                Code.ASSISTANT_IMAGE_DROPPED,
                "no image in an assistant turn; dropped",
            )
            block = None
        if block is not None:
            blocks.append((block, bp))
    return _Message(
        "assistant", item.index, _with_points(blocks), [(item.message.id, item.message.response_id)]
    )


def _alternate(messages: list[_Message], warnings: Warnings) -> list[_Message]:
    """Drop empty turns and merge runs of one role: Converse requires user and assistant to
    alternate ("A conversation must alternate between user and assistant roles"); a user
    turn's ``toolResult`` blocks go first, right after the ``toolUse`` turn they answer."""
    kept: list[_Message] = []
    for msg in messages:
        if not msg.blocks:
            warnings.add(
                msg.index, None, None, Code.EMPTY_MESSAGE, f"{msg.role} message has no content left; dropped"
            )
            continue
        kept.append(msg)
    out = merge_role_runs(
        kept,
        warnings,
        is_result=lambda b: "toolResult" in b,
        merged="consecutive assistant messages merged (with message {index})",
    )
    if not out:
        text = placeholder_user(warnings, "no message left to send; a placeholder user message was sent")
        out.append(_Message("user", None, [{"text": text}]))
    return out


def _messages(prepared: Prepared, model: str) -> list[_Message]:
    warnings, files = prepared.warnings, prepared.files
    messages: list[_Message] = []
    for item in prepared.items:
        if isinstance(item, WireUser):
            messages.append(_user(item, warnings, files))
        elif isinstance(item, WireToolResult):
            messages.extend(_tool_result(item, model, warnings, files))
        else:
            messages.append(_assistant(item, model, warnings))
    return _alternate(messages, warnings)


def _tool_config(prepared: Prepared, params: CallParams) -> Json | None:
    """``toolConfig``: every tool as ``toolSpec`` with its JSON schema; ``toolChoice`` ``auto``
    (default, omitted), ``any`` (required) or ``tool`` (one named). Converse has no "none": the
    tools stay declared (a history with toolUse blocks needs toolConfig) and that is warned."""
    servers = server_tool_definitions(params, PROVIDER_ID, prepared.warnings)
    if not prepared.tools and not servers:
        tool_choice(params, prepared)  # warns about a choice without tools
        return None
    tools: list[Json] = []
    for spec in prepared.tools:
        tool: Json = {"inputSchema": {"json": spec.parameters}, "name": spec.name}
        if spec.description:
            tool["description"] = spec.description
        if spec.strict is not None:
            tool["strict"] = spec.strict
        tools.append({"toolSpec": tool})
        if spec.cache_breakpoint is not None:
            tools.append(cache_point(spec.cache_breakpoint))
    config: Json = {"tools": place_definitions(tools, servers)}
    choice = tool_choice(params, prepared)
    if isinstance(choice, ForcedTool):
        config["toolChoice"] = {"tool": {"name": choice.name}}
    elif choice == "required":
        config["toolChoice"] = {"any": {}}
    elif choice == "none":
        prepared.warnings.add(
            None,
            None,
            None,
            Code.TOOL_CHOICE_NOT_SENT,
            "Converse has no tool_choice 'none'; tools stay declared, choice not sent",
        )
    return config


def _open_tool_turn_without_reasoning(messages: list[_Message]) -> bool:
    """Claude's rule, which Bedrock forwards: with thinking on, the assistant turn of an open tool
    loop must start with its reasoning block (https://docs.claude.com/en/docs/build-with-claude/extended-thinking,
    "Preserving thinking blocks"). True when the turn after the last user text has a toolUse and
    does not start with reasoningContent (lost or foreign reasoning), so thinking must be off."""
    start = 0
    for pos, msg in enumerate(messages):
        if msg.role == "user" and not any("toolResult" in b for b in msg.blocks):
            start = pos + 1
    turn = [m for m in messages[start:] if m.role == "assistant"]
    if not any("toolUse" in b for m in turn for b in m.blocks):
        return False
    return "reasoningContent" not in turn[0].blocks[0]


def _inference(
    params: CallParams, model: str, messages: list[_Message], warnings: Warnings
) -> tuple[Json, Json]:
    """(``inferenceConfig``, ``additionalModelRequestFields``): max tokens, temperature and the
    family's reasoning switch (profile ``reasoning_style``)."""
    inference: Json = {}
    extra: Json = {}
    thinking = params.thinking
    style = reasoning_style(model)
    max_tokens = params.max_tokens
    thinking_on = thinking is not None and thinking.enabled
    if thinking_on and style == "anthropic" and _open_tool_turn_without_reasoning(messages):
        warnings.add(
            None,
            None,
            None,
            Code.THINKING_DISABLED,
            "the open tool-use turn does not start with its reasoning block (lost or foreign); "
            "thinking is disabled for this request, as Claude would reject it",
        )
        thinking_on = False
    if thinking_on and style is None:
        warnings.add(
            None,
            None,
            None,
            Code.THINKING_UNSUPPORTED,
            f"{model} takes no reasoning switch on Converse; not sent",
        )
    elif thinking_on and style == "anthropic" and thinking is not None and thinking.adaptive:
        # Claude's adaptive thinking through Converse (recorded accepted:
        # models__bedrock__..._adaptive: thinking {type: adaptive}, output_config {effort}).
        extra["thinking"] = {"type": "adaptive"}
        if thinking.effort is not None:
            levels = {e: e for e in ("low", "medium", "high", "xhigh", "max")}
            extra["output_config"] = {"effort": fold_effort(thinking.effort, levels, warnings, PROVIDER_ID)}
    elif thinking_on and style == "anthropic":
        assert thinking is not None
        budget = max(thinking.budget_tokens or DEFAULT_THINKING_BUDGET, MIN_THINKING_BUDGET)
        if thinking.budget_tokens is not None and thinking.budget_tokens < MIN_THINKING_BUDGET:
            warnings.add(
                None,
                None,
                None,
                Code.THINKING_BUDGET_RAISED,
                f"budget raised to the minimum {MIN_THINKING_BUDGET}",
            )
        extra["thinking"] = {"budget_tokens": budget, "type": "enabled"}
        # Without maxTokens Bedrock's default exceeds the budget: Claude with thinking and no maxTokens
        # was accepted (traffic/pydantic-ai-more/models__test_bedrock__test_bedrock_model_thinking_part_anthropic.yaml#0).
        if max_tokens is not None and max_tokens <= budget:
            warnings.add(
                None, None, None, Code.MAX_TOKENS_RAISED, "maxTokens must exceed the thinking budget; raised"
            )
            max_tokens = budget + DEFAULT_MAX_TOKENS
        if params.temperature is not None and params.temperature != 1:
            warnings.add(
                None,
                None,
                None,
                Code.TEMPERATURE_DROPPED,
                "Claude takes no temperature with thinking; not sent",
            )
            params = params.model_copy(update={"temperature": None})
    elif thinking_on and style == "openai":
        assert thinking is not None
        extra["reasoning_effort"] = fold_effort(thinking.effort or "medium", _EFFORTS, warnings, PROVIDER_ID)
    elif thinking_on and style == "qwen":
        assert thinking is not None
        extra["reasoning_config"] = fold_effort(thinking.effort or "medium", _EFFORTS, warnings, PROVIDER_ID)
    if max_tokens is not None:
        inference["maxTokens"] = max_tokens
    if params.temperature is not None:
        inference["temperature"] = params.temperature
    return inference, extra


def _top_k(params: CallParams, model: str, extra: Json, warnings: Warnings) -> None:
    """``top_k`` in the model's own field of ``additionalModelRequestFields`` (``top_k_field``)."""
    if params.top_k is None:
        return
    path = top_k_field(model)
    if path is None:
        warnings.add(
            None,
            None,
            None,
            Code.CONTROL_NOT_SENT,
            f"no known top_k field for Bedrock model '{model}'; top_k not sent",
        )
        return
    put(extra, ".".join(path), params.top_k)


class BedrockAdapter:
    """history + params -> Bedrock Converse request body; see the module docstring."""

    provider = PROVIDER_ID

    def render(self, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        prepared = prepare(
            history,
            params,
            PROVIDER_ID,
            TOOL_ID_POLICY,
            TOOL_NAMES,
            native_parts=SERVER_PARTS,
            files=files_for(params.model or DEFAULT_MODEL),
        )
        warnings = prepared.warnings
        model = params.model or DEFAULT_MODEL
        messages = _messages(prepared, model)
        body: Json = {"messages": [{"content": m.blocks, "role": m.role} for m in messages]}
        marks = system_breakpoints(history, params, prepared.system)
        system = _with_points(
            [
                ({"text": text}, bp)
                for (_, text), bp in zip(prepared.system, marks, strict=True)
                if text.strip()
            ]
        )
        if system:
            body["system"] = system
        config = _tool_config(prepared, params)
        warn_allowed_tools(params, prepared, "Bedrock")
        if config is not None:
            body["toolConfig"] = config
        inference, extra = _inference(params, model, messages, warnings)
        if inference:
            body["inferenceConfig"] = inference
        _top_k(params, model, extra, warnings)
        if extra:
            body["additionalModelRequestFields"] = extra
        apply_controls(body, params, CONTROLS, warnings, skip=("top_k",))
        # Converse has no top-level automatic breakpoint: every other place takes a cachePoint.
        warn_breakpoints(
            history,
            params,
            warnings,
            PROVIDER_ID,
            automatic=False,
            handled=frozenset({"tools", "system", "user", "assistant", "tool", "developer"}),
        )
        output = output_config(params.output_format, warnings)
        if output is not None:
            body["outputConfig"] = output
        return Rendered(body, list(warnings))


def output_config(fmt: OutputFormat | None, warnings: Warnings) -> Json | None:
    """Structured output as Converse's ``outputConfig.textFormat`` (botocore OutputFormat: type
    ``json_schema`` only, the schema a JSON string in ``structure.jsonSchema``; recorded accepted:
    traffic/pydantic-ai-more/models__bedrock__test_native_output__test_bedrock_native_output_qwen.yaml#0).
    Converse has no schema-less JSON mode: a named warning. Its structured output is always held to
    the schema (constrained decoding), which is ``strict: true``; ``strict: false`` cannot be said."""
    if fmt is None:
        return None
    if fmt.json_schema is None:
        warnings.add(
            None,
            None,
            None,
            Code.OUTPUT_FORMAT_NOT_SENT,
            "Converse structured output needs a JSON Schema; JSON output without a schema not sent",
        )
        return None
    if fmt.strict is False:
        warnings.add(
            None,
            None,
            None,
            Code.OUTPUT_FORMAT_NOT_SENT,
            "Converse always holds structured output to its schema; strict false not sent",
        )
    definition: Json = {"schema": json.dumps(fmt.json_schema)}
    if fmt.name is not None:
        definition["name"] = fmt.name
    if fmt.description is not None:
        definition["description"] = fmt.description
    return {"textFormat": {"type": "json_schema", "structure": {"jsonSchema": definition}}}


ADAPTER = BedrockAdapter()
