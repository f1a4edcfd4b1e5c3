"""Gemini's own ``Schema`` read as the JSON Schema it equals, and named where it has none."""

from __future__ import annotations

from typing import Any

from harness.importcheck.shapes import (
    gemini_parameters_as_json_schema,
    gemini_response_schema_as_json_schema,
)
from harness.importer import import_request
from harness.importer.common import Ledger
from harness.importer.gemini_schema import json_schema_of

_URI = "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"


def test_types_by_name_case_and_proto_number() -> None:
    schema = {
        "type": "OBJECT",
        "properties": {
            "a": {"type": "string"},
            "b": {"type": 3},
            "c": {"type": 5, "items": {"type": "BOOLEAN"}},
        },
        "required": ["a"],
    }
    assert json_schema_of(schema, "p", Ledger()) == {
        "type": "object",
        "properties": {
            "a": {"type": "string"},
            "b": {"type": "integer"},
            "c": {"type": "array", "items": {"type": "boolean"}},
        },
        "required": ["a"],
    }


def test_nullable_ordering_counts_and_snake_case() -> None:
    schema = {
        "type": "OBJECT",
        "property_ordering": ["z", "a"],
        "properties": {"a": {"type": "STRING", "nullable": True}, "z": {"any_of": [{"type": "NUMBER"}]}},
        "max_items": "3",
    }
    out = json_schema_of(schema, "p", Ledger())
    assert out == {
        "type": "object",
        "properties": {"z": {"anyOf": [{"type": "number"}]}, "a": {"type": ["string", "null"]}},
        "maxItems": 3,
    }
    assert out is not None and list(out["properties"]) == ["z", "a"]


def test_a_key_without_a_json_schema_equal_is_named() -> None:
    ledger = Ledger()
    assert json_schema_of({"type": "OBJECT", "example": {"a": 1}}, "p", ledger) is None
    assert ledger.lines == ['p.example: not representable in JSON Schema ({"a": 1})']
    ledger = Ledger()
    assert (
        json_schema_of({"type": "OBJECT", "properties": {}, "propertyOrdering": ["x"]}, "p", ledger) is None
    )
    assert ledger.lines[0].startswith("p.propertyOrdering: not a permutation")
    ledger = Ledger()
    assert json_schema_of({"type": "TUPLE"}, "p", ledger) is None
    assert ledger.lines == ['p.type: unknown Schema type "TUPLE"']


def _body(**extra: Any) -> dict[str, Any]:
    return {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], **extra}


def test_the_importer_reads_parameters_and_response_schema() -> None:
    decl: dict[str, Any] = {
        "name": "f",
        "description": "d",
        "parameters": {"type": "OBJECT", "properties": {}},
    }
    config = {"responseMimeType": "application/json", "responseSchema": {"type": "STRING"}}
    imported = import_request(
        "gemini", _body(tools=[{"functionDeclarations": [decl]}], generationConfig=config), uri=_URI
    )
    assert imported.unrepresented == []
    assert imported.params.tools is not None
    assert imported.params.tools[0].parameters == {"type": "object", "properties": {}}
    assert imported.params.output_format is not None
    assert imported.params.output_format.json_schema == {"type": "string"}


def test_both_forms_at_once_are_named_not_guessed() -> None:
    decl = {"name": "f", "parameters": {"type": "OBJECT"}, "parametersJsonSchema": {"type": "object"}}
    imported = import_request("gemini", _body(tools=[{"functionDeclarations": [decl]}]), uri=_URI)
    assert imported.unrepresented == [
        "tools[0].functionDeclarations[0].parameters: beside parametersJsonSchema not representable"
    ]


def test_the_rewrites_give_the_json_schema_form_and_only_when_they_change_something() -> None:
    decl = {"name": "f", "parameters": {"type": "OBJECT"}}
    assert gemini_parameters_as_json_schema(decl) == {"name": "f", "parametersJsonSchema": {"type": "object"}}
    assert gemini_parameters_as_json_schema({"name": "f", "parametersJsonSchema": {}}) is None
    assert (
        gemini_parameters_as_json_schema({"name": "f", "parameters": {"type": "OBJECT", "example": 1}})
        is None
    )
    config = {"response_mime_type": "application/json", "response_schema": {"type": "STRING"}}
    assert gemini_response_schema_as_json_schema(config) == {
        "responseMimeType": "application/json",
        "responseJsonSchema": {"type": "string"},
    }
