"""Mapping rules every provider shares, applied once before a provider builds its body.

``prepare()`` turns a canonical history into a provider-neutral *wire conversation*:
system text collected once, developer messages degraded onto the preceding user or
tool message, tool results paired with their calls (in call order, one result per
call; pieces of one response share one results window), tool ids made valid and
unique for the provider, tool names mapped to its name rule (reversibly, see
``toolnames``), image media type labels standardised, and thinking parts paired with
their signatures. Each adapter then only maps these wire items to its own JSON. Every
change made here is reported as a RenderWarning naming the canonical message index.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from functools import partial

from harness.contract.warning_codes import Code
from harness.mapping.file_support import NO_FILES, FileSupport
from harness.mapping.files import drop_document_options, drop_video_metadata
from harness.mapping.media import normalize_media_type
from harness.mapping.provider_parts import keep_native, warn_callers
from harness.mapping.tool_additions import declare_upfront
from harness.mapping.toolbox import normalized_data_url, parse_data_url, warn_media_type
from harness.mapping.toolnames import NameRule, wire_names
from harness.mapping.wire import (
    AssistantUnit,
    ContentItem,
    IdPolicy,
    PartUnit,
    Prepared,
    ProviderUnit,
    Warnings,
    WireAssistant,
    WireItem,
    WireToolAddition,
    WireToolResult,
    WireUser,
    map_content,
    pair_thinking,
    same_response,
)
from harness.model import (
    AssistantMessage,
    DeveloperMessage,
    FilePart,
    HistoryEvent,
    ImageFilePart,
    ImageURLPart,
    ServerToolCallPart,
    ServerToolResultPart,
    SystemMessage,
    TextPart,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)
from harness.params import CallParams, ToolSpec

__all__ = ["SYNTHETIC_RESULT_TEXT", "prepare"]

SYNTHETIC_RESULT_TEXT = "Tool call was not executed: the turn was interrupted before a result was recorded."


def _content_items(
    index: int, parts: Sequence[TextPart | ImageURLPart | ImageFilePart | FilePart], *, developer: bool
):
    items: list[ContentItem] = []
    for pidx, part in enumerate(parts):
        if developer and isinstance(part, TextPart):
            part = TextPart(text=part.text + "\n")
        items.append(ContentItem(index, pidx, part))
    return items


def _discovered(history: Sequence[HistoryEvent]) -> set[str]:
    """Tools a tool search in the history loaded: their definitions travel in the search's result
    (Responses ``tool_search_output.tools``, a client search's ``discovered_tools``), so a call to
    one is to a defined tool (recorded accepted: traffic/clients2/langchain/libs/partners/openai/
    tests/cassettes/test_client_executed_tool_search.yaml.gz#2)."""
    names: set[str] = set()
    for event in history:
        if isinstance(event, ToolResultMessage):
            names.update(event.discovered_tools or [])
        elif isinstance(event, AssistantMessage):
            for part in event.parts:
                found = part.raw.get("tools") if isinstance(part, ServerToolResultPart) and part.raw else None
                for tool in found if isinstance(found, list) else []:
                    name = tool.get("name") if isinstance(tool, dict) else None
                    if isinstance(name, str):
                        names.add(name)
    return names


def _collect_tools(
    history: Sequence[HistoryEvent],
    params: CallParams,
    warnings: Warnings,
    *,
    undeclared_calls_accepted: bool,
) -> list[ToolSpec]:
    """The declared tools, plus a permissive definition for each called tool none declares.

    With ``undeclared_calls_accepted`` (the provider takes a call to an undeclared tool in the
    history) and some tools declared, nothing is derived: a derived declaration would offer the
    model a tool the caller did not (docs/import-check-decisions.md#gemini-derived-declarations).
    """
    tools = list(params.tools or [])
    # A provider-defined tool (Anthropic bash, text editor ...) is called by its own name.
    known = {t.name for t in tools} | {s.name for s in params.server_tools or [] if s.name}
    known |= _discovered(history)
    # A tool added mid-conversation is declared where it was added (or up front: declare_upfront).
    known |= {t.name for e in history if isinstance(e, SystemMessage) for t in e.added_tools or []}
    derived: list[str] = []
    for event in history:
        if isinstance(event, AssistantMessage):
            for part in event.parts:
                if isinstance(part, ToolCallPart) and part.tool_name not in known:
                    known.add(part.tool_name)
                    derived.append(part.tool_name)
    if derived and tools and undeclared_calls_accepted:
        warnings.add(
            None,
            None,
            None,
            Code.TOOLS_NOT_DECLARED,
            f"history calls tools the request does not declare ({', '.join(derived)}); not declared, "
            "the provider accepts the calls",
        )
        return tools
    for name in derived:
        tools.append(
            ToolSpec(
                name=name,
                description="Definition derived from the history's tool calls (none was given).",
                parameters={"type": "object", "properties": {}, "additionalProperties": True},
            )
        )
    if derived:
        warnings.add(
            None,
            None,
            None,
            Code.TOOLS_DERIVED,
            f"history calls tools with no definition given; derived permissive definitions for {', '.join(derived)}",
        )
    return tools


def breakpoint_on_last_part(event: HistoryEvent) -> HistoryEvent:
    """A message's cache breakpoint is its last part's (the cache ends after the message's last
    wire block), so adapters read breakpoints off parts alone; a tool message keeps its own."""
    bp = getattr(event, "cache_breakpoint", None)
    parts = getattr(event, "parts", None)
    if bp is None or not parts or isinstance(event, ToolResultMessage):
        return event
    last = parts[-1]
    if last.cache_breakpoint is None:
        parts = [*parts[:-1], last.model_copy(update={"cache_breakpoint": bp})]
    return event.model_copy(update={"parts": parts, "cache_breakpoint": None})


def prepare(
    history: Sequence[HistoryEvent],
    params: CallParams,
    provider: str,
    ids: IdPolicy,
    names: NameRule,
    *,
    undeclared_calls_accepted: bool = False,
    native_parts: frozenset[str] = frozenset(),
    files: FileSupport = NO_FILES,
) -> Prepared:
    """Apply the shared mapping rules; see the module docstring. ``ids``/``names``: the provider profile's rules.

    ``files``: what the provider and model take as files (kept on the result for the adapter).
    ``undeclared_calls_accepted``: the provider accepts a history calling a tool the request does
    not declare, so none is derived beside declared tools (see ``_collect_tools``).
    ``native_parts``: the provider part types the adapter sends back when they are its provider's
    own (``harness.mapping.provider_parts``); every other provider part is dropped here, warned.
    """
    warnings = Warnings()
    history = [breakpoint_on_last_part(event) for event in history]
    system: list[tuple[int | None, str]] = []
    if params.system:
        system.append((None, params.system))
    items: list[WireItem] = []
    additions: list[WireToolAddition] = []
    seen_conversation = False
    for index, event in enumerate(history):
        if isinstance(event, SystemMessage) and event.added_tools:
            additions.append(WireToolAddition(index, list(event.added_tools)))
        if isinstance(event, SystemMessage):
            for pidx, part in enumerate(event.parts):
                if not part.text.strip():
                    warnings.add(index, pidx, "text", Code.EMPTY_TEXT, "empty system text dropped")
                elif any(part.text.strip() == text.strip() for _, text in system):
                    warnings.add(
                        index,
                        pidx,
                        "text",
                        Code.SYSTEM_DUPLICATE,
                        "system text already in the system prompt; sent once (rule system-text-once)",
                    )
                else:
                    system.append((index, part.text))
            if seen_conversation and event.parts:
                warnings.add(
                    index,
                    None,
                    None,
                    Code.SYSTEM_HOISTED,
                    "system message after the conversation started; its text joins the system prompt",
                )
        elif isinstance(event, UserMessage):
            seen_conversation = True
            items.append(WireUser(index, _content_items(index, event.parts, developer=False)))
        elif isinstance(event, DeveloperMessage):
            seen_conversation = True
            _attach_developer(items, index, event, warnings)
        elif isinstance(event, AssistantMessage):
            seen_conversation = True
            items.append(WireAssistant(index, event, pair_thinking(event)))
        elif isinstance(event, ToolResultMessage):
            seen_conversation = True
            items.append(
                WireToolResult(
                    index,
                    event.call_id,
                    event.tool_name,
                    event.status,
                    event.output_text,
                    [ContentItem(index, pidx, p) for pidx, p in enumerate(event.parts)],
                    discovered_tools=list(event.discovered_tools or []),
                    output_json=event.output_json,
                    text_blocks=event.text_blocks,
                    part_positions=event.part_positions,
                    cache_breakpoint=event.cache_breakpoint,
                )
            )
        # ErrorEvent / TaskMetadataEvent are replay records, not conversation content.
    _mark_continuations(items)
    items = _results_to_their_calls(items, warnings)
    on_server = params.previous_response_id is not None or params.conversation is not None
    client_run = partial(_client_run, provider=provider, native_parts=native_parts)
    items = _pair_tool_results(items, warnings, on_server=on_server, client_run=client_run)
    _map_ids(items, ids, warnings)
    _drop_empty_text(items, warnings)
    _normalize_media_types(items, warnings)
    keep_native(items, provider, native_parts, warnings)
    _drop_discovered_tools(items, provider, "discovered_tools" in native_parts, warnings)
    if not files.video_metadata:
        drop_video_metadata(items, warnings)
    if not files.document_options:
        drop_document_options(items, warnings)
    items = _drop_empty_messages(items, warnings)
    tools = _collect_tools(history, params, warnings, undeclared_calls_accepted=undeclared_calls_accepted)
    if "tool_callers" not in native_parts:
        warn_callers(history, params, provider, warnings)
    if "tool_additions" not in native_parts:
        tools += declare_upfront(additions, tools, provider, warnings)
        additions = []
    sent_names = _map_tool_names(tools, items, provider, names, warnings)
    if any(sent != canonical for canonical, sent in sent_names.items()):
        tools = [t.model_copy(update={"name": sent_names[t.name]}) for t in tools]
        _rename_tools(items, sent_names)
    return Prepared(system, items, tools, warnings, sent_names, files, additions)


def _rename_tools(items: list[WireItem], names: dict[str, str]) -> None:
    """Put the wire names into calls and results, so adapters send them without knowing the map."""
    for item in items:
        if isinstance(item, WireToolResult):
            item.tool_name = names.get(item.tool_name, item.tool_name)
        elif isinstance(item, WireAssistant):
            item.units = [
                PartUnit(u.part.model_copy(update={"tool_name": names[u.part.tool_name]}), u.index)
                if isinstance(u, PartUnit) and isinstance(u.part, ToolCallPart)
                else u
                for u in item.units
            ]


def _map_tool_names(
    tools: list[ToolSpec], items: list[WireItem], provider: str, rule: NameRule, warnings: Warnings
) -> dict[str, str]:
    """Every tool name (declared, called, answered) -> the name the provider's rule admits.

    Field reports: OpenAI "Invalid 'tools[0].function.name': string does not match pattern"
    / "string too long ... maximum length 64" for MCP names. The map is reversible
    (harness.mapping.toolnames), so a streamed call's name maps back.
    """
    used = [t.name for t in tools]
    for item in items:
        if isinstance(item, WireToolResult):
            used.append(item.tool_name)
        elif isinstance(item, WireAssistant):  # a call to an undeclared tool (see _collect_tools)
            used += [
                u.part.tool_name
                for u in item.units
                if isinstance(u, PartUnit) and isinstance(u.part, ToolCallPart)
            ]
    names = wire_names(used, rule)
    for canonical, sent in sorted(names.items()):
        if sent != canonical:
            warnings.add(
                None,
                None,
                None,
                Code.TOOL_NAME_MAPPED,
                f"tool name '{canonical}' breaks {provider}'s name rule; sent as '{sent}' "
                "(declaration, calls and results; map back with harness.mapping.toolnames)",
            )
    return names


def _mark_continuations(items: list[WireItem]) -> None:
    """Flag assistant messages that continue the same response as the assistant message right before."""
    for prev, item in itertools.pairwise(items):
        if isinstance(prev, WireAssistant) and isinstance(item, WireAssistant):
            item.continues = same_response(
                (prev.message.id, prev.message.response_id), (item.message.id, item.message.response_id)
            )


def _normalize_media_types(items: list[WireItem], warnings: Warnings) -> None:
    """Standard media type labels on base64 images and on files (``image/jpg`` -> ``image/jpeg``), warned.

    Gemini rejects "Unsupported MIME type: image/jpg"; Anthropic accepts only the four
    standard labels. The image is the same bytes, so it is still sent.
    """

    def fix(ci: ContentItem) -> ContentItem:
        if isinstance(ci.part, FilePart):  # a file's label (an image by reference: image/jpg)
            standard = normalize_media_type(ci.part.media_type)
            if standard == ci.part.media_type:
                return ci
            warn_media_type(warnings, ci.message_index, ci.part_index, ci.part.media_type, standard, "file")
            return ContentItem(
                ci.message_index, ci.part_index, ci.part.model_copy(update={"media_type": standard})
            )
        if not isinstance(ci.part, ImageURLPart):
            return ci
        url, changed = normalized_data_url(ci.part.url)
        if not changed:
            return ci
        original = parse_data_url(ci.part.url)
        sent = parse_data_url(url)
        assert original is not None and sent is not None
        warn_media_type(warnings, ci.message_index, ci.part_index, original[0], sent[0])
        return ContentItem(ci.message_index, ci.part_index, ci.part.model_copy(update={"url": url}))

    map_content(items, ImageURLPart, fix)


def _attach_developer(items: list[WireItem], index: int, event: DeveloperMessage, warnings: Warnings) -> None:
    """Append to the message right before it if that is a user or tool message; else a user message here.

    Only the immediately preceding conversation message qualifies: attaching across an
    assistant turn would rewrite an earlier request message and move the reminder
    before the answer it follows (prefix stability, I9).
    """
    new = _content_items(index, event.parts, developer=True)
    target = items[-1] if items else None
    if isinstance(target, WireUser):
        target.items.extend(new)
    elif isinstance(target, WireToolResult):
        target.appended.extend(new)
    else:
        items.append(WireUser(index, new, from_developer=True))
        warnings.add(
            index,
            None,
            None,
            Code.DEVELOPER_AS_USER,
            "developer message has no user or tool message right before it; sent as a user message",
        )


def _call_ids(item: WireAssistant) -> list[str]:
    return [
        u.part.call_id for u in item.units if isinstance(u, PartUnit) and isinstance(u.part, ToolCallPart)
    ]


def _results_to_their_calls(items: list[WireItem], warnings: Warnings) -> list[WireItem]:
    """A result recorded after a later assistant turn moves up to the end of its call's turn.

    Why: every provider wants a call's result before the conversation goes on (Anthropic
    in the next message, Chat right after the ``tool_calls`` message, Gemini in the turn
    after the function call), and an agent UI may persist a progress text as an assistant
    turn of its own between a call and its result. The real result still answers the
    call (litellm and LangChain send it); inventing a "not executed" error for the call
    and dropping the real result would tell the model a tool that ran never did. The
    search for a call's result stops at a later call with the same id (backends that
    reuse ids per turn), so a result is never taken from the call it answers.
    """
    out = list(items)
    i = 0
    while i < len(out):
        item = out[i]
        i += 1
        if not isinstance(item, WireAssistant) or item.continues or not _call_ids(item):
            continue
        end = i  # past this response's further pieces and its results window
        calls = list(_call_ids(item))
        while end < len(out) and isinstance(piece := out[end], WireAssistant) and piece.continues:
            calls += _call_ids(piece)
            end += 1
        while end < len(out) and not isinstance(out[end], WireAssistant):
            end += 1
        answered = {w.call_id for w in out[i:end] if isinstance(w, WireToolResult)}
        pending = [c for c in dict.fromkeys(calls) if c not in answered]
        moved: list[WireToolResult] = []
        later = end
        while pending and later < len(out):
            candidate = out[later]
            if isinstance(candidate, WireAssistant) and set(_call_ids(candidate)) & set(pending):
                break  # the id is called again: later results answer that call
            if isinstance(candidate, WireToolResult) and candidate.call_id in pending:
                pending.remove(candidate.call_id)
                moved.append(candidate)
                del out[later]
                continue
            later += 1
        for result in moved:
            warnings.add(
                result.index,
                None,
                None,
                Code.TOOL_RESULT_AFTER_TEXT,
                f"result for call '{result.call_id}' came after a later assistant turn; sent right after "
                f"its call (message {item.index}), the later turn after it",
            )
        out[end:end] = moved
    return out


def _client_run(part: ServerToolCallPart, *, provider: str, native_parts: frozenset[str]) -> bool:
    """A provider's tool call the client executes (Responses ``tool_search_call`` with
    ``execution: client``), sent back to its own provider: when no ``tool_search_output`` answers
    it in the turn, a client result does (recorded accepted: its ``function_call_output`` by the
    call's ``call_id``)."""
    return (
        part.provider == provider
        and part.type in native_parts
        and isinstance(part.raw, dict)
        and part.raw.get("execution") == "client"
    )


def _pair_tool_results(
    items: list[WireItem],
    warnings: Warnings,
    *,
    on_server: bool = False,
    client_run: Callable[[ServerToolCallPart], bool] = lambda _: False,
) -> list[WireItem]:
    """Give every tool call exactly one result, right after its assistant turn, in call order.
    A provider's call the client runs (``client_run``) is a tool call here.

    ``on_server``: the history continues a stored response by reference (``previous_response_id``
    or ``conversation``), so results before the first assistant turn answer calls that live on
    the server: they are sent as they are.
    """
    out: list[WireItem] = []
    i = 0
    while i < len(items):
        item = items[i]
        if (
            isinstance(item, WireToolResult)
            and on_server
            and not any(isinstance(o, WireAssistant) for o in out)
        ):
            out.append(item)
            i += 1
            continue
        if isinstance(item, WireToolResult):
            warnings.add(
                item.index,
                None,
                None,
                Code.TOOL_RESULT_ORPHAN,
                f"result for call '{item.call_id}' has no matching tool call before it; dropped",
            )
            out.extend(_rescue_developer_parts(item, warnings))
            i += 1
            continue
        out.append(item)
        i += 1
        if not isinstance(item, WireAssistant):
            continue
        # Further pieces of the same response (seed 001: text, call A, call B stored as
        # separate messages) share one results window after the last piece.
        group = [item]
        while i < len(items):
            piece = items[i]
            if not (isinstance(piece, WireAssistant) and piece.continues):
                break
            group.append(piece)
            out.append(piece)
            i += 1
        # A client-run provider call answered in the turn itself (its tool_search_output) is done.
        answered = {
            u.part.call_id
            for piece in group
            for u in piece.units
            if isinstance(u, ProviderUnit) and isinstance(u.part, ServerToolResultPart)
        }
        open_runs = {
            u.part.call_id
            for piece in group
            for u in piece.units
            if isinstance(u, ProviderUnit)
            and isinstance(u.part, ServerToolCallPart)
            and client_run(u.part)
            and u.part.call_id not in answered
        }
        calls = [
            u.part
            for piece in group
            for u in piece.units
            if (isinstance(u, PartUnit) and isinstance(u.part, ToolCallPart))
            or (
                isinstance(u, ProviderUnit)
                and isinstance(u.part, ServerToolCallPart)
                and u.part.call_id in open_runs
            )
        ]
        call_message = {
            u.part.call_id: piece.index
            for piece in reversed(group)
            for u in piece.units
            if (isinstance(u, PartUnit) and isinstance(u.part, ToolCallPart))
            or (
                isinstance(u, ProviderUnit)
                and isinstance(u.part, ServerToolCallPart)
                and u.part.call_id in open_runs
            )
        }
        if len(group) > 1 and calls:  # pieces without calls change no pairing
            warnings.add(
                group[-1].index,
                None,
                None,
                Code.RESPONSE_PIECES_JOINED,
                f"messages {', '.join(str(p.index) for p in group)} are pieces of one response (same id or "
                "response_id); their calls share the results that follow the last piece",
            )
        # Everything up to the next assistant turn belongs to this turn's results window.
        window: list[WireItem] = []
        while i < len(items) and not isinstance(items[i], WireAssistant):
            window.append(items[i])
            i += 1
        results = [w for w in window if isinstance(w, WireToolResult)]
        others = [w for w in window if not isinstance(w, WireToolResult)]
        by_id: dict[str, WireToolResult] = {}
        call_ids = {c.call_id for c in calls}
        for r in results:
            if r.call_id not in call_ids:
                warnings.add(
                    r.index,
                    None,
                    None,
                    Code.TOOL_RESULT_ORPHAN,
                    f"result for call '{r.call_id}' does not answer a call of the preceding assistant turn; dropped",
                )
            elif r.call_id in by_id:
                warnings.add(
                    r.index,
                    None,
                    None,
                    Code.TOOL_RESULT_DUPLICATE,
                    f"second result for call '{r.call_id}'; dropped",
                )
            else:
                by_id[r.call_id] = r
        rescued = [
            u for r in results if by_id.get(r.call_id) is not r for u in _rescue_developer_parts(r, warnings)
        ]
        ordered: list[WireItem] = []
        seen_calls: set[str] = set()
        for call in calls:
            if call.call_id in seen_calls:
                continue  # duplicate call ids: one result serves them; flagged below
            seen_calls.add(call.call_id)
            result = by_id.get(call.call_id)
            if result is None:
                warnings.add(
                    call_message[call.call_id],
                    None,
                    "tool_call",
                    Code.TOOL_RESULT_MISSING,
                    f"call '{call.call_id}' has no result; sent an error result saying it was not executed",
                )
                result = WireToolResult(
                    None, call.call_id, call.tool_name, "error", SYNTHETIC_RESULT_TEXT, [], synthesized=True
                )
            ordered.append(result)
        if len(seen_calls) != len(calls):
            warnings.add(
                item.index,
                None,
                "tool_call",
                Code.TOOL_CALL_DUPLICATE_ID,
                "two tool calls share an id; a provider sees one result for both",
            )
        sent_order = [r.call_id for r in ordered if isinstance(r, WireToolResult) and not r.synthesized]
        given_order = [r.call_id for r in results if by_id.get(r.call_id) is r]
        if sent_order != given_order:
            first = min((r.index for r in results if r.index is not None), default=item.index)
            warnings.add(
                first,
                None,
                None,
                Code.TOOL_RESULTS_REORDERED,
                "tool results were not in call order; sent in call order",
            )
        # User content that slipped between the calls and their results follows the results.
        position = {id(w): n for n, w in enumerate(window)}
        last_result = max((position[id(r)] for r in by_id.values()), default=-1)
        moved = [o for o in others if position[id(o)] < last_result]
        if moved:
            warnings.add(
                moved[0].index,
                None,
                None,
                Code.TOOL_RESULTS_MOVED,
                "user content between tool calls and their results was moved after the results",
            )
        out.extend(ordered)
        out.extend(sorted([*others, *rescued], key=lambda w: w.index if w.index is not None else -1))
    return out


def _rescue_developer_parts(result: WireToolResult, warnings: Warnings) -> list[WireItem]:
    """Developer parts attached to a result that is dropped still reach the provider, as a user message."""
    if not result.appended:
        return []
    first = result.appended[0].message_index
    warnings.add(
        first,
        None,
        None,
        Code.DEVELOPER_AS_USER,
        "developer message was attached to a tool result that is dropped; sent as a user message",
    )
    return [WireUser(first, list(result.appended), from_developer=True)]


def _map_ids(items: list[WireItem], ids: IdPolicy, warnings: Warnings) -> None:
    """Ids valid for the provider, and unique across the request.

    A call id an earlier response already used (backends that number ``call_0`` every
    turn) is renumbered ``<id>_<n>``; results follow their own turn (pairing ran per
    turn), so each result keeps its call. Anthropic: "tool_use ids must be unique".
    """
    mapping: dict[str, str] = {}
    earlier: set[str] = set()  # ids sent by earlier responses
    current: dict[str, str] = {}  # ids sent by the current response (its pieces) -> the call id sent so
    for item in items:
        if isinstance(item, WireAssistant):
            if not item.continues:
                earlier.update(current)  # in place: ``earlier |= current.keys()`` copied the set every turn
                current = {}
            local: dict[str, str] = {}
            for unit in item.units:
                if isinstance(unit, PartUnit) and isinstance(unit.part, ToolCallPart):
                    cid = unit.part.call_id
                    if cid in local:
                        item.call_ids[cid] = local[cid]
                        continue
                    sent = ids.map(cid)
                    # taken: by an earlier response, or by another call id of this response mapped alike
                    if sent in earlier or current.get(sent, cid) != cid:
                        n = 2
                        while (candidate := ids.map(f"{cid}_{n}")) in earlier or candidate in current:
                            n += 1
                        renumbered = ids.map(f"{cid}_{n}")
                        why = (
                            "was already used by an earlier response"
                            if sent in earlier
                            else f"maps to '{sent}' like another call of this response"
                        )
                        warnings.add(
                            item.index,
                            unit.index,
                            "tool_call",
                            Code.TOOL_ID_RENUMBERED,
                            f"call id '{cid}' {why}; sent as '{renumbered}' in call and result",
                        )
                        local[cid] = mapping[cid] = item.call_ids[cid] = renumbered
                        current[renumbered] = cid
                        continue
                    local[cid] = sent
                    current[sent] = cid
                    if sent != cid and cid not in mapping:
                        warnings.add(
                            item.index,
                            unit.index,
                            "tool_call",
                            Code.TOOL_ID_MAPPED,
                            f"call id '{cid}' is not valid for this provider; sent as '{sent}' in call and result",
                        )
                    mapping[cid] = sent
                    item.call_ids[cid] = sent
        elif isinstance(item, WireToolResult):
            item.call_id = mapping.get(item.call_id, ids.map(item.call_id))


def _drop_empty_text(items: list[WireItem], warnings: Warnings) -> None:
    """Empty text parts carry nothing and providers reject empty text blocks. A whitespace-only part
    between two texts of the same message joins the text before it instead (``"a", "\\n\\n", "b"``
    must not become ``"ab"``: langchain-anthropic's drop of such a block joined two paragraphs of a
    cited answer, ``test_web_fetch_v1.yaml.gz`` of LangChain's cassettes); at a message's ends it
    is dropped, with a warning."""
    for item in items:
        if isinstance(item, WireUser):
            item.items = _without_blank_text(item.items, warnings)
        elif isinstance(item, WireAssistant):
            item.units = _fold_blank_units(item.units, item.index, warnings)
        else:
            item.appended = _without_blank_text(item.appended, warnings)


def _blank_text(part: object) -> bool:
    return isinstance(part, TextPart) and bool(part.text) and not part.text.strip()


def _text(part: object) -> bool:
    """A text part that carries something (whitespace can join it)."""
    return isinstance(part, TextPart) and bool(part.text.strip())


def _fold_blanks(
    parts: list[object], joinable: Callable[[int, int], bool]
) -> tuple[dict[int, str], set[int]]:
    """Each run of whitespace-only text parts between two texts (joinable: of the same message)
    joins the text before it: its index -> the whitespace to append, and the run's indices, which
    leave the list with nothing lost. A run at either end stays, for the caller to drop with a
    warning (whitespace around a message's content carries nothing)."""
    after: dict[int, str] = {}
    joined: set[int] = set()
    i = 0
    while i < len(parts):
        if not _blank_text(parts[i]):
            i += 1
            continue
        j = i
        while j < len(parts) and _blank_text(parts[j]):
            j += 1
        run = range(i, j)
        inner = i > 0 and j < len(parts) and _text(parts[i - 1]) and _text(parts[j])
        if inner and all(joinable(i - 1, k) and joinable(k, j) for k in run):
            after[i - 1] = "".join(str(getattr(parts[k], "text", "")) for k in run)
            joined.update(run)
        i = j
    return after, joined


def _joined(part: object, after: str) -> TextPart:
    assert isinstance(part, TextPart)
    return part.model_copy(update={"text": part.text + after})


def _fold_blank_units(units: list[AssistantUnit], index: int, warnings: Warnings) -> list[AssistantUnit]:
    parts: list[object] = [u.part if isinstance(u, PartUnit) else None for u in units]
    after, folded = _fold_blanks(parts, lambda _i, _j: True)
    kept: list[AssistantUnit] = []
    for n, unit in enumerate(units):
        if n in folded:
            continue
        if isinstance(unit, PartUnit):
            if n in after:
                unit = PartUnit(_joined(unit.part, after[n]), unit.index)
            elif _blank_dropped(unit.part, index, unit.index, warnings):
                continue
        kept.append(unit)
    return kept


def _without_blank_text(items: list[ContentItem], warnings: Warnings) -> list[ContentItem]:
    parts: list[object] = [ci.part for ci in items]

    def same(i: int, j: int) -> bool:
        return items[i].message_index == items[j].message_index

    after, folded = _fold_blanks(parts, same)
    kept: list[ContentItem] = []
    for n, ci in enumerate(items):
        if n in folded:
            continue
        if n in after:
            ci = ContentItem(ci.message_index, ci.part_index, _joined(ci.part, after[n]))
        elif _blank_dropped(ci.part, ci.message_index, ci.part_index, warnings):
            bp = getattr(ci.part, "cache_breakpoint", None)
            last = kept[-1] if kept else None
            if bp is not None and last is not None and last.part.cache_breakpoint is None:
                # the cache still ends here: after the last part sent before the blank one
                moved = last.part.model_copy(update={"cache_breakpoint": bp})
                kept[-1] = ContentItem(last.message_index, last.part_index, moved)
            continue
        kept.append(ci)
    return kept


def _blank_dropped(
    part: object, message_index: int | None, part_index: int | None, warnings: Warnings
) -> bool:
    """True, with the warning that names it, when ``part`` is an empty or whitespace-only text part."""
    if not isinstance(part, TextPart) or part.text.strip():
        return False
    warnings.add(
        message_index, part_index, "text", Code.EMPTY_TEXT, "empty or whitespace-only text part dropped"
    )
    return True


def _drop_discovered_tools(items: list[WireItem], provider: str, native: bool, warnings: Warnings) -> None:
    """A tool result's discovered tools go only to a provider with a place for them (Anthropic
    ``tool_reference``); elsewhere they are not sent, warned (the model then has not loaded them)."""
    if native:
        return
    for item in items:
        if isinstance(item, WireToolResult) and item.discovered_tools:
            warnings.add(
                item.index,
                None,
                "discovered_tools",
                Code.DISCOVERED_TOOLS_NOT_SENT,
                f"{provider} has no place for the tools a result loads "
                f"({', '.join(item.discovered_tools)}); not sent",
            )
            item.discovered_tools = []


def _drop_empty_messages(items: list[WireItem], warnings: Warnings) -> list[WireItem]:
    kept: list[WireItem] = []
    for item in items:
        if isinstance(item, WireUser) and not item.items:
            warnings.add(
                item.index, None, None, Code.EMPTY_MESSAGE, "user message has no content left; dropped"
            )
        elif isinstance(item, WireAssistant) and not item.units:
            warnings.add(
                item.index, None, None, Code.EMPTY_MESSAGE, "assistant message has no content left; dropped"
            )
        else:
            kept.append(item)
    return kept
