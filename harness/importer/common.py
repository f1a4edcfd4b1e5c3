"""What every provider's request reader shares: the unrepresented-part ledger and small JSON helpers."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, cast

from harness.importer.files import chat_file
from harness.model import CacheBreakpoint, ContentPart, ImageURLPart, TextPart, ToolCallPart
from harness.params import Effort, ForcedTool, OutputFormat, ToolChoice, ToolSpec

Json = dict[str, Any]


def obj(value: Any) -> Json:
    return cast(Json, value) if isinstance(value, dict) else {}


def arr(value: Any) -> list[Any]:
    return cast(list[Any], value) if isinstance(value, list) else []


def show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass
class Ledger:
    """Everything a reader saw but could not put in the canonical history or params, one line each."""

    lines: list[str] = field(default_factory=lambda: [])

    def note(self, path: str, reason: str) -> None:
        self.lines.append(f"{path}: {reason}")

    def items(self, value: Any, path: str) -> list[Any]:
        """A list the body should hold there; anything else but null is named rather than read as empty."""
        if value is not None and not isinstance(value, list):
            self.note(path, f"expected a list, got {show(value)}")
        return arr(value)

    def rest(self, value: Json, path: str, known: set[str], defaults: Json | None = None) -> None:
        """Name every key of ``value`` the reader does not read (a documented API default is represented by absence)."""
        for key in sorted(value):
            if key in known:
                continue
            if defaults and key in defaults and value[key] == defaults[key]:
                continue
            sub = f"{path}.{key}" if path else key
            self.note(sub, f"not representable ({show(value[key])})")


def cache_control(block: Json, path: str, ledger: Ledger) -> CacheBreakpoint | None:
    """Anthropic's (and OpenRouter's) ``cache_control`` on a block: ``{"type": "ephemeral", "ttl"?}``."""
    value = block.get("cache_control")
    if value is None:
        return None
    control, at = obj(value), f"{path}.cache_control" if path else "cache_control"
    ledger.rest(control, at, {"type", "ttl"})
    if control.get("type") != "ephemeral":
        ledger.note(at, f"cache type {show(control.get('type'))} not representable")
        return None
    ttl = control.get("ttl")
    if ttl is not None and not isinstance(ttl, str):
        ledger.note(f"{at}.ttl", f"ttl {show(ttl)} not representable")
        return None
    return CacheBreakpoint(ttl=ttl)


class Calls:
    """Tool names by call id, so a tool result can name its tool (results on the wire often do not)."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def call(
        self,
        call_id: str,
        name: str,
        arguments: Any,
        item_id: str | None = None,
        cache_breakpoint: CacheBreakpoint | None = None,
    ) -> ToolCallPart:
        self.names[call_id] = name
        text = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
        return ToolCallPart(
            call_id=call_id,
            tool_name=name,
            arguments_json=text,
            item_id=item_id,
            cache_breakpoint=cache_breakpoint,
        )

    def name(self, call_id: str) -> str:
        return self.names.get(call_id, "")


def tool_spec(
    tool: Json, schema_key: str, path: str, ledger: Ledger, extra_known: set[str], *, cached: bool = False
) -> ToolSpec:
    """One function tool with its ``strict`` flag; keys beyond name/description/schema/strict are
    named. ``cached``: the wire's ``cache_control`` on a tool is read (Anthropic)."""
    known = {
        "name",
        "description",
        schema_key,
        "strict",
        *extra_known,
        *({"cache_control"} if cached else ()),
    }
    ledger.rest(tool, path, known, {"description": ""})
    schema, strict = tool.get(schema_key), tool.get("strict")
    if strict is not None and not isinstance(strict, bool):
        ledger.note(f"{path}.strict", f"not a boolean ({show(strict)})")
    return ToolSpec(
        name=str(tool.get("name", "")),
        description=str(tool.get("description") or ""),
        parameters=obj(schema) if schema is not None else {"type": "object", "properties": {}},
        strict=strict if isinstance(strict, bool) else None,
        cache_breakpoint=cache_control(tool, path, ledger) if cached else None,
    )


EFFORTS: dict[str, Effort] = {
    "none": "none",
    "minimal": "minimal",
    "low": "low",
    "medium": "medium",
    "high": "high",
    "xhigh": "xhigh",
    "max": "max",
}


def effort(value: Any, path: str, ledger: Ledger) -> Effort | None:
    """A reasoning effort ThinkingParams can carry; any other value is named."""
    if value is None:
        return None
    known = EFFORTS.get(str(value).lower())
    if known is None:
        ledger.note(path, f"effort {show(value)} not representable")
    return known


def openai_tool_choice(value: Any, path: str, ledger: Ledger, nested: bool) -> ToolChoice | None:
    """Chat / Responses ``tool_choice``: ``auto`` (the default) is None; ``none`` and ``required`` stay;
    a function choice (``{"type": "function", "function": {"name"}}`` in Chat, ``{"type": "function",
    "name"}`` in Responses when not ``nested``) forces that tool; anything else is named."""
    if value is None or value == "auto":
        return None
    if value in ("none", "required"):
        return cast(ToolChoice, value)
    choice = obj(value)
    if choice.get("type") == "function":
        ledger.rest(choice, path, {"type", "function"} if nested else {"type", "name"})
        named = obj(choice.get("function")) if nested else choice
        if nested:
            ledger.rest(named, f"{path}.function", {"name"})
        if isinstance(named.get("name"), str):
            return ForcedTool(name=named["name"])
    ledger.note(path, f"not representable ({show(value)})")
    return None


