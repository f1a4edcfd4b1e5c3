"""Bedrock Converse request oracles: AWS's own service model, read two independent ways.

- ``spec``: the bedrock-runtime service model botocore ships (``specs/bedrock-runtime-service-2.json``,
  vendored: no extra package needed), its Smithy shapes translated to JSON Schema and run
  through the same jsonschema-rs machinery as the other published specs. Structures are
  closed (botocore refuses unknown parameters), unions take exactly one member, enums,
  patterns, lengths and ranges hold; members bound to the URL (``modelId``) are not body fields.
- ``sdk``: botocore's own ``ParamValidator`` on the ``Converse`` input shape (the official
  SDK's client-side validation), after mapping the JSON body back to parameters: blob
  members (``image.source.bytes``, ``redactedContent``...) are base64 in JSON and bytes in
  parameters; ``modelId`` comes from the URL and is filled with a valid placeholder.

Why both: the translation is ours, ParamValidator is AWS's; each catches what the other
does not (ParamValidator checks no enum or pattern, the translation could be wrong).
"""

from __future__ import annotations

import base64
import binascii
from functools import cache
from importlib import import_module
from typing import Any

from harness.oracles.spec import SpecOracle, load_spec

__all__ = ["BotocoreOracle", "bedrock_spec_oracle", "converse_schema_document"]

Json = dict[str, Any]
_FILE = "bedrock-runtime-service-2.json"
_INPUT = "ConverseRequest"
#: A placeholder for the URL's model id, valid for ``ConversationalModelId``.
_MODEL_ID = "us.anthropic.claude-sonnet-4-5-20250929-v1:0"
_BASE64 = r"^[A-Za-z0-9+/]*={0,2}$"


def _shape_schema(shape: Json) -> Json:
    kind = shape["type"]
    if shape.get("document"):  # Smithy document (tool input, JSON results, model fields): any JSON value
        return {}
    if kind == "structure":
        members: dict[str, Json] = shape.get("members", {})
        body = {n: m for n, m in members.items() if m.get("location") not in ("uri", "header", "querystring")}
        schema: Json = {
            "type": "object",
            "properties": {n: {"$ref": f"#/definitions/{m['shape']}"} for n, m in body.items()},
            "additionalProperties": False,
        }
        required = [n for n in shape.get("required", []) if n in body]
        if required:
            schema["required"] = required
        if shape.get("union"):
            schema["minProperties"] = 1
            schema["maxProperties"] = 1
        return schema
    if kind == "list":
        schema = {"type": "array", "items": {"$ref": f"#/definitions/{shape['member']['shape']}"}}
        if "min" in shape:
            schema["minItems"] = shape["min"]
        if "max" in shape:
            schema["maxItems"] = shape["max"]
        return schema
    if kind == "map":
        return {
            "type": "object",
            "additionalProperties": {"$ref": f"#/definitions/{shape['value']['shape']}"},
        }
    if kind == "string":
        schema = {"type": "string"}
        if "enum" in shape:
            schema["enum"] = shape["enum"]
        if "pattern" in shape:
            schema["pattern"] = f"^(?:{shape['pattern']})$"
        if "min" in shape:
            schema["minLength"] = shape["min"]
        if "max" in shape:
            schema["maxLength"] = shape["max"]
        return schema
    if kind in ("integer", "long", "float", "double"):
        schema = {"type": "integer" if kind in ("integer", "long") else "number"}
        if "min" in shape:
            schema["minimum"] = shape["min"]
        if "max" in shape:
            schema["maximum"] = shape["max"]
        return schema
    if kind == "boolean":
        return {"type": "boolean"}
    if kind == "blob":
        schema = {"type": "string", "pattern": _BASE64}
        if "min" in shape:  # a blob's length is in bytes; base64 takes at least as many characters
            schema["minLength"] = shape["min"]
        return schema
    if kind == "timestamp":
        return {"type": ["string", "number"]}
    return {}  # document: any JSON value


@cache
def converse_schema_document() -> Json:
    """Every shape of the service model as a JSON Schema definition (read-only once built)."""
    model = load_spec(_FILE)
    shapes: dict[str, Json] = model["shapes"]
    return {"definitions": {name: _shape_schema(shape) for name, shape in sorted(shapes.items())}}


def bedrock_spec_oracle() -> SpecOracle:
    return SpecOracle(
        converse_schema_document(), f"/definitions/{_INPUT}", closed=False, uri="urn:bedrock-runtime"
    )


class BotocoreOracle:
    """botocore's ``ParamValidator`` on the ``Converse`` input shape (the SDK oracle)."""

    def __init__(self) -> None:
        session: Any = import_module("botocore.session").get_session()
        model: Any = session.get_service_model("bedrock-runtime")
        self._shape: Any = model.operation_model("Converse").input_shape
        self._validator: Any = import_module("botocore.validate").ParamValidator()

    def errors(self, body: Json) -> list[tuple[str, str]]:
        problems: list[tuple[str, str]] = []
        params = _to_params(self._shape, {**body, "modelId": _MODEL_ID}, "", problems)
        report: Any = self._validator.validate(params, self._shape)
        if report.has_errors():
            for error in report._errors:  # pyright: ignore[reportUnknownVariableType]  # (type, name, details)
                name: str = error[1]
                path = name.replace(".", "/").replace("[", "/").replace("]", "").strip("/")
                problems.append((path, str(error[0])))
        return problems


def _to_params(shape: Any, value: Any, path: str, problems: list[tuple[str, str]]) -> Any:
    """A JSON value as botocore parameters: base64 blobs decoded, everything else as it is."""
    kind: str = shape.type_name
    if kind == "blob" and isinstance(value, str):
        try:
            return base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            problems.append((path.strip("/"), "blob is not valid base64"))
            return value
    if kind == "structure" and isinstance(value, dict):
        members: dict[str, Any] = shape.members
        return {
            k: _to_params(members[k], v, f"{path}/{k}", problems) if k in members else v
            for k, v in value.items()  # pyright: ignore[reportUnknownVariableType]
        }
    if kind == "list" and isinstance(value, list):
        return [_to_params(shape.member, v, f"{path}/{i}", problems) for i, v in enumerate(value)]  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    if kind == "map" and isinstance(value, dict):
        return {k: _to_params(shape.value, v, f"{path}/{k}", problems) for k, v in value.items()}  # pyright: ignore[reportUnknownVariableType]
    return value
