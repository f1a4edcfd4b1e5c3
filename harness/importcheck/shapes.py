"""Structural rewrites of a recorded request body, for import-check's whole-node allowances.

Some valid renderings differ from a recorded request in structure, not in one value: two
system messages joined into one, consecutive same-role turns merged, a later system
message hoisted. Each function here rewrites the recorded value the way the documented rule says
ours differs; a registry entry names one in its predicate ``restructured(name)``, and
``Structural`` evaluates it: it accepts a node only when the rewrite changes something and the
rewritten value then equals ours, up to the other entries. Pure functions over JSON values.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from harness.accepted.predicates import Check
from harness.contract.accepted import Accepted, Predicate, Seen
from harness.contract.gemini_names import camel
from harness.importer.common import Ledger
from harness.importer.gemini_schema import json_schema_of
from harness.loop.jsondiff import DiffContext, JsonDifference, diff_json

__all__ = ["REWRITES", "Structural", "wrap_at"]

Json = dict[str, Any]
Rewrite = Callable[[Any], Any]


def wrap_at(path: str, value: Any) -> Any:
    """``value`` put back at its JSON ``path`` in a body (``messages`` -> ``{"messages": v}``, list
    indices as one-element lists, ``$`` the body itself), so the other entries' paths still apply."""
    steps = re.findall(r"\[\d+\]|[^.\[\]]+", "" if path == "$" else path)
    for step in reversed(steps):
        value = [value] if step.startswith("[") else {step: value}
    return value


@dataclass(frozen=True, eq=False)
class Structural:
    """import-check's own predicate ``restructured(rewrite)``: accept a node when ``REWRITES[rewrite]``
    changes the recorded value and the rewritten value equals ours, up to every other entry of
    ``entries()``. ``inner`` is that comparison, for import-check to look inside a node it accepted."""

    entries: Callable[[], Sequence[Accepted]]

    def extra(self) -> dict[str, Check]:
        """The ``extra`` predicates to pass to ``diff_json``."""
        return {"restructured": self.check}

    def check(self, seen: Seen, rewrite: str) -> bool:
        inner = self.inner(seen, rewrite)
        return inner is not None and all(d.allowed_by is not None for d in inner)

    def inner(self, seen: Seen, rewrite: str) -> list[JsonDifference] | None:
        """The differences of the rewritten recorded value from ours, or None when the rewrite changes nothing."""
        rewritten = REWRITES[rewrite](copy.deepcopy(seen.recorded))
        if rewritten is None or rewritten == seen.recorded:
            return None
        me = Predicate("restructured", (rewrite,))
        rest = [e for e in self.entries() if me not in e.when]
        ctx = DiffContext(seen.provider, seen.cassette, dict(seen.minted_ids))
        return diff_json(
            wrap_at(seen.path, rewritten), wrap_at(seen.path, seen.ours), ctx, rest, self.extra()
        )


def _list(value: Any) -> list[Any]:
    return cast(list[Any], value) if isinstance(value, list) else []


def _blocks(content: Any) -> list[Any]:
    """Anthropic content: a string is one text block."""
    return [{"type": "text", "text": content}] if isinstance(content, str) else _list(content)


def join_leading_system(messages: Any) -> Any:
    """Chat: the leading run of string-content system messages -> one, texts joined by a blank line."""
    items = [cast(Json, m) for m in _list(messages) if isinstance(m, dict)]
    run = 0
    while (
        run < len(items) and items[run].get("role") == "system" and isinstance(items[run].get("content"), str)
    ):
        run += 1
    if run < 2:
        return None
    joined = {"role": "system", "content": "\n\n".join(str(m["content"]) for m in items[:run])}
    return [joined, *items[run:]]


