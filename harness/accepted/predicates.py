"""The named predicates of accepted differences, and the one matcher every judge uses.

An entry's ``when`` holds ``Predicate``s built by the constructors below (``value_is(False)``);
``matches`` checks provider, ``diff``, the ``where`` glob and then every predicate by name.
A judge with a condition only it can evaluate (import-check's structural rewrites) passes
it in ``extra``. Pure functions over JSON values; no reference code.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, cast

from harness.contract.accepted import Accepted, Predicate, Seen, glob
from harness.contract.gemini_names import camel

__all__ = [
    "PREDICATES",
    "Check",
    "ascii_quotes_folded",
    "client_retry_turn",
    "error_says",
    "first_match",
    "function_response_key",
    "has_list",
    "host_in",
    "in_recording",
    "is_null",
    "matches",
    "minted_pair",
    "model_is",
    "nonempty_string",
    "one_output_text_part",
    "one_text_part",
    "openai_host",
    "recorder_trailing_space",
    "renumbered",
    "restructured",
    "role_is",
    "same_in_camel",
    "same_json",
    "same_part_in_camel",
    "same_signature_bytes",
    "snake_case_keys",
    "string_is_one_block",
    "think_block_rewrapped",
    "think_tags_then_ours",
    "type_is",
    "type_on_path",
    "types_on",
    "value_is",
    "values_are",
]

Json = dict[str, Any]
#: A predicate's implementation: what was seen, then the predicate's arguments.
Check = Callable[..., bool]


def same_json(a: Any, b: Any) -> bool:
    """JSON equality: booleans are not numbers; 1 and 1.0 are the same number."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and bool(a == b)
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        da, db = cast(Json, a), cast(Json, b)
        return da.keys() == db.keys() and all(same_json(da[k], db[k]) for k in da)
    if isinstance(a, list) and isinstance(b, list):
        la, lb = cast(list[Any], a), cast(list[Any], b)
        return len(la) == len(lb) and all(same_json(x, y) for x, y in zip(la, lb, strict=True))
    left, right = cast(object, a), cast(object, b)
    return type(left) is type(right) and left == right


# ================================================================ constructors (what an entry says)


def value_is(expected: Any) -> Predicate:
    """The one-sided value is exactly ``expected`` (a default the other side left implicit), in JSON equality."""
    return Predicate("value_is", (expected,))


def values_are(recorded: Any, ours: Any) -> Predicate:
    """The recorded value is exactly ``recorded`` and ours exactly ``ours`` (two spellings of one thing)."""
    return Predicate("values_are", (recorded, ours))


def is_null() -> Predicate:
    """The one-sided value is JSON null (the other side leaves the key out)."""
    return Predicate("is_null")


def nonempty_string() -> Predicate:
    """Our one-sided value is a non-empty string (text the other side left out)."""
    return Predicate("nonempty_string")


def string_is_one_block(block_type: str) -> Predicate:
    """A string ``content`` where ours sends the same text as a one-element block list."""
    return Predicate("string_is_one_block", (block_type,))


def one_text_part() -> Predicate:
    """A one-text-part list recorded where ours sends the same text as a string."""
    return Predicate("one_text_part")


def one_output_text_part() -> Predicate:
    """A one-``output_text``-part list recorded (``annotations`` / ``logprobs`` empty or absent) where
    ours sends the same text as a string."""
    return Predicate("one_output_text_part")


def same_signature_bytes() -> Predicate:
    """Base64url vs standard base64 of the very same bytes."""
    return Predicate("same_signature_bytes")


def minted_pair() -> Predicate:
    """The recording client's own call id where ours is the id our parser minted for the same call."""
    return Predicate("minted_pair")


def snake_case_keys() -> Predicate:
    """The same object with its own (top-level) keys spelled snake_case instead of lowerCamel."""
    return Predicate("snake_case_keys")


def same_in_camel() -> Predicate:
    """The same object once every snake_case key of the recorded one (at any depth) is lowerCamel."""
    return Predicate("same_in_camel")


def same_part_in_camel() -> Predicate:
    """The same Gemini part once every snake_case key of the recorded one is lowerCamel, a
    function response's ``{"return_value"|"result": v}`` counting as ``{"output": v}``."""
    return Predicate("same_part_in_camel")


def function_response_key() -> Predicate:
    """``{"return_value"|"result": v}`` recorded where ours is ``{"output": v}`` with the same v."""
    return Predicate("function_response_key")


def recorder_trailing_space() -> Predicate:
    """The recorded text is ours plus exactly one space."""
    return Predicate("recorder_trailing_space")


