"""OpenAI Responses API input adapter (provider id ``openai-responses``).

Maps a prepared canonical history to a ``POST /v1/responses`` body
(https://platform.openai.com/docs/api-reference/responses/create; OpenAPI schema
``CreateResponse``, SDK type ``ResponseCreateParamsStreaming``).

Decisions (where DESIGN.md left room), each with its scenario and function, and the
warning codes emitted here: DECISIONS.md beside this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from harness.contract.rendered import Rendered
from harness.contract.warning_codes import Code
from harness.mapping.cache import warn_by_profile
from harness.mapping.call_controls import apply_controls
from harness.mapping.controls import allowed_tools, openai_schema_fields, tool_choice
from harness.mapping.files import warn_json_as_text
from harness.mapping.openai_family import sendable_image_url
from harness.mapping.prepare import prepare
from harness.mapping.provider_parts import (
    ALL_PARTS,
    place_definitions,
    server_tool_definitions,
    sources_by_text,
)
from harness.mapping.tool_additions import responses_item
from harness.mapping.toolbox import (
    placeholder_user,
)
from harness.mapping.wire import (
    AssistantUnit,
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
    ToolCallPart,
)
from harness.params import CallParams, ForcedTool, OutputFormat, ServerToolSpec, ThinkingParams, ToolSpec
from harness.providers.openai_responses.files import input_file
from harness.providers.openai_responses.profile import (
    CONTROLS,
    DEFAULT_MODEL,
    FILES,
    ID_POLICY,
    MESSAGE_PHASES,
    MIN_OUTPUT_TOKENS,
    PROVIDER_ID,
    TOOL_NAMES,
    accepts_reasoning,
)
from harness.providers.openai_responses.reasoning import (
    Ctx,
    reasoning_items,
)

__all__ = ["ADAPTER", "DEFAULT_MODEL", "PROVIDER_ID", "OpenAIResponsesAdapter"]


JSON = dict[str, Any]


class OpenAIResponsesAdapter:
    """``history + params -> CreateResponse body + warnings``; pure and deterministic."""

    provider: str = PROVIDER_ID

    def render(self, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        """Shared rules first (``prepare``), then the Responses item mapping."""
        prepared = prepare(
            history,
            params,
            PROVIDER_ID,
            ID_POLICY,
            TOOL_NAMES,
            # beside declared tools (recorded accepted: openllmetry's openai-agents handoffs,
            # docs/import-check-decisions.md#gemini-derived-declarations)
            undeclared_calls_accepted=True,
            native_parts=ALL_PARTS | {"tool_additions"},
            files=FILES,
        )
        ctx = Ctx(prepared.warnings, params.model or DEFAULT_MODEL)
        body = _body(prepared, params, ctx)
        warn_by_profile(history, params, prepared.warnings, CONTROLS)
        return Rendered(body, list(prepared.warnings))


ADAPTER = OpenAIResponsesAdapter()


# ---------------------------------------------------------------- request level


def _body(prepared: Prepared, params: CallParams, ctx: Ctx) -> JSON:
    """Top-level CreateResponse fields, in a stable order."""
    body: JSON = {"model": ctx.model, "input": _input_items(prepared, ctx)}
    instructions = _instructions(prepared.system)
    if instructions is not None:
        body["instructions"] = instructions
    servers = server_tool_definitions(params, PROVIDER_ID, ctx.warnings, server_tool_definition)
    tools = place_definitions([_function_tool(t) for t in prepared.tools], servers)
    if tools:
        body["tools"] = tools
    choice = tool_choice(params, prepared, servers=bool(servers))
    if choice is not None:
        # ToolChoiceOptions, or ToolChoiceFunction (flat: type and name).
        body["tool_choice"] = (
            {"type": "function", "name": choice.name} if isinstance(choice, ForcedTool) else choice
        )
    allowed = allowed_tools(params, prepared)
    if allowed is not None and choice in (None, "required"):
        # ToolChoiceAllowed (openai 3.54): the subset and the mode, auto or required.
        body["tool_choice"] = {
            "type": "allowed_tools",
            "mode": choice or "auto",
            "tools": [{"type": "function", "name": n} for n in allowed],
        }
    if params.output_format is not None:
        body["text"] = {"format": _text_format(params.output_format)}
    if params.max_tokens is not None:
        body["max_output_tokens"] = _max_output_tokens(params.max_tokens, ctx.warnings)
    reasoning = _reasoning_config(params.thinking, ctx)
    if reasoning is not None:
        body["reasoning"] = reasoning
    if params.temperature is not None:
        body["temperature"] = params.temperature
    # Stateless by default (reasoning goes back as encrypted_content); a history that continues a
    # stored response by reference leaves store to the caller: the next call finds this response
    # only if it is stored ("Previous response with id ... not found" otherwise).
    if params.previous_response_id is None and params.conversation is None:
        body["store"] = False
    if (params.thinking is None or params.thinking.enabled) and accepts_reasoning(ctx.model):
        body["include"] = ["reasoning.encrypted_content"]
    if params.stream:
        body["stream"] = True
    apply_controls(body, params, CONTROLS, ctx.warnings)
    return body


def _instructions(system: list[tuple[int | None, str]]) -> str | None:
    """CreateResponse.instructions: one string, so system entries are joined with a blank line."""
    texts = [text for _, text in system]
    return "\n\n".join(texts) if texts else None


def _function_tool(tool: ToolSpec) -> JSON:
    """FunctionTool (docs: guides/function-calling): the caller's ``strict`` flag, else off, since
    schemas are not strict-ready by default (the API's own default is on)."""
    out: JSON = {"type": "function", "name": tool.name}
    if tool.description:
        out["description"] = tool.description
    out["parameters"] = tool.parameters
    out["strict"] = bool(tool.strict)
    if tool.defer_loading is not None:  # loaded only when tool search finds it
        out["defer_loading"] = tool.defer_loading
    return out


#: Responses tool definitions for each provider-neutral kind another provider declared
#: (https://platform.openai.com/docs/guides/tools-web-search, tools-code-interpreter).
def server_tool_definition(spec: ServerToolSpec) -> JSON | None:
    """Another provider's server tool as the Responses tool of the same kind, or None."""
    if spec.kind == "web_search":
        out: JSON = {"type": "web_search"}
        if spec.allowed_domains:
            out["filters"] = {"allowed_domains": spec.allowed_domains}
        if spec.user_location:
            out["user_location"] = {"type": "approximate", **spec.user_location}
        return out
    if spec.kind == "code_execution":
        return {"type": "code_interpreter", "container": {"type": "auto"}}
    if spec.kind == "tool_search":  # finds the deferred tools (recorded accepted beside them:
        # traffic/pydantic-ai/models__test_openai_tool_availability_delta__test_openai_live_delta_preserves_the_warmed_cache_prefix.yaml#1)
        return {"type": "tool_search"}
    return None


def _text_format(fmt: OutputFormat) -> JSON:
    """TextResponseFormatConfiguration: ``json_object``, or ``json_schema`` with the schema fields flat."""
    if fmt.json_schema is None:
        return {"type": "json_object"}
    return {"type": "json_schema", **openai_schema_fields(fmt)}


def _max_output_tokens(max_tokens: int, warnings: Warnings) -> int:
    """CreateResponse.max_output_tokens has a minimum of 16."""
    if max_tokens < MIN_OUTPUT_TOKENS:
        warnings.add(
            None,
            None,
            None,
            Code.MAX_TOKENS_RAISED,
            f"max_tokens {max_tokens} is below the Responses minimum; sent {MIN_OUTPUT_TOKENS}",
        )
        return MIN_OUTPUT_TOKENS
    return max_tokens


def _reasoning_config(thinking: ThinkingParams | None, ctx: Ctx) -> JSON | None:
    """Reasoning (docs: guides/reasoning): effort plus an auto summary so thinking can be shown."""
    if thinking is None or not thinking.enabled:
        return None
    warnings = ctx.warnings
    if not accepts_reasoning(ctx.model):
        warnings.add(
            None,
            None,
            None,
            Code.THINKING_PARAM_IGNORED,
            f"model '{ctx.model}' is not a reasoning model and rejects reasoning settings; not sent",
        )
        return None
    out: JSON = {}
    if thinking.effort is not None:
        out["effort"] = thinking.effort
    elif thinking.budget_tokens is not None:
        warnings.add(
            None,
            None,
            None,
            Code.THINKING_BUDGET_IGNORED,
            "Responses has no reasoning token budget; budget_tokens ignored (set effort instead)",
        )
    if thinking.include_thoughts:
        out["summary"] = thinking.summary or "auto"
    elif thinking.summary is not None:
        warnings.add(
            None,
            None,
            None,
            Code.CONTROL_NOT_SENT,
            "summary detail given with include_thoughts off; no summary asked for",
        )
    if thinking.context is not None:
        out["context"] = (
            thinking.context
        )  # Reasoning.context (openai 3.54): which turns' reasoning is shown again
    return out


# ---------------------------------------------------------------- input items


def _input_items(prepared: Prepared, ctx: Ctx) -> list[JSON]:
    """InputParam as an item list, in canonical order."""
    items: list[JSON] = []
    sources: list[int | None] = []  # canonical message index of each item, for warnings
    for wire in with_additions(prepared.items, prepared.additions):
        if isinstance(wire, WireToolAddition):
            added = responses_item(wire, prepared.tools, prepared.name, ctx.warnings)
            built = [] if added is None else [added]
        elif isinstance(wire, WireUser):
            built = _user_items(wire, ctx.warnings)
        elif isinstance(wire, WireAssistant):
            built = _assistant_items(wire, ctx)
        else:
            built = [_tool_result_item(wire, ctx.warnings)]
        items.extend(built)
        sources.extend([wire.index] * len(built))
    items = _drop_trailing_reasoning(items, sources, ctx)
    if not items:
        # A request always carries a turn for the model to answer: an empty user message, which the
        # API accepts beside instructions (traffic/pydantic-ai/models__test_openai_responses__test_
        # openai_responses_runs_with_instructions_only.yaml#0), not an invented placeholder text.
        text = placeholder_user(
            ctx.warnings, "history has nothing to send; sent an empty user message", text=""
        )
        items.append({"type": "message", "role": "user", "content": text})
    return items


def _drop_trailing_reasoning(items: list[JSON], sources: list[int | None], ctx: Ctx) -> list[JSON]:
    """Drop a reasoning item that no message or function_call of its response follows.

    A turn interrupted right after its reasoning leaves a reasoning item with nothing
    after it, which the API rejects: "Item 'rs_...' of type 'reasoning' was provided
    without its required following item" (continuedev/continue issue 8933, vercel/ai
    issue 7099). The reasoning cannot be replayed alone, so it is dropped (warned).
    """
    kept: list[JSON] = []
    for pos, item in enumerate(items):
        if item.get("type") == "reasoning":
            rest = items[pos + 1 :]
            follower = next((x for x in rest if x.get("type") != "reasoning"), None)
            if follower is None or not _is_output_item(follower):
                why = (
                    f"reasoning item '{item.get('id')}' has no message or function_call after it "
                    "(an interrupted turn); the API rejects it alone, so it is dropped"
                )
                for where in ctx.origins.get(id(item), [(sources[pos], None, "thinking_signature")]):
                    ctx.warnings.add(*where, Code.REASONING_NO_FOLLOWING_ITEM, why)
                continue
        kept.append(item)
    return kept


def _is_output_item(item: JSON) -> bool:
    """An item a response outputs after its reasoning: an assistant message, a function call, or a
    server tool's item (``web_search_call``, ``mcp_call``, ``tool_search_output``, an
    ``mcp_approval_request``: recorded accepted after its reasoning,
    traffic/clients2/langchain/libs/partners/openai/tests/cassettes/test_mcp_builtin_zdr.yaml.gz#1)."""
    kind = str(item.get("type", ""))
    return (
        kind.endswith("_call")
        or kind in ("tool_search_output", "mcp_list_tools", "mcp_approval_request")
        or (item.get("type") == "message" and item.get("role") == "assistant")
    )


def _user_items(wire: WireUser, warnings: Warnings) -> list[JSON]:
    """EasyInputMessage, role user, content list (docs: guides/text, guides/images)."""
    content = [c for c in (_input_content(ci, warnings) for ci in wire.items) if c is not None]
    if not content:
        warnings.add(wire.index, None, None, Code.EMPTY_MESSAGE, "user message has no content left; dropped")
        return []
    return [{"type": "message", "role": "user", "content": content}]


def _input_content(ci: ContentItem, warnings: Warnings) -> JSON | None:
    """One InputContent part (input_text / input_image / input_file), or None (warned) when it cannot be sent."""
    part = ci.part
    if isinstance(part, FilePart):
        return input_file(part, ci.message_index, ci.part_index, warnings)
    if isinstance(part, TextPart):
        return {"type": "input_text", "text": part.text}
    return _input_image(ci.message_index, ci.part_index, part, warnings)


def _input_image(
    message_index: int, part_index: int | None, part: ImageURLPart | ImageFilePart, warnings: Warnings
) -> JSON | None:
    """InputImageContent: an http(s) URL or a base64 data URL; files on disk are never read."""
    url = sendable_image_url(message_index, part_index, part, warnings)
    return None if url is None else {"type": "input_image", "image_url": url, "detail": "auto"}


# ---------------------------------------------------------------- assistant


def _assistant_items(wire: WireAssistant, ctx: Ctx) -> list[JSON]:
    """Reasoning, message and function_call items in the order the parts appear.

    The reasoning items are built first: whether every thinking part made it decides
    whether the message's ``msg_`` / ``fc_`` ids may be sent (see the module docstring).
    Parts that send nothing (a dropped thinking run, an assistant image) do not end a
    run of text: the texts around them are one message item.
    """
    runs: dict[int, list[JSON]] = {}  # position of a run's first unit -> its reasoning items
    complete = True
    run: list[ThinkingUnit] = []
    for position, unit in enumerate([*wire.units, None]):  # None flushes the trailing run
        if isinstance(unit, ThinkingUnit):
            run.append(unit)
        elif run:
            built, whole = reasoning_items(wire.index, run, ctx)
            runs[position - len(run)] = built
            # An item sent without its rs_ id cannot anchor the turn's msg_/fc_ ids either.
            complete = complete and whole and all("id" in item for item in built)
            run = []
    segments = _segments(wire.units, runs)
    cites = sources_by_text(wire.units)
    texts = [seg for seg in segments if isinstance(seg, list)]
    legacy = not any(p.part.item_id for seg in texts for p in seg)  # no text carries its own msg_ id
    msg_id = _trusted_message_id(wire, ctx, complete, len(texts)) if legacy else None
    items: list[JSON] = []
    for seg in segments:
        if isinstance(seg, list):
            items.append(_assistant_message(wire.index, seg, msg_id, ctx, complete, legacy, cites))
        elif isinstance(seg, ProviderUnit):
            if seg.part.raw is not None:  # the provider's own item, byte-exact in its place
                items.append(dict(seg.part.raw))
        elif isinstance(seg, int):
            items.extend(runs[seg])
        else:
            part = seg.part
            if isinstance(part, ToolCallPart):
                items.append(_function_call(wire.index, seg.index, part, wire.call_ids, ctx, complete))
            elif _generated_image(part):
                # the image the image_generation tool made, held by the API under its ig_ id
                items.append({"type": "image_generation_call", "id": part.id})
            elif not isinstance(part, TextPart):
                _warn_assistant_image(wire.index, seg.index, part, ctx.warnings)
    return items


@dataclass(frozen=True)
class _Text:
    """A canonical text part of an assistant message, and its part index."""

    part: TextPart
    index: int


# One output segment: a text run (one message item), the start position of a thinking
# run that sends items, a tool call / image part, or a server tool item.
_Segment = list[_Text] | int | PartUnit | ProviderUnit


def _segments(units: Sequence[AssistantUnit], runs: dict[int, list[JSON]]) -> list[_Segment]:
    """Units grouped into what is sent, in order.

    A text run is consecutive text parts with the same ``item_id`` and ``phase`` (one
    message item); it is not ended by a part that sends nothing (a thinking run whose
    items were all dropped, an image).
    """
    out: list[_Segment] = []
    open_run: list[_Text] | None = None
    for position, unit in enumerate(units):
        if isinstance(unit, ThinkingUnit):
            if runs.get(position):  # the first unit of a thinking run that sends items
                out.append(position)
                open_run = None
        elif isinstance(unit, ProviderUnit):
            if not isinstance(unit.part, SourcePart):  # a source rides on the text it cites
                out.append(unit)
                open_run = None
        elif isinstance(unit.part, TextPart):
            part = unit.part
            if open_run is not None and (open_run[-1].part.item_id, open_run[-1].part.phase) == (
                part.item_id,
                part.phase,
            ):
                open_run.append(_Text(part, unit.index))
            else:
                open_run = [_Text(part, unit.index)]
                out.append(open_run)
        else:
            out.append(unit)
            if isinstance(unit.part, ToolCallPart):
                open_run = None
    return out


def _trusted_message_id(wire: WireAssistant, ctx: Ctx, reasoning_complete: bool, runs: int) -> str | None:
    """The canonical id, if it is a Responses ``msg_`` id that maps to exactly one message item.

    Only for messages whose text parts carry no ``item_id`` of their own. A canonical id
    may be ours rather than OpenAI's; the API checks the prefix and rejects duplicate
    item ids, and one id cannot name two message items (``runs``). Nor may it stand
    without the message's reasoning (``reasoning_complete``).
    """
    mid = wire.message.id
    if not mid or not mid.startswith("msg_") or runs != 1:
        return None
    if not reasoning_complete:
        ctx.warnings.add(
            wire.index,
            None,
            None,
            Code.ITEM_ID_DROPPED,
            f"message id '{mid}' not sent: a reasoning item of this turn was not sent (or not with its rs_ id), "
            "and the API rejects a message item without its reasoning item",
        )
        return None
    if not ctx.claim(mid):
        ctx.warnings.add(
            wire.index,
            None,
            None,
            Code.ITEM_ID_DROPPED,
            f"message id '{mid}' already used in this request; not sent",
        )
        return None
    return mid


def _text_item_id(index: int, run: list[_Text], ctx: Ctx, reasoning_complete: bool) -> str | None:
    """The run's own ``msg_`` item id (``TextPart.item_id``), if it may be sent."""
    first = run[0]
    item_id = first.part.item_id
    if not item_id:
        return None
    problem: str | None = None
    if not item_id.startswith("msg_"):
        problem = f"item id '{item_id}' is not a msg_ id; not sent"
    elif not reasoning_complete:
        problem = (
            f"item id '{item_id}' not sent: a reasoning item of this turn was not sent (or not with its rs_ id), "
            "and the API rejects a message item without its reasoning item"
        )
    elif not ctx.claim(item_id):
        problem = f"item id '{item_id}' already used in this request; not sent"
    if problem is not None:
        ctx.warnings.add(index, first.index, "text", Code.ITEM_ID_DROPPED, problem)
        return None
    return item_id


def _assistant_message(
    index: int,
    run: list[_Text],
    msg_id: str | None,
    ctx: Ctx,
    reasoning_complete: bool,
    legacy: bool,
    cites: dict[int, list[tuple[int, SourcePart]]],
) -> JSON:
    """OutputMessage when the id is known (docs: conversation-state, manual context); else EasyInputMessage.

    ``phase`` (``MessagePhase``: commentary / final_answer) is sent as the text parts
    carry it, on either form (both accept it; the SDK asks to resend it).
    """
    item_id = msg_id if legacy else _text_item_id(index, run, ctx, reasoning_complete)
    out: JSON = {"type": "message", "role": "assistant"}
    if item_id is None:
        out["content"] = "".join(t.part.text for t in run)
        for t in run:  # the string form has no place for annotations
            for at, source in cites.get(t.index, []):
                ctx.warnings.add(
                    index,
                    at,
                    "source",
                    Code.SOURCE_NOT_SENT,
                    f"{source.source_type} source: its text is sent without a msg_ item id, whose string "
                    "content has no annotations; kept in history, not sent",
                )
    else:
        out["id"] = item_id
        out["status"] = "completed"
        out["content"] = [
            {
                "type": "output_text",
                "text": t.part.text,
                "annotations": [dict(c.raw) for _, c in cites.get(t.index, []) if c.raw is not None],
                "logprobs": [],
            }
            for t in run
        ]
    phase = run[0].part.phase
    if phase is not None:
        if phase in MESSAGE_PHASES:
            out["phase"] = phase
        else:
            ctx.warnings.add(
                index,
                run[0].index,
                "text",
                Code.PHASE_DROPPED,
                f"message phase '{phase}' is not a Responses MessagePhase; not sent",
            )
    return out


def _generated_image(part: object) -> TypeGuard[FilePart]:
    """An assistant image the image_generation tool made (its ``ig_`` item id, as the stream parser
    and the importer keep it): sent back as that item by id (recorded accepted: LangChain's
    test_image_generation_multi_turn#1)."""
    return (
        isinstance(part, FilePart)
        and part.id is not None
        and part.id.startswith("ig_")
        and part.media_type.lower().startswith("image/")
    )


def _warn_assistant_image(
    index: int, part_index: int, part: ImageURLPart | ImageFilePart | FilePart, warnings: Warnings
) -> None:
    """Assistant message content is output_text/refusal only: images and files cannot be replayed there."""
    warnings.add(
        index,
        part_index,
        part.type,
        Code.ASSISTANT_IMAGE_DROPPED,
        f"Responses assistant messages cannot carry {'files' if isinstance(part, FilePart) else 'images'}; dropped",
    )


def _function_call(
    index: int,
    part_index: int,
    part: ToolCallPart,
    call_ids: dict[str, str],
    ctx: Ctx,
    reasoning_complete: bool,
) -> JSON:
    """FunctionToolCall item (docs: guides/function-calling); arguments stay the model's JSON string."""
    out: JSON = {
        "type": "function_call",
        "call_id": call_ids.get(part.call_id, part.call_id),
        "name": part.tool_name,
        "arguments": part.arguments_json,
    }
    if part.namespace is not None:  # the namespace tool search loaded the tool under
        out["namespace"] = part.namespace
    item_id = part.item_id
    if item_id:
        if not item_id.startswith("fc_"):
            ctx.warnings.add(
                index,
                part_index,
                "tool_call",
                Code.ITEM_ID_DROPPED,
                f"item id '{item_id}' is not an fc_ id; not sent",
            )
        elif not reasoning_complete:
            ctx.warnings.add(
                index,
                part_index,
                "tool_call",
                Code.ITEM_ID_DROPPED,
                f"item id '{item_id}' not sent: a reasoning item of this turn was not sent (or not with its rs_ id), "
                "and the API rejects a function_call without its reasoning item",
            )
        elif not ctx.claim(item_id):
            ctx.warnings.add(
                index,
                part_index,
                "tool_call",
                Code.ITEM_ID_DROPPED,
                f"item id '{item_id}' already used in this request; not sent",
            )
        else:
            out["id"] = item_id
    return out


# ---------------------------------------------------------------- tool results


def _tool_result_item(wire: WireToolResult, warnings: Warnings) -> JSON:
    """FunctionCallOutputItemParam (docs: guides/function-calling); string output unless images/reminders."""
    if wire.is_error and not wire.synthesized:
        warnings.add(
            wire.index,
            None,
            None,
            Code.TOOL_STATUS_NOT_SENT,
            f"Responses has no tool error flag; status '{wire.status}' is only visible through the output text",
        )
    out: JSON = {
        "type": "function_call_output",
        "call_id": wire.call_id,
        "output": _tool_output(wire, warnings),
    }
    return out


def _tool_output(wire: WireToolResult, warnings: Warnings) -> str | list[JSON]:
    """Tool text as a string, or an input_text/input_image/input_file list when images, files or
    developer parts ride along or the text is several blocks (FunctionCallOutputItemList). A
    structured value goes as its output_text (``tool-json-as-text``)."""
    if wire.output_json is not None:
        warn_json_as_text(warnings, wire.index, "Responses")
    if not wire.images and not wire.appended and wire.text_blocks is None:
        return wire.output_text
    parts: list[JSON] = []
    # Several text blocks go back as the tool split them, images and files where the tool put them.
    for entry in [*wire.content_in_order(), *wire.appended]:
        if isinstance(entry, str):
            if entry or wire.text_blocks is not None:
                parts.append({"type": "input_text", "text": entry})
            continue
        content = _input_content(entry, warnings)
        if content is not None:
            parts.append(content)
    tool_text_only = [{"type": "input_text", "text": wire.output_text}] if wire.output_text else []
    if parts == tool_text_only:
        return wire.output_text  # every extra part was dropped (warned): plain string output
    return parts