def merge_consecutive(role: str, key: str, as_list: Callable[[Any], list[Any]]) -> Rewrite:
    """Consecutive ``role`` turns -> one turn whose ``key`` is their items in order."""

    def rewrite(turns: Any) -> Any:
        out: list[Json] = []
        for turn in _list(turns):
            if not isinstance(turn, dict):
                return None
            turn = cast(Json, turn)
            if out and out[-1].get("role") == role and turn.get("role") == role:
                out[-1] = {**out[-1], key: [*as_list(out[-1].get(key)), *as_list(turn.get(key))]}
            else:
                out.append(turn)
        return out

    return rewrite


merge_anthropic_user_turns = merge_consecutive("user", "content", _blocks)
#: Converse: consecutive user messages, each a content list, as one (Bedrock merges them too).
merge_bedrock_user_turns = merge_consecutive("user", "content", _list)
#: Gemini: consecutive user contents as one (our adapter merges turns of one role).
merge_gemini_user_turns = merge_consecutive("user", "parts", _list)


def legacy_functions_as_tools(body: Any) -> Any:
    """Chat's legacy ``functions`` / ``function_call`` -> ``tools`` / ``tool_choice`` (the same
    definitions and choice in the current form; ``auto`` and null are the default, no choice)."""
    if not isinstance(body, dict) or "functions" not in body:
        return None
    body = cast(Json, body)
    out = {k: v for k, v in body.items() if k not in ("functions", "function_call")}
    out["tools"] = [{"type": "function", "function": f} for f in _list(body.get("functions"))]
    choice = body.get("function_call")
    if choice == "none":
        out["tool_choice"] = "none"
    elif isinstance(choice, dict):
        out["tool_choice"] = {"type": "function", "function": {"name": cast(Json, choice).get("name")}}
    return out


def hoist_anthropic_system_messages(body: Any) -> Any:
    """Anthropic: ``system`` messages inside ``messages`` -> text blocks appended to the top-level system."""
    if not isinstance(body, dict):
        return None
    body = cast(Json, body)
    messages = [cast(Json, m) for m in _list(body.get("messages")) if isinstance(m, dict)]
    inline = [m for m in messages if m.get("role") == "system"]
    if not inline:
        return None
    system = [*_blocks(body.get("system", [])), *(b for m in inline for b in _blocks(m.get("content")))]
    return {**body, "system": system, "messages": [m for m in messages if m.get("role") != "system"]}


def drop_unsigned_thoughts(parts: Any) -> Any:
    """Gemini: model parts without the ``thought: true`` parts that carry no signature."""
    items = _list(parts)
    kept = [p for p in items if not _unsigned_thought(p)]
    return kept if len(kept) < len(items) else None


def _unsigned_thought(part: Any) -> bool:
    if not isinstance(part, dict):
        return False
    part = cast(Json, part)
    return part.get("thought") is True and not ({"thoughtSignature", "thought_signature"} & part.keys())


def hoist_chat_system_messages(messages: Any) -> Any:
    """Chat: every string-content system message -> one leading system message, texts joined by a blank line.

    Only a history with a system message after another role changes (a leading run alone is
    ``join_leading_system``'s).
    """
    items = [cast(Json, m) for m in _list(messages) if isinstance(m, dict)]
    roles = [m.get("role") for m in items]
    first_other = next((i for i, role in enumerate(roles) if role != "system"), len(roles))
    if "system" not in roles[first_other:]:
        return None
    system = [m for m in items if m.get("role") == "system"]
    if not all(isinstance(m.get("content"), str) for m in system):
        return None
    joined = {"role": "system", "content": "\n\n".join(str(m["content"]) for m in system)}
    return [joined, *(m for m in items if m.get("role") != "system")]


def drop_empty_assistant_items(items: Any) -> Any:
    """Responses: input without the assistant message items whose content is the empty string."""
    listed = _list(items)
    kept = [i for i in listed if not _empty_assistant(i)]
    return kept if len(kept) < len(listed) else None


def _empty_assistant(item: Any) -> bool:
    if not isinstance(item, dict):
        return False
    item = cast(Json, item)
    return item.get("role") == "assistant" and item.get("content") == ""


