"""Published-spec oracle: a request body against the provider's own schema (jsonschema-rs).

Why: the provider's published schema is the most independent judge we have of a
request body, and jsonschema-rs checks one in microseconds. The raw documents need
mechanical fixes before plain JSON Schema 2020-12 judges them the way the API does
(tested recipes in ``notes/oracles.md``):

- OpenAI: ``nullable: true`` (an OpenAPI 3.0 keyword still used in the 3.1 document)
  becomes a ``null`` type; ``oneOf`` becomes ``anyOf`` because OpenAI's unions overlap
  (a user message with ``input_text`` parts is both an ``EasyInputMessage`` and an
  ``InputMessage``); and every instance boundary is closed with
  ``unevaluatedProperties: false`` so unknown keys fail, while component roots and
  ``allOf`` parts stay open so composition keeps working.
- Anthropic: the same first two fixes; the document is already closed
  (``additionalProperties: false`` on its objects).
- Gemini: the v1beta Discovery document is converted to JSON Schema (see
  ``discovery_to_json_schema``). Discovery cannot say "required", "oneof" or which
  roles exist, so this oracle checks names, types, enums and base64 (standard or
  URL-safe). Names are camelCase here; the live API also accepts proto snake_case names
  (proto3 JSON), which ``normalise.py`` renames before this oracle runs.
- OpenRouter publishes no spec. Its chat API is OpenAI Chat plus extensions
  (``reasoning``, ``reasoning_details``, ``provider``, ``models``, ``plugins``,
  ``cache_control`` on parts, ...), so it is checked against OpenAI's
  ``CreateChatCompletionRequest`` in OPEN mode: roles, ids, types and ranges of every
  OpenAI field are judged, unknown keys are not. The strict judge of OpenRouter's
  extensions is the OpenRouter SDK oracle (``sdk.py``).

Validators are built lazily, once per provider (``spec_targets.spec_oracle`` is cached).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any, cast

import jsonschema_rs

__all__ = [
    "SpecOracle",
    "close_objects",
    "discovery_to_json_schema",
    "fix_nullable",
    "one_of_to_any_of",
]

SPECS_DIR = Path(__file__).resolve().parent / "specs"
_MAX_MESSAGE = 400  # error messages quote the failing instance; base64 images make them huge

Json = Any  # parsed JSON: dict / list / str / int / float / bool / None


@cache
def load_spec(file_name: str) -> dict[str, Any]:
    """A vendored spec document, parsed once."""
    return json.loads((SPECS_DIR / file_name).read_text(encoding="utf-8"))


# --- OpenAPI 3.x -> JSON Schema 2020-12 -------------------------------------------------


def fix_nullable(node: Json) -> Json:
    """``nullable: true`` -> a ``null`` type (or an ``anyOf`` with null when untyped)."""
    if isinstance(node, list):
        return [fix_nullable(x) for x in cast(list[Json], node)]
    if not isinstance(node, dict):
        return node
    out: dict[str, Json] = {k: fix_nullable(v) for k, v in cast(dict[str, Json], node).items()}
    if out.pop("nullable", False) is True:
        enum = out.get("enum")
        if isinstance(enum, list) and None not in enum:
            out["enum"] = [*cast(list[Json], enum), None]
        kind = out.get("type")
        if isinstance(kind, str):
            out["type"] = [kind, "null"]
        elif isinstance(kind, list):
            if "null" not in kind:
                out["type"] = [*cast(list[str], kind), "null"]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


def one_of_to_any_of(node: Json) -> Json:
    """``oneOf`` -> ``anyOf``: OpenAI's unions overlap, so exactly-one rejects valid input."""
    if isinstance(node, dict):
        return {
            ("anyOf" if k == "oneOf" else k): one_of_to_any_of(v)
            for k, v in cast(dict[str, Json], node).items()
        }
    if isinstance(node, list):
        return [one_of_to_any_of(x) for x in cast(list[Json], node)]
    return node