def ascii_quotes_folded() -> Predicate:
    """The recorded text is ours with its curly quotes replaced by ASCII ones (and nothing else)."""
    return Predicate("ascii_quotes_folded")


def think_tags_then_ours() -> Predicate:
    """The recorded text is one ``<think>...</think>`` block, then exactly ours (no text: ours absent)."""
    return Predicate("think_tags_then_ours")


def think_block_rewrapped() -> Predicate:
    """The same think text and answer, up to the newlines around the tags."""
    return Predicate("think_block_rewrapped")


def client_retry_turn() -> Predicate:
    """A turn pydantic-ai wrote after Groq's tool_use_failed (a ``pyd_ai_`` call, or its validation error)."""
    return Predicate("client_retry_turn")


def in_recording(*stems: str) -> Predicate:
    """Only in these recordings (cassette stems): a recorder's artifact."""
    return Predicate("in_recording", tuple(sorted(stems)))


def restructured(rewrite: str) -> Predicate:
    """The recorded node, rewritten by ``harness.importcheck.shapes``' ``rewrite``, equals ours up to
    the other entries (import-check evaluates it: ``harness.importcheck.shapes.EXTRA``)."""
    return Predicate("restructured", (rewrite,))


def error_says(pattern: str) -> Predicate:
    """The oracle's error message contains a match of ``pattern``."""
    return Predicate("error_says", (pattern,))


def type_on_path(pattern: str) -> Predicate:
    """Some object along the path has a ``type`` fully matching ``pattern`` (a union error says what
    was expected, not what was sent)."""
    return Predicate("type_on_path", (pattern,))


def host_in(*hosts: str) -> Predicate:
    """Only for requests sent to these hosts."""
    return Predicate("host_in", hosts)


def openai_host() -> Predicate:
    """Only for OpenAI's own API: a request sent to ``api.openai.com``, or one with no host (an
    adapter's render, judged as what OpenAI takes); never a compatible server's."""
    return Predicate("openai_host")


def model_is(pattern: str) -> Predicate:
    """Only for requests whose ``model`` fully matches ``pattern``."""
    return Predicate("model_is", (pattern,))


def type_is(pattern: str) -> Predicate:
    """The object holding the field has a ``type`` fully matching ``pattern``."""
    return Predicate("type_is", (pattern,))


def role_is(role: str) -> Predicate:
    """The object holding the field has this ``role``."""
    return Predicate("role_is", (role,))


def has_list(key: str) -> Predicate:
    """The object holding the field has a list under ``key``."""
    return Predicate("has_list", (key,))


# ================================================================ implementations (by name)


def _value_is(seen: Seen, expected: Any) -> bool:
    return same_json(seen.recorded if seen.recorded is not None else seen.ours, expected)


def _values_are(seen: Seen, recorded: Any, ours: Any) -> bool:
    return same_json(seen.recorded, recorded) and same_json(seen.ours, ours)


def _is_null(seen: Seen) -> bool:
    return seen.recorded is None and seen.ours is None


def _nonempty_string(seen: Seen) -> bool:
    return isinstance(seen.ours, str) and bool(seen.ours)


def _string_is_one_block(seen: Seen, block_type: str) -> bool:
    return isinstance(seen.recorded, str) and same_json(
        seen.ours, [{"type": block_type, "text": seen.recorded}]
    )


def _one_text_part(seen: Seen) -> bool:
    return isinstance(seen.ours, str) and seen.recorded == [{"type": "text", "text": seen.ours}]


def _one_output_text_part(seen: Seen) -> bool:
    recorded = cast(object, seen.recorded)
    if (
        not isinstance(seen.ours, str)
        or not isinstance(recorded, list)
        or len(cast(list[Any], recorded)) != 1
    ):
        return False
    part = cast(list[Any], recorded)[0]
    if not isinstance(part, dict):
        return False
    part = cast(Json, part)
    rest = {k: v for k, v in part.items() if k not in ("type", "text")}
    return (
        part.get("type") == "output_text"
        and part.get("text") == seen.ours
        and all(k in ("annotations", "logprobs") and v == [] for k, v in rest.items())
    )


def _b64_bytes(text: str) -> bytes | None:
    try:
        padded = text + "=" * (-len(text) % 4)
        return base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        return None


def _same_signature_bytes(seen: Seen) -> bool:
    if not isinstance(seen.recorded, str) or not isinstance(seen.ours, str):
        return False
    a, b = _b64_bytes(seen.recorded), _b64_bytes(seen.ours)
    return a is not None and a == b


def _minted_pair(seen: Seen) -> bool:
    return isinstance(seen.recorded, str) and seen.minted_ids.get(seen.recorded) == seen.ours