def openai_output_format(
    fmt: Json, path: str, ledger: Ledger, schema: Json | None = None
) -> OutputFormat | None:
    """An OpenAI output format: ``text`` (the default) is None, ``json_object`` any JSON object,
    ``json_schema`` its schema (``schema`` holds the name/schema/strict/description object: the
    format itself in Responses, ``json_schema`` in Chat)."""
    kind = fmt.get("type")
    if kind in ("text", "json_object"):
        ledger.rest(fmt, path, {"type"})
        return None if kind == "text" else OutputFormat()
    if kind == "json_schema":
        fields = {"name", "schema", "strict", "description"}
        if schema is None:
            spec = fmt
            ledger.rest(fmt, path, {"type", *fields})
        else:
            spec = schema
            ledger.rest(fmt, path, {"type", "json_schema"})
            ledger.rest(schema, f"{path}.json_schema", fields)
        strict = spec.get("strict")
        return OutputFormat(
            json_schema=obj(spec.get("schema")) if spec.get("schema") is not None else None,
            name=spec.get("name") if isinstance(spec.get("name"), str) else None,
            description=spec.get("description") if isinstance(spec.get("description"), str) else None,
            strict=strict if isinstance(strict, bool) else None,
        )
    ledger.note(path, f"output format {show(fmt)} not representable")
    return None


def joined_blocks(texts: list[str]) -> tuple[str, list[int] | None]:
    """A tool result's text blocks as its ``output_text`` (their concatenation) and its
    ``text_blocks`` (their lengths; None for zero or one block)."""
    return "".join(texts), ([len(t) for t in texts] if len(texts) > 1 else None)


def part_positions(positions: list[int], texts: list[str]) -> list[int] | None:
    """A tool result's ``part_positions`` (the text blocks before each part) as the model keeps it:
    None when every part follows all the text."""
    if not texts or all(n == len(texts) for n in positions):
        return None
    return positions


def chat_texts(content: Any, path: str, ledger: Ledger, noun: str = "part") -> list[str]:
    """String content, or the text parts of a Chat-shaped part list (null content has none);
    ``noun``: what the wire calls a list entry (Chat: part, Cohere: item), for the ledger's notes."""
    if content is None:
        return []
    if isinstance(content, str):
        return [content] if content else []
    texts: list[str] = []
    for i, part in enumerate(map(obj, arr(content))):
        if part.get("type") == "text":
            ledger.rest(part, f"{path}[{i}]", {"type", "text"})
            texts.append(str(part.get("text", "")))
        else:
            ledger.note(f"{path}[{i}]", f"content {noun} {show(part.get('type'))} not representable here")
    return texts


def chat_system(content: Any, path: str, ledger: Ledger) -> list[TextPart]:
    """A system message's text parts, each with its ``cache_control`` (OpenRouter's passthrough)."""
    if isinstance(content, str) or content is None:
        return [TextPart(text=t) for t in chat_texts(content, path, ledger)]
    parts: list[TextPart] = []
    for i, part in enumerate(map(obj, arr(content))):
        at = f"{path}[{i}]"
        if part.get("type") == "text":
            ledger.rest(part, at, {"type", "text", "cache_control"})
            parts.append(
                TextPart(text=str(part.get("text", "")), cache_breakpoint=cache_control(part, at, ledger))
            )
        else:
            ledger.note(at, f"content part {show(part.get('type'))} not representable here")
    return parts


def chat_user(
    content: Any, path: str, ledger: Ledger, noun: str = "part", *, cached: bool = False
) -> list[ContentPart]:
    """A Chat-shaped user ``content``: a string, or ``text``, ``image_url`` and file entries;
    ``cached``: a part's ``cache_control`` is read (OpenRouter passes it to Claude and Gemini)."""
    if isinstance(content, str):
        return [TextPart(text=content)]
    parts: list[ContentPart] = []
    extra = {"cache_control"} if cached else set[str]()
    for i, part in enumerate(map(obj, arr(content))):
        at = f"{path}[{i}]"
        bp = cache_control(part, at, ledger) if cached else None
        if part.get("type") == "text":
            ledger.rest(part, at, {"type", "text", *extra})
            parts.append(TextPart(text=str(part.get("text", "")), cache_breakpoint=bp))
        elif part.get("type") == "image_url":
            ledger.rest(part, at, {"type", "image_url", *extra})
            image = obj(part.get("image_url"))
            ledger.rest(image, f"{at}.image_url", {"url"})
            parts.append(ImageURLPart(url=str(image.get("url", "")), cache_breakpoint=bp))
        else:
            file = chat_file(part, at, ledger)
            if file is not None:
                parts.append(file)
            elif part.get("type") != "input_audio":  # an unreadable input_audio is noted by chat_file
                ledger.note(at, f"user content {noun} {show(part.get('type'))} not representable")
    return parts