def _close(schema: Json) -> None:
    if not isinstance(schema, dict):
        return
    s = cast(dict[str, Json], schema)
    if "additionalProperties" in s or "unevaluatedProperties" in s:
        return
    if any(k in s for k in ("$ref", "properties", "allOf", "anyOf", "oneOf")):
        s["unevaluatedProperties"] = False


def close_objects(node: Json) -> None:
    """Add ``unevaluatedProperties: false`` at every instance boundary, in place.

    Instance boundaries are property values, ``items``, ``additionalProperties`` and
    ``prefixItems``. Component roots and allOf/anyOf parts are left open so that a
    schema composed with ``allOf`` still sees every part's properties as evaluated.
    """
    if isinstance(node, list):
        for x in cast(list[Json], node):
            close_objects(x)
        return
    if not isinstance(node, dict):
        return
    for key, value in cast(dict[str, Json], node).items():
        if key in ("properties", "patternProperties") and isinstance(value, dict):
            for sub in cast(dict[str, Json], value).values():
                _close(sub)
        elif key in ("items", "additionalProperties"):
            _close(value)
        elif key == "prefixItems" and isinstance(value, list):
            for sub in cast(list[Json], value):
                _close(sub)
        close_objects(value)


# --- Google Discovery -> JSON Schema 2020-12 ---------------------------------------------

_INT64_FORMATS = {"int64", "uint64"}
_DISCOVERY_ONLY = {
    "id",
    "description",
    "enumDescriptions",
    "enumDeprecated",
    "deprecated",
    "readOnly",
    "format",
}
_BASE64 = r"^[A-Za-z0-9+/_-]*={0,2}$"  # format: byte; proto JSON accepts standard and URL-safe base64


def _discovery_schema(node: dict[str, Json], known: set[str]) -> dict[str, Json]:
    if "$ref" in node:
        ref = node["$ref"]
        # The published document references MediaResolution without defining it: accept anything.
        return {"$ref": f"#/schemas/{ref}"} if ref in known else {}
    out: dict[str, Json] = {k: v for k, v in node.items() if k not in _DISCOVERY_ONLY}
    kind, fmt = node.get("type"), node.get("format")
    if kind == "any":
        out.pop("type")
    elif kind == "string" and fmt in _INT64_FORMATS:
        # proto3 JSON: 64-bit integers are written as strings, and numbers are accepted too.
        out = {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": r"^-?[0-9]+$"}]}
    elif kind == "string" and fmt == "byte":
        out["pattern"] = _BASE64
    props = node.get("properties")
    if isinstance(props, dict):
        out["properties"] = {
            k: _discovery_schema(v, known) for k, v in cast(dict[str, dict[str, Json]], props).items()
        }
    items = node.get("items")
    if isinstance(items, dict):
        out["items"] = _discovery_schema(cast(dict[str, Json], items), known)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        out["additionalProperties"] = _discovery_schema(cast(dict[str, Json], extra), known)
    elif kind == "object":
        out["additionalProperties"] = False  # a proto message: unknown fields are a 400
    return out


def discovery_to_json_schema(doc: dict[str, Any]) -> dict[str, Any]:
    """A Discovery document's ``schemas`` as a JSON Schema resource; refs are ``#/schemas/X``.

    ``type: any`` -> ``{}``; 64-bit integers -> integer or decimal string; ``format: byte``
    -> a base64 pattern; every message object (no ``additionalProperties`` map) closed.
    Fields documented as "Required." are not made required: the descriptions are not
    reliable (``FunctionDeclaration.description`` says so but is optional).
    """
    schemas = cast(dict[str, dict[str, Json]], doc["schemas"])
    known = set(schemas)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "schemas": {name: _discovery_schema(s, known) for name, s in schemas.items()},
    }


# --- the oracle -------------------------------------------------------------------------


_Kind = jsonschema_rs.ValidationErrorKind
_DISCRIMINATORS = ("type", "role")


def _path(parts: list[str | int]) -> str:
    return "/".join(str(p) for p in parts)