def _snake_case_keys(seen: Seen) -> bool:
    recorded, ours = cast(object, seen.recorded), cast(object, seen.ours)
    if not isinstance(recorded, dict) or not isinstance(ours, dict):
        return False
    renamed = camel(cast(Json, recorded))
    return renamed != recorded and same_json(renamed, ours)


def _camel_deep(value: Any) -> Any:
    """``camel`` at every level: for objects with no free-form keys inside (thinkingConfig)."""
    if isinstance(value, dict):
        return {k: _camel_deep(v) for k, v in camel(cast(Json, value)).items()}
    if isinstance(value, list):
        return [_camel_deep(v) for v in cast(list[Any], value)]
    return value


def _same_in_camel(seen: Seen) -> bool:
    recorded = seen.recorded
    return isinstance(recorded, dict) and recorded != seen.ours and _camel_deep(recorded) == seen.ours


def _same_part_in_camel(seen: Seen) -> bool:
    recorded, ours = cast(object, seen.recorded), cast(object, seen.ours)
    if not isinstance(recorded, dict) or not isinstance(ours, dict) or recorded == ours:
        return False
    rec = cast(Json, recorded)
    camel = cast(Json, _camel_deep(rec))
    raw = cast(Json, rec.get("functionResponse") or rec.get("function_response") or {})
    response = raw.get("response")  # free-form JSON: its own keys are the client's, never camelled
    mine = cast(Json, cast(Json, ours).get("functionResponse") or {}).get("response")
    keyed = Seen(seen.provider, seen.path, seen.diff, response, mine)
    if isinstance(response, dict) and isinstance(mine, dict) and _function_response_key(keyed):
        wrapped: Json = {**cast(Json, camel["functionResponse"]), "response": mine}
        camel = {**camel, "functionResponse": wrapped}
    return camel == ours


def _function_response_key(seen: Seen) -> bool:
    recorded, ours = cast(object, seen.recorded), cast(object, seen.ours)
    if not isinstance(recorded, dict) or not isinstance(ours, dict):
        return False
    rec, our = cast(Json, recorded), cast(Json, ours)
    return (
        len(rec) == 1
        and len(our) == 1
        and next(iter(rec)) in ("return_value", "result")
        and "output" in our
        and same_json(next(iter(rec.values())), our["output"])
    )


def _recorder_trailing_space(seen: Seen) -> bool:
    return isinstance(seen.recorded, str) and isinstance(seen.ours, str) and seen.recorded == seen.ours + " "


_CURLY_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


def _ascii_quotes_folded(seen: Seen) -> bool:
    recorded, ours = seen.recorded, seen.ours
    return isinstance(recorded, str) and isinstance(ours, str) and recorded == ours.translate(_CURLY_QUOTES)


_THINK_TAGS = re.compile(r"<think>.*?</think>\s*", re.DOTALL)


def _think_tags_then_ours(seen: Seen) -> bool:
    if not isinstance(seen.recorded, str):
        return False
    head = _THINK_TAGS.match(seen.recorded)
    if head is None:
        return False
    rest = seen.recorded[head.end() :]
    return rest == seen.ours if isinstance(seen.ours, str) else (seen.ours is None and rest == "")


_THINK_SPLIT = re.compile(r"<think>(.*?)</think>(.*)", re.DOTALL)


def _think_block_rewrapped(seen: Seen) -> bool:
    if not isinstance(seen.recorded, str) or not isinstance(seen.ours, str):
        return False
    a, b = _THINK_SPLIT.fullmatch(seen.recorded), _THINK_SPLIT.fullmatch(seen.ours)
    return (
        a is not None
        and b is not None
        and a[1].strip("\n") == b[1].strip("\n")
        and a[2].lstrip("\n") == b[2].lstrip("\n")
    )


def _client_retry_turn(seen: Seen) -> bool:
    recorded = cast(object, seen.recorded)
    if seen.ours is not None or not isinstance(recorded, dict):
        return False
    turn = cast(Json, recorded)
    if turn.get("role") == "tool":
        return str(turn.get("tool_call_id", "")).startswith("pyd_ai_") and "validation error" in str(
            turn.get("content", "")
        )
    calls = cast(list[Json], turn.get("tool_calls") or [])
    return (
        turn.get("role") == "assistant"
        and bool(calls)
        and all(str(c.get("id", "")).startswith("pyd_ai_") for c in calls)
    )


_STEP = re.compile(r"\[(\d+)\]|\.?([^.\[\]]+)")