def leading_system_to_instructions(body: Any) -> Any:
    """Responses: leading string-content system / developer input messages -> ``instructions``."""
    if not isinstance(body, dict):
        return None
    body = cast(Json, body)
    items = _list(body.get("input"))
    run = 0
    while run < len(items) and _system_item(items[run]):
        run += 1
    if run == 0:
        return None
    texts = [str(cast(Json, i)["content"]) for i in items[:run]]
    if body.get("instructions"):
        texts.insert(0, str(body["instructions"]))
    return {**body, "instructions": "\n\n".join(texts), "input": items[run:]}


def _system_item(item: Any) -> bool:
    if not isinstance(item, dict):
        return False
    item = cast(Json, item)
    return item.get("role") in ("system", "developer") and isinstance(item.get("content"), str)


def input_string_as_message(value: Any) -> Any:
    """Responses: a string ``input`` -> one user message holding it (the API reference: a text input
    is "equivalent to a text input with the user role")."""
    return [{"role": "user", "content": value}] if isinstance(value, str) else None


def max_tokens_as_max_completion_tokens(body: Any) -> Any:
    """Chat: the deprecated ``max_tokens`` -> ``max_completion_tokens`` (when only the former is sent)."""
    if not isinstance(body, dict) or "max_tokens" not in body or "max_completion_tokens" in body:
        return None
    body = dict(cast(Json, body))
    body["max_completion_tokens"] = body.pop("max_tokens")
    return body


def drop_blank_text_blocks(content: Any) -> Any:
    """Anthropic: a content list without its whitespace-only text blocks, when something else stays."""
    items = _list(content)
    kept = [b for b in items if not _blank_text(b)]
    return kept if kept and len(kept) < len(items) else None


def drop_blank_converse_texts(content: Any) -> Any:
    """Converse: a content list without its whitespace-only ``text`` blocks, when something else stays."""
    items = _list(content)
    kept = [b for b in items if not _blank_converse_text(b)]
    return kept if kept and len(kept) < len(items) else None


def _blank_converse_text(block: Any) -> bool:
    if not isinstance(block, dict) or set(cast(Json, block)) != {"text"}:
        return False
    text = cast(Json, block)["text"]
    return isinstance(text, str) and not text.strip()


def _blank_text(block: Any) -> bool:
    if not isinstance(block, dict):
        return False
    block = cast(Json, block)
    return block.get("type") == "text" and isinstance(block.get("text"), str) and not block["text"].strip()


def anthropic_results_after_calls(messages: Any) -> Any:
    """Anthropic: each ``tool_result`` block moved into a user message right after the assistant
    message that holds its ``tool_use`` (results first there), when a later assistant message
    stood between them; a user message left empty is dropped."""
    out: list[Json] = []
    where: dict[str, int] = {}  # tool_use id -> position in out of its assistant message
    moved = False
    for message in _list(messages):
        if not isinstance(message, dict):
            return None
        message = cast(Json, message)
        blocks = _blocks(message.get("content"))
        if message.get("role") == "assistant":
            for block in blocks:
                if isinstance(block, dict) and cast(Json, block).get("type") == "tool_use":
                    where[str(cast(Json, block).get("id"))] = len(out)
            out.append(message)
            continue
        stay: list[Any] = []
        for block in blocks:
            call = where.get(str(cast(Json, block).get("tool_use_id"))) if isinstance(block, dict) else None
            if call is None or call == len(out) - 1 or cast(Json, block).get("type") != "tool_result":
                stay.append(block)
                continue
            moved = True
            after = out[call + 1] if call + 1 < len(out) else None
            if after is not None and after.get("role") == "user":
                out[call + 1] = {**after, "content": [*_blocks(after.get("content")), block]}
            else:
                out.insert(call + 1, {"role": "user", "content": [block]})
                where = {k: v + 1 if v > call else v for k, v in where.items()}
        if stay:
            out.append({**message, "content": stay})
    return out if moved else None