def _short(message: str) -> str:
    return message if len(message) <= _MAX_MESSAGE else message[: _MAX_MESSAGE - 3] + "..."


def _misfits(
    branch: list[jsonschema_rs.ValidationError], at: list[str | int]
) -> list[jsonschema_rs.ValidationError]:
    """Errors saying a union branch is the wrong variant for the instance at ``at``.

    That is a wrong JSON type, or any error on the ``type``/``role`` discriminator (an
    enum, a const, or the anyOf of a nullable enum).
    """
    return [
        e for e in branch
        if (e.instance_path == at and isinstance(e.kind, _Kind.Type))
        or (e.instance_path[:-1] == at and e.instance_path[-1] in _DISCRIMINATORS)
    ]  # fmt: skip


def _explain(err: jsonschema_rs.ValidationError) -> tuple[list[jsonschema_rs.ValidationError], bool]:
    """Replace an anyOf failure by the errors of the branch the body most likely meant.

    jsonschema-rs reports a failed union as one error quoting the whole instance. The
    meant branch is one that is not a misfit (see ``_misfits``), preferring branches
    whose own nested unions found a fitting variant, then the one that got deepest into
    the instance (like ``jsonschema.exceptions.best_match``). If every branch is a
    misfit, the misfit errors themselves say what was expected, and the result is
    flagged as not fitting (``False``) so an enclosing union can prefer another branch.
    """
    kind = err.kind
    if not isinstance(kind, _Kind.AnyOf | _Kind.OneOfNotValid):
        return [err], True
    branches = [b for b in kind.context if b]
    meant = [b for b in branches if not _misfits(b, err.instance_path)]
    if not meant:
        found = [m for b in branches for m in _misfits(b, err.instance_path)]
        return (found or [err]), False
    scored: list[tuple[bool, int, int, list[jsonschema_rs.ValidationError]]] = []
    for branch in meant:
        parts = [_explain(e) for e in branch]
        leaves = [leaf for got, _ in parts for leaf in got]
        fits = all(fit for _, fit in parts)
        scored.append((fits, max(len(e.instance_path) for e in leaves), -len(leaves), leaves))
    fits, _, _, leaves = max(scored, key=lambda t: t[:3])
    return leaves, fits


def _drop_unevaluated_noise(errs: list[jsonschema_rs.ValidationError]) -> list[jsonschema_rs.ValidationError]:
    """A failed child makes its closed parent call every key "unevaluated": drop that echo."""

    def echo(e: jsonschema_rs.ValidationError) -> bool:
        at = e.instance_path
        return isinstance(e.kind, _Kind.UnevaluatedProperties) and any(
            f is not e and f.instance_path[: len(at)] == at
            and (len(f.instance_path) > len(at) or not isinstance(f.kind, _Kind.UnevaluatedProperties))
            for f in errs
        )  # fmt: skip

    return [e for e in errs if not echo(e)]


class SpecOracle:
    """One request schema of one spec document, compiled once with jsonschema-rs."""

    def __init__(self, document: dict[str, Any], pointer: str, *, closed: bool, uri: str) -> None:
        self.pointer = pointer
        self.closed = closed
        registry = jsonschema_rs.Registry([(uri, document)], draft=jsonschema_rs.Draft202012)
        root: dict[str, Any] = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$ref": f"{uri}#{pointer}",
        }
        if closed:
            root["unevaluatedProperties"] = False
        self._validator = jsonschema_rs.validator_for(root, registry=registry, offline=True)

    def errors(self, body: Json) -> list[tuple[str, str]]:
        """``(path, message)`` per violation, deepest first, union noise removed."""
        if self._validator.is_valid(body):
            return []
        leaves = [leaf for e in self._validator.iter_errors(body) for leaf in _explain(e)[0]]
        leaves = sorted(_drop_unevaluated_noise(leaves), key=lambda e: -len(e.instance_path))
        return list(dict.fromkeys((_path(e.instance_path), _short(e.message)) for e in leaves))
