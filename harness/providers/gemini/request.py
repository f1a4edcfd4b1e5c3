"""Input adapter for the Google Gemini API (``generateContent`` REST, v1beta), provider id ``gemini``.

Maps a canonical history to the camelCase REST body of
https://ai.google.dev/api/generate-content#request-body (Discovery schema
``GenerateContentRequest``). The model and streaming live in the URL
(``models/{model}:streamGenerateContent?alt=sse``, see ``endpoint_path``), so the
body has neither a ``model`` nor a ``stream`` field.

Decisions (where DESIGN.md left room), each with its scenario and function, and the
warning codes emitted here: DECISIONS.md beside this module.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from harness.contract.gemini_contents import is_media_part, media_after_responses
from harness.contract.rendered import Rendered
from harness.contract.thinking import google_signature_carrier
from harness.contract.warning_codes import Code
from harness.mapping.cache import warn_by_profile
from harness.mapping.call_controls import apply_controls
from harness.mapping.controls import allowed_tools, tool_choice
from harness.mapping.file_support import FileSupport
from harness.mapping.files import warn_moved, warn_order_lost
from harness.mapping.prepare import prepare
from harness.mapping.provider_parts import SERVER_PARTS, place_definitions, server_tool_definitions
from harness.mapping.toolbox import (
    parse_arguments,
    parse_data_url,
    placeholder_user,
    signature_drop_code,
    signature_problem,
    thinking_text_problem,
)
from harness.mapping.wire import (
    ContentItem,
    PartUnit,
    ProviderUnit,
    Warnings,
    WireAssistant,
    WireItem,
    WireToolResult,
)
from harness.model import (
    FilePart,
    HistoryEvent,
    ImageURLPart,
    ServerToolCallPart,
    ServerToolResultPart,
    SourcePart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
)
from harness.params import CallParams
from harness.providers.gemini import profile
from harness.providers.gemini.content import content_part as _content_part
from harness.providers.gemini.content import user_parts as _user_parts
from harness.providers.gemini.files import file_blob, inside_response
from harness.providers.gemini.params import (
    function_tool,
    generation_config,
    server_tool_definition,
    system_instruction,
    system_into_first_user,
    tool_config,
)
from harness.providers.gemini.profile import (
    ACCEPTS_UNDECLARED_CALLS,
    DEFAULT_MODEL,
    ID_POLICY,
    TOOL_NAMES,
)

__all__ = [
    "ADAPTER",
    "DEFAULT_MODEL",
    "PROVIDER_ID",
    "SKIP_SIGNATURE",
    "GeminiAdapter",
    "endpoint_path",
    "model_name",
]

PROVIDER_ID = "gemini"
# Documented sentinel for function calls with no real signature (Gemini 3 validation).
SKIP_SIGNATURE = "skip_thought_signature_validator"

Json = dict[str, Any]


class GeminiAdapter:
    """``history + params -> generateContent body``; see the module docstring."""

    provider = PROVIDER_ID

    def render(self, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        model = model_name(params)
        prepared = prepare(
            history,
            params,
            PROVIDER_ID,
            ID_POLICY,
            TOOL_NAMES,
            undeclared_calls_accepted=ACCEPTS_UNDECLARED_CALLS,
            native_parts=SERVER_PARTS,  # grounding sources have no place in a request
            files=profile.files_for(model),
        )
        warnings = prepared.warnings
        body: Json = {"contents": _contents(prepared.items, model, warnings)}
        system = system_instruction(prepared.system)
        if system is not None and profile.accepts_system_instruction(model):
            body["systemInstruction"] = system
        elif system is not None:
            system_into_first_user(body["contents"], system, model, warnings)
        functions = [function_tool(prepared.tools, warnings)] if prepared.tools else []
        servers = server_tool_definitions(params, PROVIDER_ID, warnings, server_tool_definition)
        tools = place_definitions(functions, servers)
        if tools:
            body["tools"] = tools
        calling = (
            tool_config(
                tool_choice(params, prepared, validated=True), allowed_tools(params, prepared), warnings
            )
            or {}
        )
        if params.server_tool_invocations is not None:
            calling["includeServerSideToolInvocations"] = params.server_tool_invocations
        if calling:
            body["toolConfig"] = calling
        config = generation_config(params, model, warnings)
        if config:
            body["generationConfig"] = config
        apply_controls(body, params, profile.CONTROLS, warnings)
        warn_by_profile(history, params, warnings, profile.CONTROLS)
        return Rendered(body, list(warnings))


ADAPTER = GeminiAdapter()


# ---------------------------------------------------------------- model and URL


def model_name(params: CallParams) -> str:
    """The model the request goes to, without a ``models/`` prefix (default when unset)."""
    name = params.model or DEFAULT_MODEL
    return name.removeprefix("models/")


def endpoint_path(params: CallParams) -> str:
    """Where the body is POSTed, relative to ``https://generativelanguage.googleapis.com/v1beta/``.

    Why: the model and streaming are URL-level in Gemini (Discovery methods
    ``models.generateContent`` / ``models.streamGenerateContent``), not body fields.
    """
    method = "streamGenerateContent?alt=sse" if params.stream else "generateContent"
    return f"models/{model_name(params)}:{method}"


# ---------------------------------------------------------------- contents


@dataclass
class _Turn:
    """One ``Content`` under construction, with the canonical message it starts at (for warnings)."""

    role: str
    index: int | None
    parts: list[Json] = field(default_factory=lambda: [])


def _contents(items: list[WireItem], model: str, warnings: Warnings) -> list[Json]:
    """Wire items -> alternating ``user``/``model`` contents.

    https://ai.google.dev/api/caching#Content
    """
    turns: list[_Turn] = []
    calls: dict[str, str] = {}  # sent call id -> tool name, for functionResponse.name
    counts: Counter[str] = Counter()  # sent call id -> functionCall parts of the turn carrying it
    i = 0
    while i < len(items):
        item = items[i]
        if isinstance(item, WireAssistant):
            # Pieces of one response (seed 001) share the results that follow the last piece.
            calls = {**calls, **_call_names(item)} if item.continues else _call_names(item)
            counts = counts + _call_counts(item) if item.continues else _call_counts(item)
            # Every model step, not only the current turn's: Gemini validates the current
            # turn only, but a placeholder that vanishes once a turn is appended would change
            # the earlier contents, and with them the cached prefix (prefix stability, I9).
            validate = profile.validates_call_signatures(model)
            turns.append(_Turn("model", item.index, _assistant_parts(item, model, validate, warnings)))
            i += 1
        elif isinstance(item, WireToolResult):
            group: list[WireToolResult] = []
            while i < len(items) and isinstance(items[i], WireToolResult):
                result = items[i]
                assert isinstance(result, WireToolResult)
                group.append(result)
                i += 1
            parts, media = _tool_results_parts(group, calls, profile.files_for(model), warnings)
            parts = _one_response_per_call(parts, counts)
            turns.append(_Turn("user", group[0].index, parts))
            if media:
                turns.append(_Turn("user", group[0].index, media))
        else:
            turns.append(_Turn("user", item.index, _user_parts(item, warnings)))
            i += 1
    contents = [{"role": t.role, "parts": t.parts} for t in _merge_turns(turns, warnings)]
    return _ensure_user_first(contents, warnings)


def _ensure_user_first(contents: list[Json], warnings: Warnings) -> list[Json]:
    """``contents`` must open with a ``user`` content, and must not be empty.

    Gemini rejects a request without contents, and a conversation whose first content is
    the model's (Google's own SDKs refuse such a history: "First content should be with
    role 'user'"; a leading ``functionCall`` breaks "function call turn comes immediately
    after a user turn or after a function response turn"). That happens when trimming cut
    the history before an assistant turn. A placeholder user content is put first (warned),
    rather than dropping the model's turn (Anthropic, which accepts an assistant-first
    conversation, needs none: docs/import-check-decisions.md#placeholder-turns).
    """
    if contents and contents[0]["role"] == "user":
        return contents
    reason = (
        "conversation starts with a model turn; a placeholder user content was inserted before it"
        if contents
        else "history has no content to send; a placeholder user content was sent"
    )
    return [{"role": "user", "parts": [{"text": placeholder_user(warnings, reason)}]}, *contents]


_BASE64 = re.compile(r"[A-Za-z0-9+/_-]*={0,2}")


def _is_base64(value: str) -> bool:
    """Standard or URL-safe base64 (Gemini returns one and accepts both), padding optional."""
    if _BASE64.fullmatch(value) is None:
        return False
    stripped = value.rstrip("=")
    return len(stripped) % 4 != 1


def _merge_turns(turns: list[_Turn], warnings: Warnings) -> list[_Turn]:
    """Merge consecutive same-role contents, except media into function responses; drop empty contents.

    A user content holding media stays apart from a content of ``functionResponse`` parts
    before it: the rule and its evidence are in ``harness.contract.gemini_contents``,
    shared with the I8 judge.
    """
    merged: list[_Turn] = []
    for turn in turns:
        if not turn.parts:
            warnings.add(
                turn.index, None, None, Code.EMPTY_MESSAGE, f"{turn.role} content has no parts left; dropped"
            )
            continue
        if (
            merged
            and merged[-1].role == turn.role
            and not media_after_responses(merged[-1].parts, turn.parts)
        ):
            merged[-1].parts.extend(turn.parts)
            warnings.add(
                turn.index,
                None,
                None,
                Code.ROLES_MERGED,
                f"consecutive {turn.role} contents merged into one (Gemini alternates user and model)",
            )
            continue
        merged.append(turn)
    return merged


def _call_names(item: WireAssistant) -> dict[str, str]:
    names: dict[str, str] = {}
    for unit in item.units:
        if isinstance(unit, PartUnit) and isinstance(unit.part, ToolCallPart):
            names.setdefault(item.call_ids.get(unit.part.call_id, unit.part.call_id), unit.part.tool_name)
    return names


def _call_counts(item: WireAssistant) -> Counter[str]:
    return Counter(
        item.call_ids.get(unit.part.call_id, unit.part.call_id)
        for unit in item.units
        if isinstance(unit, PartUnit) and isinstance(unit.part, ToolCallPart)
    )


def _one_response_per_call(parts: list[Json], counts: Counter[str]) -> list[Json]:
    """A response repeated for each ``functionCall`` part sharing its id (``tool-call-duplicate-id``).

    Gemini counts: "the number of function response parts is equal to the number of
    function call parts of the function call turn" (google-gemini/gemini-cli#4217), so
    two calls with one id need two responses; ``prepare()`` keeps one result for both.
    """
    out: list[Json] = []
    for part in parts:
        out.append(part)
        response = part.get("functionResponse")
        if isinstance(response, dict):
            call_id = cast(dict[str, Any], response).get("id")
            out += [copy.deepcopy(part) for _ in range(counts.get(str(call_id), 1) - 1)]
    return out


# ---------------------------------------------------------------- user content


# ---------------------------------------------------------------- model content


def _assistant_parts(item: WireAssistant, model: str, validate_calls: bool, warnings: Warnings) -> list[Json]:
    """An assistant message -> ``model`` parts, with ``google`` signatures on the part before them.

    Iterates the canonical parts (not ThinkingUnits): for Gemini a signature belongs to
    the part that carried it, which the canonical message stores right before it.
    https://ai.google.dev/gemini-api/docs/thought-signatures
    """
    # Indices prepare kept (it drops empty text and already warned about it), with the
    # parts as prepare left them (tool names mapped, media types normalised).
    kept = {unit.index: unit.part for unit in item.units if isinstance(unit, PartUnit | ProviderUnit)}
    parts = [kept.get(idx, part) for idx, part in enumerate(item.message.parts)]
    built: dict[int, Json] = {}
    out: list[Json] = []
    first_call: tuple[int, Json] | None = None
    for idx, part in enumerate(parts):
        wire: Json | None = None
        if isinstance(part, ThinkingSignaturePart):
            _attach_signature(item, idx, part, built, model, warnings)
        elif isinstance(part, ThinkingTextPart):
            following = parts[idx + 1] if idx + 1 < len(parts) else None
            wire = _thought_part(item.index, idx, part, following, model, warnings)
        elif idx not in kept:
            continue  # dropped (and warned) by prepare
        elif isinstance(part, ToolCallPart):
            wire = _function_call_part(item, idx, part, warnings)
            if first_call is None:
                first_call = (idx, wire)
        elif isinstance(part, ServerToolCallPart | ServerToolResultPart | SourcePart):
            # Gemini's own server-side invocation part, byte-exact (its signature rides on it below).
            wire = None if isinstance(part, SourcePart) or part.raw is None else dict(part.raw)
        else:
            wire = _content_part(part, item.index, idx, warnings)
        if wire is not None:
            built[idx] = wire
            out.append(wire)
    if validate_calls and first_call is not None and "thoughtSignature" not in first_call[1]:
        first_call[1]["thoughtSignature"] = SKIP_SIGNATURE
        warnings.add(
            item.index,
            first_call[0],
            "tool_call",
            Code.THOUGHT_SIGNATURE_DUMMY,
            f"Gemini 3 validates the first function call of each step (in the current turn; sent on every "
            f"step so earlier contents never change) and this one has no native signature; sent '{SKIP_SIGNATURE}'",
        )
    return out


def _function_call_part(item: WireAssistant, idx: int, part: ToolCallPart, warnings: Warnings) -> Json:
    """``{"functionCall": {"id", "name", "args"}}``; args must be an object.

    https://ai.google.dev/api/caching#FunctionCall
    """
    args, problem = parse_arguments(part.arguments_json)
    if problem is not None:
        warnings.add(item.index, idx, "tool_call", Code.TOOL_ARGUMENTS_INVALID, problem)
    call_id = item.call_ids.get(part.call_id, part.call_id)
    return {"functionCall": {"id": call_id, "name": part.tool_name, "args": args}}


def _thought_part(
    index: int,
    idx: int,
    part: ThinkingTextPart,
    following: object,
    model: str,
    warnings: Warnings,
) -> Json | None:
    """Thinking text that carries a native signature -> a ``thought: true`` text part; else None.

    Gemini thought summaries are output-only: replayed without their signature they
    carry nothing the model can use, so unsigned or foreign thinking is dropped (lesson 1).
    """
    problem = _thought_problem(part, following, model)
    if problem is not None:
        code, reason = problem
        warnings.add(index, idx, "thinking_text", code, f"{reason}; thinking dropped")
        return None
    if not part.text.strip():
        warnings.add(index, idx, "thinking_text", Code.EMPTY_TEXT, "empty thinking text dropped")
        return None
    return {"text": part.text, "thought": True}


def _thought_problem(part: ThinkingTextPart, following: object, model: str) -> tuple[Code, str] | None:
    """(warning code, reason) when thinking text cannot be replayed as a native thought."""
    problem = thinking_text_problem(part, model)
    if problem is not None:
        return Code.THINKING_FOREIGN, problem
    if not isinstance(following, ThinkingSignaturePart):
        return (
            Code.THINKING_UNSIGNED,
            "thinking text has no signature after it; Gemini thought summaries are output-only",
        )
    sig_problem = signature_problem(following, PROVIDER_ID, model)
    if sig_problem is not None:
        code = signature_drop_code(following)
        return code, f"its signature cannot be sent ({sig_problem})"
    return None


def _attach_signature(
    item: WireAssistant,
    idx: int,
    sig: ThinkingSignaturePart,
    built: dict[int, Json],
    model: str,
    warnings: Warnings,
) -> None:
    """Put a native ``google`` signature on the part right before it; warn and drop otherwise."""
    problem = signature_problem(sig, PROVIDER_ID, model)
    if problem is not None:
        code = signature_drop_code(sig)
        warnings.add(item.index, idx, "thinking_signature", code, f"{problem}; dropped")
        return
    if not _is_base64(sig.signature):
        warnings.add(
            item.index,
            idx,
            "thinking_signature",
            Code.SIGNATURE_INVALID,
            "thoughtSignature is bytes on the wire and this signature is not base64; dropped",
        )
        return
    carrier = google_signature_carrier(item.message.parts, idx)
    if carrier is None:
        reason = "no part before it carries it"
    elif carrier not in built:
        reason = "the part it belongs to was dropped"
    else:
        built[carrier]["thoughtSignature"] = sig.signature
        return
    warnings.add(
        item.index,
        idx,
        "thinking_signature",
        Code.THINKING_SIGNATURE_UNPAIRED,
        f"{reason}; the signature stays in history but is not sent",
    )


# ---------------------------------------------------------------- function responses


def _tool_results_parts(
    results: list[WireToolResult], calls: dict[str, str], files: FileSupport, warnings: Warnings
) -> tuple[list[Json], list[Json]]:
    """A model turn's results as two user contents' parts: ``functionResponse`` parts in call
    order, then the results' images and appended developer parts. Media parts among those go
    in a second content of their own, in order (never media beside function responses, see
    ``_merge_turns``); text parts stay with the function responses, as before.

    On a model whose function responses are multimodal (Gemini 3: ``files.tool`` says which
    files), a result's base64 images and its files go inside its ``functionResponse.parts``
    (``inlineData`` for bytes, ``fileData`` for references, FunctionResponsePart); other images
    and files take the older path (``tool-image-moved`` / ``tool-file-moved``).
    https://ai.google.dev/gemini-api/docs/function-calling (function responses)
    """
    parts: list[Json] = []
    after: list[Json] = []
    outside: list[list[ContentItem]] = []
    for result in results:
        response = _function_response_part(result, calls, warnings)
        warn_order_lost(warnings, result, "Gemini's functionResponse")
        multimodal = bool(files.tool)
        inside, rest = _split_inline_images(result.images, files) if multimodal else ([], list(result.images))
        if inside:
            response["functionResponse"]["parts"] = inside
        parts.append(response)
        outside.append(rest)
    for pos, result in enumerate(results):
        for ci in outside[pos]:
            part = _content_part(ci.part, ci.message_index, ci.part_index, warnings)
            if part is not None and isinstance(ci.part, FilePart):
                after.append(part)
                if is_media_part(part):
                    warn_moved(
                        warnings,
                        ci.message_index,
                        ci.part_index,
                        "sent right after the turn's function responses, in a user content of its own",
                    )
            elif part is not None:
                after.append(part)
                warnings.add(
                    ci.message_index,
                    ci.part_index,
                    ci.part.type,
                    Code.TOOL_IMAGE_MOVED,
                    "functionResponse cannot hold this image for every model; sent right after the "
                    "turn's function responses, in a user content of its own",
                )
        after.extend(_appended_parts(result, is_last=pos == len(results) - 1, warnings=warnings))
    return parts + [p for p in after if not is_media_part(p)], [p for p in after if is_media_part(p)]


def _split_inline_images(
    images: list[ContentItem], files: FileSupport
) -> tuple[list[Json], list[ContentItem]]:
    """Base64 images and the files a function response holds, as FunctionResponsePart dicts
    (for ``functionResponse.parts``), and the rest."""
    inside: list[Json] = []
    rest: list[ContentItem] = []
    for ci in images:
        # FunctionResponsePart has no videoMetadata: such a video goes with the rest, as a Part.
        if (
            isinstance(ci.part, FilePart)
            and inside_response(files, ci.part)
            and ci.part.video_metadata is None
        ):
            inside.append(file_blob(ci.part))
            continue
        data = parse_data_url(ci.part.url) if isinstance(ci.part, ImageURLPart) else None
        if data is not None and data[0].startswith("image/"):
            inside.append({"inlineData": {"mimeType": data[0], "data": data[1]}})
        else:
            rest.append(ci)
    return inside, rest


def _appended_parts(result: WireToolResult, *, is_last: bool, warnings: Warnings) -> list[Json]:
    """Developer parts attached to a tool result, as ordinary user parts."""
    items: list[ContentItem] = result.appended
    if items and not is_last:
        warnings.add(
            items[0].message_index,
            None,
            None,
            Code.TOOL_ATTACHMENT_MOVED,
            "developer content attached to a tool result is sent after all of the turn's function responses",
        )
    parts: list[Json] = []
    for ci in items:
        part = _content_part(ci.part, ci.message_index, ci.part_index, warnings)
        if part is not None:
            parts.append(part)
    return parts


def _function_response_part(result: WireToolResult, calls: dict[str, str], warnings: Warnings) -> Json:
    """``{"functionResponse": {"id", "name", "response": {"output"|"error": text}}}``, or the
    structured value as ``response`` where the result has one (an object is the response itself).

    google-genai documents ``output`` for the function output and ``error`` for failures.
    https://ai.google.dev/api/caching#FunctionResponse
    """
    name = calls.get(result.call_id, result.tool_name)
    if name != result.tool_name:
        warnings.add(
            result.index,
            None,
            None,
            Code.TOOL_NAME_MISMATCH,
            f"result names tool '{result.tool_name}' but its call is '{name}'; sent the call's name",
        )
    key = "error" if result.is_error else "output"
    response: Any = {key: result.output_text}
    if isinstance(result.output_json, dict):
        response = result.output_json  # the structured value is the response object itself
    elif result.output_json is not None:
        response = {key: result.output_json}
    return {"functionResponse": {"id": result.call_id, "name": name, "response": response}}
