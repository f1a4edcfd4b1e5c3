"""I13 no-silent-loss: every canonical part reaches the request, or a warning names its message.

Rule (DESIGN "Adapters, Input"): every part that is dropped or degraded yields a
warning naming the message index, the part and the reason. A part counts as sent when
its content is in the body: a text (stripped) inside some string, an image's URL or
base64 payload, a signature byte-exact, a tool call's id (verbatim or as mapped) and
its arguments (the JSON string, or the equal object), a tool result's output text, a file's
source (its bytes, URL, file id or cloud URI; a text document's text), a tool a system
message adds (its name, in the tool list or the addition).
Error and task metadata events are replay records, not conversation content.
"""

from __future__ import annotations

import json
from typing import cast

from harness.invariants.base import CheckContext, Json, Violation, dicts, leaves, signature_key
from harness.invariants.canonical import body_calls, sent_call_ids
from harness.invariants.files import file_sent, structured_text_sent
from harness.invariants.memo import TextIndex
from harness.model import (
    AddedTool,
    AnyPart,
    AssistantMessage,
    DeveloperMessage,
    FilePart,
    ImageFilePart,
    ImageURLPart,
    ServerToolCallPart,
    ServerToolResultPart,
    SourcePart,
    SystemMessage,
    TextPart,
    ThinkingSignaturePart,
    ThinkingTextPart,
    ToolCallPart,
    ToolResultMessage,
    UserMessage,
)

__all__ = ["check_no_silent_loss"]

ID = "I13"


def check_no_silent_loss(ctx: CheckContext) -> list[Violation]:
    body = _BodyIndex(ctx.body)  # indexed once: a pass over the body per part is quadratic
    mapping = sent_call_ids(ctx.history, ctx.provider, ctx.body)
    calls = body_calls(ctx.provider, ctx.body)
    call_ids = {c.id for c in calls}
    # Gemini's function calls may go without an id (matched by name and position): such a call is
    # sent when its name is on an id-less call of the body (the arguments are checked after)
    call_ids |= {f"name:{c.name}" for c in calls if c.id is None and c.name}
    out: list[Violation] = []
    images_sent = _image_blocks(ctx.body)
    images_given = sum(
        isinstance(p, ImageURLPart)
        for e in ctx.history
        if isinstance(e, UserMessage | DeveloperMessage | ToolResultMessage)
        for p in e.parts
    )
    for index, event in enumerate(ctx.history):
        if isinstance(event, SystemMessage):  # a tool added here is declared somewhere, or warned
            for tool in event.added_tools or []:
                if not ctx.warned(index) and not _declared(tool, ctx.body, body):
                    out.append(
                        _lost(ctx, index, f"added tool {tool.name!r}", tool.model_dump(exclude_none=True))
                    )
        if isinstance(event, SystemMessage | UserMessage | DeveloperMessage | AssistantMessage):
            parts: list[AnyPart] = list(event.parts)
            for pidx, part in enumerate(parts):
                if not ctx.warned(index, pidx) and not _sent(part, body, mapping, call_ids):
                    if isinstance(part, ImageURLPart) and images_sent >= images_given:
                        out.append(_reencoded(ctx, index, pidx))
                        continue
                    out.append(
                        _lost(ctx, index, f"part {pidx} ({part.type})", part.model_dump(exclude_none=True))
                    )
        elif isinstance(event, ToolResultMessage):
            if (
                not ctx.warned(index)
                and not body.text(event.output_text)
                # sent as the tool's several text blocks (I14 judges the split)
                and not (
                    event.text_blocks and all(body.text(b) for b in event.text_block_list() if b.strip())
                )
                and not structured_text_sent(event.output_text, event.output_json, ctx.body)
            ):
                out.append(_lost(ctx, index, "output_text", {"output_text": event.output_text}))
            for pidx, image in enumerate(event.parts):
                if not ctx.warned(index, pidx) and not _sent(image, body, mapping, call_ids):
                    out.append(
                        _lost(ctx, index, f"part {pidx} ({image.type})", image.model_dump(exclude_none=True))
                    )
    return out


#: Where a tool definition keeps its schema, by wire (Chat/Responses, Anthropic, Gemini, Bedrock).
_SCHEMA_KEYS = ("parameters", "input_schema", "parametersJsonSchema", "parameters_json_schema", "inputSchema")


def _declared(tool: AddedTool, raw: Json, body: _BodyIndex) -> bool:
    """An added tool is declared: a definition or a reference by its name (a call of it is not
    one), with its description when it has one (a definition derived from calls has another)."""
    named = any(
        d.get("name") == tool.name
        and (d.get("type") == "tool_reference" or any(k in d for k in _SCHEMA_KEYS))
        for d in dicts(raw)
    )
    defined = tool.parameters is not None and bool(tool.description)
    return named and (not defined or body.text(tool.description or ""))


def _image_blocks(body: Json) -> int:
    """Image blocks in the body, in any provider's form (Anthropic ``image``, OpenAI ``image_url`` /
    ``input_image``, Gemini ``inlineData`` / ``fileData``)."""
    return sum(
        1
        for d in dicts(body)
        if d.get("type") in ("image", "image_url", "input_image") or "inlineData" in d or "fileData" in d
    )