#: The rewrites by the name a ``restructured`` predicate gives.
REWRITES: dict[str, Rewrite] = {
    f.__name__: f
    for f in (
        join_leading_system,
        hoist_anthropic_system_messages,
        legacy_functions_as_tools,
        drop_unsigned_thoughts,
        hoist_chat_system_messages,
        drop_empty_assistant_items,
        leading_system_to_instructions,
        input_string_as_message,
        max_tokens_as_max_completion_tokens,
        drop_blank_text_blocks,
        anthropic_results_after_calls,
        drop_blank_converse_texts,
    )
}
REWRITES["merge_anthropic_user_turns"] = merge_anthropic_user_turns
REWRITES["merge_bedrock_user_turns"] = merge_bedrock_user_turns
REWRITES["merge_gemini_user_turns"] = merge_gemini_user_turns


def gemini_results_after_calls(contents: Any) -> Any:
    """Gemini: each ``functionResponse`` part moved into a user content right after the model
    content that holds its ``functionCall`` (matched by id, else by name in order), when a later
    model content stood between them; a user content left empty is dropped."""
    out: list[Json] = []
    calls: list[tuple[str, str, int]] = []  # (id, name, position in out of its model content)
    moved = False
    for content in _list(contents):
        if not isinstance(content, dict):
            return None
        content = cast(Json, content)
        parts = _list(content.get("parts"))
        if content.get("role") == "model":
            for part in parts:
                call = cast(Json, part).get("functionCall") if isinstance(part, dict) else None
                if isinstance(call, dict):
                    call = cast(Json, call)
                    calls.append((str(call.get("id") or ""), str(call.get("name") or ""), len(out)))
            out.append(content)
            continue
        stay: list[Any] = []
        for part in parts:
            response = cast(Json, part).get("functionResponse") if isinstance(part, dict) else None
            at = _answered_call(calls, cast(Json, response)) if isinstance(response, dict) else None
            if at is None or at == len(out) - 1:
                stay.append(part)
                continue
            moved = True
            after = out[at + 1] if at + 1 < len(out) else None
            if after is not None and after.get("role") == "user":
                out[at + 1] = {**after, "parts": [*_list(after.get("parts")), part]}
            else:
                out.insert(at + 1, {"role": "user", "parts": [part]})
                calls = [(i, n, p + 1 if p > at else p) for i, n, p in calls]
        if stay:
            out.append({**content, "parts": stay})
    return out if moved else None


def _answered_call(calls: list[tuple[str, str, int]], response: Json) -> int | None:
    """The position of the model content whose call a response answers (and that call spent)."""
    rid, name = str(response.get("id") or ""), str(response.get("name") or "")
    for k, (cid, cname, at) in enumerate(calls):
        if (rid and cid == rid) or (not rid and not cid and cname == name):
            del calls[k]
            return at
    return None


REWRITES["gemini_results_after_calls"] = gemini_results_after_calls


def _gemini_schema_as_json(holder: Any, key: str, json_key: str) -> Any:
    """``holder[key]`` (Gemini's own ``Schema``) -> ``holder[json_key]``, the JSON Schema it equals."""
    if not isinstance(holder, dict):
        return None
    holder = camel(cast(Json, holder))  # Gemini reads snake_case names as lowerCamel
    if key not in holder or json_key in holder:
        return None
    converted = json_schema_of(holder[key], key, Ledger())
    if converted is None:
        return None
    return {**{k: v for k, v in holder.items() if k != key}, json_key: converted}


def gemini_parameters_as_json_schema(declaration: Any) -> Any:
    """Gemini: a function declaration's ``parameters`` (``Schema``) -> ``parametersJsonSchema``."""
    return _gemini_schema_as_json(declaration, "parameters", "parametersJsonSchema")


def gemini_response_schema_as_json_schema(config: Any) -> Any:
    """Gemini: ``generationConfig.responseSchema`` (``Schema``) -> ``responseJsonSchema``."""
    return _gemini_schema_as_json(config, "responseSchema", "responseJsonSchema")


REWRITES["gemini_parameters_as_json_schema"] = gemini_parameters_as_json_schema
REWRITES["gemini_response_schema_as_json_schema"] = gemini_response_schema_as_json_schema