def types_on(body: Any, path: str) -> list[str]:
    """The ``type`` of every object along the JSON ``path``, outermost first."""
    found: list[str] = []
    node: Any = body
    for index, key in _STEP.findall(path if path != "$" else ""):
        step = index or key
        if isinstance(node, dict):
            node = cast(Json, node).get(step)
        elif isinstance(node, list) and step.isdigit() and int(step) < len(cast(list[Any], node)):
            node = cast(list[Any], node)[int(step)]
        else:
            break
        if isinstance(node, dict) and isinstance(kind := cast(Json, node).get("type"), str):
            found.append(kind)
    return found


def _type_on_path(seen: Seen, pattern: str) -> bool:
    return any(re.fullmatch(pattern, t) for t in types_on(seen.document, seen.path))


def _model_is(seen: Seen, pattern: str) -> bool:
    document = cast(object, seen.document)
    model = cast(Json, document).get("model") if isinstance(document, dict) else None
    return isinstance(model, str) and re.fullmatch(pattern, model) is not None


def _parent(seen: Seen) -> Json:
    parent = cast(object, seen.parent)
    return cast(Json, parent) if isinstance(parent, dict) else {}


def _in_recording(seen: Seen, *stems: str) -> bool:
    return seen.cassette in stems


def _error_says(seen: Seen, pattern: str) -> bool:
    return re.search(pattern, seen.message) is not None


def _host_in(seen: Seen, *hosts: str) -> bool:
    return seen.host in hosts


def _openai_host(seen: Seen) -> bool:
    return seen.host in (None, "api.openai.com")


def _role_is(seen: Seen, role: str) -> bool:
    return _parent(seen).get("role") == role


def _has_list(seen: Seen, key: str) -> bool:
    return isinstance(_parent(seen).get(key), list)


def renumbered() -> Predicate:
    """Ours is the recorded id with a ``_N`` suffix (an id reused across turns, made unique)."""
    return Predicate("renumbered")


def _renumbered(seen: Seen) -> bool:
    recorded, ours = seen.recorded, seen.ours
    return (
        isinstance(recorded, str)
        and isinstance(ours, str)
        and re.fullmatch(re.escape(recorded) + r"_\d+", ours) is not None
    )


def _type_is(seen: Seen, pattern: str) -> bool:
    kind = _parent(seen).get("type")
    return isinstance(kind, str) and re.fullmatch(pattern, kind) is not None


PREDICATES: Mapping[str, Check] = {
    "value_is": _value_is,
    "values_are": _values_are,
    "is_null": _is_null,
    "nonempty_string": _nonempty_string,
    "string_is_one_block": _string_is_one_block,
    "one_text_part": _one_text_part,
    "one_output_text_part": _one_output_text_part,
    "same_signature_bytes": _same_signature_bytes,
    "minted_pair": _minted_pair,
    "snake_case_keys": _snake_case_keys,
    "same_in_camel": _same_in_camel,
    "function_response_key": _function_response_key,
    "same_part_in_camel": _same_part_in_camel,
    "recorder_trailing_space": _recorder_trailing_space,
    "ascii_quotes_folded": _ascii_quotes_folded,
    "think_tags_then_ours": _think_tags_then_ours,
    "think_block_rewrapped": _think_block_rewrapped,
    "client_retry_turn": _client_retry_turn,
    "in_recording": _in_recording,
    "error_says": _error_says,
    "type_on_path": _type_on_path,
    "host_in": _host_in,
    "openai_host": _openai_host,
    "model_is": _model_is,
    "type_is": _type_is,
    "role_is": _role_is,
    "has_list": _has_list,
    "renumbered": _renumbered,
}


def matches(entry: Accepted, seen: Seen, extra: Mapping[str, Check] | None = None) -> bool:
    """The one way an entry matches: its provider, its ``diff``, its ``where`` (full match), and every
    predicate of ``when`` (cheapest first: the order written). ``extra``: a judge's own predicates."""
    if entry.provider != seen.provider or entry.diff != seen.diff:
        return False
    if glob(entry.where).fullmatch(seen.path) is None:
        return False
    for predicate in entry.when:
        check = PREDICATES.get(predicate.name) or (extra or {}).get(predicate.name)
        if check is None:
            raise KeyError(f"{entry.id}: no implementation of the predicate {predicate.name!r}")
        if not check(seen, *predicate.args):
            return False
    return True


def first_match(
    entries: Iterable[Accepted], seen: Seen, extra: Mapping[str, Check] | None = None
) -> Accepted | None:
    """The first entry that matches, in registry order."""
    return next((e for e in entries if matches(e, seen, extra)), None)
