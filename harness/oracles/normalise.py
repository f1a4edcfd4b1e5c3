"""What the provider's own parser accepts, rewritten to one form before an oracle judges it.

Why: an oracle that accepts one spelling of something the API reads in two spellings
fails requests the API took. Two such cases are known:

- Gemini parses proto3 JSON, which accepts both the lowerCamelCase JSON name and the
  original snake_case proto field name (protobuf.dev/programming-guides/json: "Parsers
  accept both the lowerCamelCase name ... and the original proto field name"). The
  Discovery schema names only the camelCase form, so message field names are renamed,
  walking the schema: free-form values (``functionCall.args``,
  ``functionResponse.response``, JSON schemas: ``type: any`` / ``additionalProperties``
  maps) are left exactly as sent.
- proto3 ``bytes`` fields accept standard base64 and base64url (same page: "Either
  standard or URL-safe base64 encoding with/without paddings are accepted"); the spec
  oracle's byte pattern already takes both, so only names need rewriting here.
- Gemini's ``Schema.type`` (tool ``parameters``, ``responseSchema``) is an enum written
  ``OBJECT``, ``STRING``, ... in the Discovery document, but the API takes the JSON-schema
  spelling ``object``, ``string``, ...: Google's own REST function-calling guide sends
  ``"parameters": {"type": "object", "properties": {"attendees": {"type": "array", ...``
  (https://ai.google.dev/gemini-api/docs/function-calling?example=meeting, the curl tab)
  and the API answers with a function call. A ``type`` whose upper-case form is one of
  the enum's values is read as that value. Other enums are left as sent (no evidence).
- Google's API front end reads a repeated field written as one object as a list of that one
  object (``"contents": {"role": "user", "parts": {"text": "..."}}``, the form of Vertex AI's
  own REST samples), and recordings outside this repository show such requests answered 200.
  A single object where the schema has an array of messages is read as that one-item array.

Every judge reads a body through ``normalise_body`` (the oracles, the invariants'
``CheckContext.body``, the provider rules' ``check_body``), so no check can disagree with
the schema oracle about what a body says.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, cast

from harness.contract.providers import wire_of
from harness.oracles.spec import load_spec

__all__ = ["normalise_body", "to_lower_camel"]

_SNAKE = re.compile(r"_([a-z0-9])")


def to_lower_camel(name: str) -> str:
    """``function_call`` -> ``functionCall`` (proto3 JSON name rule)."""
    return _SNAKE.sub(lambda m: m.group(1).upper(), name)


@cache
def _gemini_schemas() -> dict[str, dict[str, Any]]:
    return cast(dict[str, dict[str, Any]], load_spec("gemini-discovery.json")["schemas"])


def _resolve(node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str):
        return _gemini_schemas().get(ref, {})
    return node


def _gemini(value: Any, schema: dict[str, Any]) -> Any:
    schema = _resolve(schema)
    if isinstance(value, dict) and schema.get("type") == "array" and isinstance(schema.get("items"), dict):
        value = [value]  # a repeated message field written as one object
    if isinstance(value, list):
        items = schema.get("items")
        if isinstance(items, dict):
            return [_gemini(v, cast(dict[str, Any], items)) for v in cast(list[Any], value)]
        return cast(list[Any], value)
    if not isinstance(value, dict):
        return value
    props = schema.get("properties")
    if not isinstance(props, dict):
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):  # a map<string, Message>: keys are data, values are messages
            inner = cast(dict[str, Any], extra)
            return {k: _gemini(v, inner) for k, v in cast(dict[str, Any], value).items()}
        return cast(dict[str, Any], value)  # free-form JSON (type: any, Struct): never renamed
    fields = cast(dict[str, dict[str, Any]], props)
    out: dict[str, Any] = {}
    for key, sub in cast(dict[str, Any], value).items():
        name = key if key in fields else to_lower_camel(key)
        if name not in fields or name in out:
            out[key] = sub  # unknown (the oracle says so) or both spellings sent
            continue
        out[name] = _schema_type(sub, fields[name]) if name == "type" else _gemini(sub, fields[name])
    return out


def _schema_type(value: Any, field: dict[str, Any]) -> Any:
    """``"object"`` -> ``"OBJECT"`` where the field is an enum that has the upper-case value."""
    enum = field.get("enum")
    if isinstance(value, str) and isinstance(enum, list) and value not in enum and value.upper() in enum:
        return value.upper()
    return value


def normalise_body(provider: str, body: dict[str, Any]) -> dict[str, Any]:
    """The body as the provider's parser reads it (a new dict; the argument is not modified)."""
    if wire_of(provider) == "gemini":
        return cast(dict[str, Any], _gemini(body, {"$ref": "GenerateContentRequest"}))
    return body
