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
- proto3 JSON also takes an enum value as its number ("Parsers accept both enum names and
  integer values", protobuf.dev/programming-guides/json); Vertex AI's Python SDK asks for it
  (``?$alt=json;enum-encoding=int``) and sends ``"type": 6`` for an object schema, answered 200
  (traffic/clients2/.../opentelemetry-instrumentation-vertexai/.../test_tool_events_with_completion_hook.yaml#0).
  ``Schema.type`` numbers are the same in both APIs' protos (``STRING`` 1 ... ``OBJECT`` 6,
  ``NULL`` 7) and are read by name; a number in any other enum field is read as the value
  declared at that position in the Discovery document (its proto declaration order): the
  verdict needs only a declared value, and no rule reads those enums. A number beyond the
  enum, a float or a boolean is left as sent, for the oracles to judge.
- Google's API front end reads a repeated field written as one object as a list of that one
  object (``"contents": {"role": "user", "parts": {"text": "..."}}``, the form of Vertex AI's
  own REST samples; its generateContent reference: "For single-turn queries, this is a single
  instance", https://cloud.google.com/vertex-ai/docs/reference/rest/v1beta1/projects.locations.endpoints/generateContent).
  A single object where the schema has an array of messages is read as that one-item array.

Every judge reads a body through ``normalise_body`` (the oracles, the invariants'
``CheckContext.body``, the provider rules' ``check_body``), so no check can disagree with
the schema oracle about what a body says.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any, cast

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


#: ``Schema.type`` by number (google/ai/generativelanguage/v1beta/content.proto and
#: google/cloud/aiplatform/v1/openapi.proto declare the same numbers).
_SCHEMA_TYPES = ("TYPE_UNSPECIFIED", "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL")


def _enum_number(value: Any, schema: dict[str, Any], name: str) -> Any:
    """An enum written as its number (proto3 JSON) -> its name; anything else unchanged."""
    enum = schema.get("enum")
    if isinstance(value, bool) or not isinstance(value, int) or not isinstance(enum, list):
        return value
    names = _SCHEMA_TYPES if name == "type" and "OBJECT" in enum else cast(list[Any], enum)
    return names[value] if 0 <= value < len(names) else value


def _gemini(value: Any, schema: dict[str, Any], name: str = "") -> Any:
    schema = _resolve(schema)
    value = _enum_number(value, schema, name)
    if isinstance(value, dict) and schema.get("type") == "array" and isinstance(schema.get("items"), dict):
        value = [value]  # a repeated message field written as one object
    if isinstance(value, list):
        items = schema.get("items")
        if isinstance(items, dict):
            return [_gemini(v, cast(dict[str, Any], items), name) for v in cast(list[Any], value)]
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
        out[name] = (
            _schema_type(sub, fields[name])
            if name == "type" and isinstance(sub, str)
            else _gemini(sub, fields[name], name)
        )
    return out


def _schema_type(value: Any, field: dict[str, Any]) -> Any:
    """``"object"`` -> ``"OBJECT"`` where the field is an enum that has the upper-case value."""
    enum = field.get("enum")
    if isinstance(value, str) and isinstance(enum, list) and value not in enum and value.upper() in enum:
        return value.upper()
    return value


def normalise_body(provider: str, body: dict[str, Any]) -> dict[str, Any]:
    """The body as the provider's parser reads it (a new dict; the argument is not modified)."""
    if provider == "gemini":
        return cast(dict[str, Any], _gemini(body, {"$ref": "GenerateContentRequest"}))
    return body
