"""Gemini's own ``Schema`` (the OpenAPI 3.0 subset of ``FunctionDeclaration.parameters`` and
``generationConfig.responseSchema``) -> the JSON Schema the canonical model holds.

Gemini takes a function's parameters in either form: ``parameters`` (a ``Schema``: ``type`` an
enum spelled ``"OBJECT"`` or, in the proto's numbering, ``6``; ``nullable``; ``propertyOrdering``)
or ``parametersJsonSchema`` (JSON Schema; "mutually exclusive with parameters", per the
``FunctionDeclaration`` reference). Both are recorded as accepted: Google ADK and pydantic-ai send
the first (traffic/clients2/openinference/.../test_google_adk_instrumentor_multi_agent.yaml),
our adapter the second. A schema converts only when nothing is lost: a key outside the ``Schema``
fields below, or a ``propertyOrdering`` that is not a permutation of the properties, is named.
"""

from __future__ import annotations

from typing import Any, cast

from harness.importer.common import Json, Ledger, show

__all__ = ["json_schema_of"]

#: ``Type`` of the Gemini API, by name and by its proto number.
_TYPES = ("TYPE_UNSPECIFIED", "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL")
#: Keys JSON Schema spells the same way, with scalar values (int64 counts may come as strings).
_SAME = {"description", "title", "format", "enum", "required", "default", "pattern", "minimum", "maximum"}
_COUNTS = {"minItems", "maxItems", "minLength", "maxLength", "minProperties", "maxProperties"}
_SNAKE = {
    "any_of": "anyOf",
    "min_items": "minItems",
    "max_items": "maxItems",
    "min_length": "minLength",
    "max_length": "maxLength",
    "min_properties": "minProperties",
    "max_properties": "maxProperties",
    "property_ordering": "propertyOrdering",
}


def _type_name(value: Any) -> str | None:
    """``"OBJECT"``, ``"object"`` or ``6`` -> ``"object"``; None for an unknown or unspecified type."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(_TYPES):
        value = _TYPES[value]
    if isinstance(value, str) and value.upper() in _TYPES[1:]:
        return value.lower()
    return None


def json_schema_of(schema: Any, at: str, ledger: Ledger) -> Json | None:
    """The JSON Schema equal to a Gemini ``Schema``, or None (with a ledger line) when one key has none."""
    if not isinstance(schema, dict):
        ledger.note(at, f"expected a Schema object, got {show(schema)}")
        return None
    lines = len(ledger.lines)
    out = _convert(cast(Json, schema), at, ledger)
    return out if len(ledger.lines) == lines else None


def _convert(schema: Json, at: str, ledger: Ledger) -> Json:
    source = {_SNAKE.get(key, key): value for key, value in schema.items()}
    out: Json = {}
    for key, value in source.items():
        sub = f"{at}.{key}"
        if key == "type":
            name = _type_name(value)
            if name is None and value not in ("TYPE_UNSPECIFIED", 0):
                ledger.note(sub, f"unknown Schema type {show(value)}")
            elif name is not None:
                out["type"] = name
        elif key in _SAME:
            out[key] = value
        elif key in _COUNTS:
            out[key] = int(value) if isinstance(value, str) and value.isdigit() else value
        elif key == "items":
            out["items"] = _convert(cast(Json, value), sub, ledger) if isinstance(value, dict) else value
        elif key == "anyOf" and isinstance(value, list):
            out["anyOf"] = [
                _convert(cast(Json, v), f"{sub}[{i}]", ledger) if isinstance(v, dict) else v
                for i, v in enumerate(cast(list[Any], value))
            ]
        elif key == "properties" and isinstance(value, dict):
            props = cast(Json, value)
            out["properties"] = {
                name: _convert(cast(Json, v), f"{sub}.{name}", ledger) if isinstance(v, dict) else v
                for name, v in props.items()
            }
        elif key in ("nullable", "propertyOrdering"):
            continue  # applied below, once the rest is read
        else:
            ledger.note(sub, f"not representable in JSON Schema ({show(value)})")
    _ordering(source, out, at, ledger)
    if source.get("nullable") is True:
        kind = out.get("type")
        if isinstance(kind, str):
            out["type"] = [kind, "null"]
        else:
            ledger.note(f"{at}.nullable", "nullable without a type not representable")
    elif source.get("nullable") not in (None, False):
        ledger.note(f"{at}.nullable", f"expected a boolean, got {show(source.get('nullable'))}")
    return out


def _ordering(source: Json, out: Json, at: str, ledger: Ledger) -> None:
    """``propertyOrdering``: the properties' order, which a JSON object's key order carries."""
    order = source.get("propertyOrdering")
    if order is None:
        return
    props = cast(Json, out.get("properties") or {})
    if not isinstance(order, list) or sorted(map(str, cast(list[Any], order))) != sorted(props):
        ledger.note(f"{at}.propertyOrdering", f"not a permutation of the properties ({show(order)})")
        return
    out["properties"] = {str(name): props[str(name)] for name in cast(list[Any], order)}