def _reencoded(ctx: CheckContext, index: int, pidx: int) -> Violation:
    """Every image reached the request, but not byte-identical: a client that re-encodes (resizes,
    recompresses) sends the picture the user meant, so only the bytes differ (``policy``)."""
    return ctx.violation(
        ID,
        index,
        f"part {pidx} (image_url) is in the request only re-encoded (the bytes differ; the image is there)",
        None,
        kind="policy",
    )


def _lost(ctx: CheckContext, index: int, what: str, example: object) -> Violation:
    """Losing what a person wrote (user, system, developer, tool output) is always ``degrade``."""
    user_content = not isinstance(ctx.history[index], AssistantMessage)
    return ctx.violation(
        ID,
        index,
        f"{what} is neither in the request nor named by a warning",
        example,
        kind=ctx.unwarned_kind(user_content=user_content),
    )


class _BodyIndex:
    """The body's strings and objects, indexed once for ``found_text``/``found_arguments`` questions."""

    def __init__(self, body: Json) -> None:
        self.strings = TextIndex([leaf for _, leaf in leaves(body)])
        self._body = body
        self._objects: set[object] | None = None
        self._signatures: set[bytes | str] | None = None
        self._raws: set[str] | None = None

    def holds(self, raw: object) -> bool:
        """A JSON object equal to ``raw`` is somewhere in the body (indexed on first use)."""
        if raw is None:
            return False
        if self._raws is None:
            self._raws = {json.dumps(d, sort_keys=True, ensure_ascii=False) for d in dicts(self._body)}
        return json.dumps(raw, sort_keys=True, ensure_ascii=False) in self._raws

    def has_signature(self, signature: str) -> bool:
        """The signature's bytes are in the body, in either base64 alphabet (indexed on first use)."""
        if self._signatures is None:
            self._signatures = {signature_key(s) for s in self.strings.exact if len(s) >= 8}
        return signature_key(signature) in self._signatures

    def text(self, value: str) -> bool:
        """``found_text``: the stripped value inside some string of the body, as is or JSON-escaped.

        A tool result sent as a JSON document in a string (pydantic-ai's ``{"error": ...}``)
        carries the text escaped (a newline as ``\\n``): the model still reads all of it.
        """
        needle = value.strip()
        if self.strings.contains(needle):
            return True
        escaped = {json.dumps(needle, ensure_ascii=a)[1:-1] for a in (False, True)} - {needle}
        return any(self.strings.contains(e) for e in escaped)

    def arguments(self, arguments_json: str) -> bool:
        """``found_arguments``: verbatim as a string, or an equal JSON value somewhere in the body: an
        object, or a string holding it re-serialised (``json.dumps`` of the parsed arguments, other
        spacing or key order: LangChain sends them so; the model reads the same call)."""
        if not arguments_json.strip() or arguments_json in self.strings.exact:
            return True
        try:
            value = json.loads(arguments_json)
        except (json.JSONDecodeError, RecursionError):
            return False
        if self._objects is None:
            self._objects = {_frozen(d) for d in dicts(self._body)} | self._json_strings()
        try:
            return _frozen(value) in self._objects
        except TypeError:
            return False

    def _json_strings(self) -> set[object]:
        """The JSON values held in the body's strings that read as a JSON object or array."""
        out: set[object] = set()
        for text in self.strings.exact:
            if text[:1] not in ("{", "["):
                continue
            try:
                out.add(_frozen(json.loads(text)))
            except (json.JSONDecodeError, RecursionError, TypeError):
                continue
        return out


def _frozen(value: object) -> object:
    """A hashable form with ``==`` semantics of the JSON value (dict order ignored, 1 == 1.0)."""
    if isinstance(value, dict):
        return frozenset((k, _frozen(v)) for k, v in cast(Json, value).items())
    if isinstance(value, list):
        return ("[list]", *(_frozen(v) for v in cast(list[object], value)))
    return value


def _sent(part: AnyPart, body: _BodyIndex, mapping: dict[str, str], call_ids: set[str | None]) -> bool:
    if isinstance(part, TextPart | ThinkingTextPart):
        return body.text(part.text)
    if isinstance(part, ThinkingSignaturePart):
        return (
            not part.signature or part.signature in body.strings.exact or body.has_signature(part.signature)
        )
    if isinstance(part, ImageURLPart):
        payload = part.url.partition(",")[2] if part.url.startswith("data:") else part.url
        return body.text(payload)
    if isinstance(part, ImageFilePart):
        return body.text(part.file_path)
    if isinstance(part, ServerToolCallPart | ServerToolResultPart | SourcePart):
        # the provider's own block back in the body; a result without one rides on its call's item
        return (part.raw is None and isinstance(part, ServerToolResultPart)) or body.holds(part.raw)
    if isinstance(part, FilePart):
        return file_sent(part, body.text)
    assert isinstance(part, ToolCallPart)
    sent_id = mapping.get(part.call_id, part.call_id)
    named = part.call_id not in mapping and f"name:{part.tool_name}" in call_ids
    return (sent_id in call_ids or named) and body.arguments(part.arguments_json)
