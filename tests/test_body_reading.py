"""One reading of a body for every judge: a spelling the provider's parser accepts never changes a verdict.

Gemini parses proto3 JSON, which takes a message field by its lowerCamelCase JSON name
or its snake_case proto name, and takes ``Schema.type`` as ``OBJECT`` or ``object``
(``harness/oracles/normalise.py`` has the evidence). Every scenario is rendered for every
provider, respelled in the other accepted form, and judged again by every invariant, the
provider rules and the schema oracles: the verdicts must be identical.
"""

from __future__ import annotations

import copy
import re
from functools import cache
from typing import Any, cast

import pytest

from harness.contract.providers import PROVIDERS
from harness.invariants import run_invariants
from harness.oracles import validate
from harness.oracles.spec import load_spec
from harness.rules import check_body
from harness.scenarios import load_scenarios
from tests.support.invariants import REFERENCE, Mutant

SCENARIOS = load_scenarios()
_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")


@cache
def _schemas() -> dict[str, dict[str, Any]]:
    return cast(dict[str, dict[str, Any]], load_spec("gemini-discovery.json")["schemas"])


def _snake(name: str) -> str:
    return _CAMEL.sub(lambda m: "_" + m.group(1).lower(), name)


def respell_gemini(value: Any, schema: dict[str, Any], types: str) -> Any:
    """Every message field name in snake_case and every ``Schema.type`` in ``types`` case
    (``lower`` or ``upper``); free-form JSON (args, responses, JSON schemas) kept as sent."""
    ref = schema.get("$ref")
    schema = _schemas().get(ref, {}) if isinstance(ref, str) else schema
    if isinstance(value, list):
        items = schema.get("items")
        inner = cast(dict[str, Any], items) if isinstance(items, dict) else {}
        return [respell_gemini(v, inner, types) for v in cast(list[Any], value)]
    if not isinstance(value, dict):
        return value
    props = schema.get("properties")
    if not isinstance(props, dict):
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict):
            return {
                k: respell_gemini(v, cast(dict[str, Any], extra), types)
                for k, v in cast(dict[str, Any], value).items()
            }
        return cast(dict[str, Any], value)
    fields = cast(dict[str, dict[str, Any]], props)
    out: dict[str, Any] = {}
    for key, sub in cast(dict[str, Any], value).items():
        if key not in fields:
            out[key] = sub
        elif key == "type" and isinstance(sub, str) and "enum" in fields[key]:
            out[key] = sub.lower() if types == "lower" else sub.upper()
        else:
            out[_snake(key)] = respell_gemini(sub, fields[key], types)
    return out


def _in_place(new: dict[str, Any], body: dict[str, Any]) -> None:
    body.clear()
    body.update(new)


def snake_case(provider: str, body: dict[str, Any]) -> None:
    if provider == "gemini":
        _in_place(respell_gemini(body, {"$ref": "GenerateContentRequest"}, "upper"), body)


def _schema_parameters(body: dict[str, Any], types: str) -> None:
    """Tool JSON schemas moved to ``parameters`` (Gemini's Schema), with types in ``types`` case."""
    for tool in cast(list[Any], body.get("tools") or []):
        for decl in cast(list[dict[str, Any]], cast(dict[str, Any], tool).get("functionDeclarations") or []):
            if "parametersJsonSchema" in decl:
                decl["parameters"] = decl.pop("parametersJsonSchema")
    _in_place(respell_gemini(body, {"$ref": "GenerateContentRequest"}, types), body)
    renamed = {"function_declarations": "functionDeclarations"}
    for tool in cast(list[dict[str, Any]], body.get("tools") or []):
        for old, new in renamed.items():
            if old in tool:
                tool[new] = tool.pop(old)


def lower_types(provider: str, body: dict[str, Any]) -> None:
    if provider == "gemini":
        _schema_parameters(body, "lower")


def upper_types(provider: str, body: dict[str, Any]) -> None:
    if provider == "gemini":
        _schema_parameters(body, "upper")


def verdicts(target: Mutant, name: str, provider: str) -> list[tuple[str, ...]]:
    scenario = SCENARIOS[name]
    params = scenario.params_for(provider)
    report = run_invariants(scenario.history, params, target=target, providers=[provider])
    body = target.render(provider, scenario.history, params).body
    found = [(v.invariant, v.kind, str(v.message_index), v.reason) for v in report.violations]
    found += [(f.rule, f.kind, f.path, f.message) for f in check_body(provider, body)]
    found += [(e.oracle, e.path, e.message) for e in validate(provider, body).errors]
    return sorted(found)


CASES = [(name, provider) for name in sorted(SCENARIOS) for provider in PROVIDERS]


@cache
def as_sent(name: str, provider: str) -> tuple[tuple[str, ...], ...]:
    """The verdicts on the reference's own body (a target that changes nothing): what each
    respelling below is compared with, computed once per case for the tests that share it."""
    return tuple(verdicts(Mutant(name="as-sent"), name, provider))


@pytest.mark.parametrize(("name", "provider"), [c for c in CASES if c[1] == "gemini"])
def test_snake_case_gemini_bodies_get_the_same_verdicts(name: str, provider: str) -> None:
    assert tuple(verdicts(Mutant(name="snake", body=snake_case), name, provider)) == as_sent(name, provider)


def test_the_respelling_changes_the_bodies() -> None:
    """The test above compares something: most Gemini bodies have a two-word field name."""
    changed = 0
    for scenario in SCENARIOS.values():
        params = scenario.params_for("gemini")
        body = Mutant(name="snake", body=snake_case).render("gemini", scenario.history, params).body
        changed += body != REFERENCE.render("gemini", scenario.history, params).body
    assert changed >= len(SCENARIOS) // 2, changed


@pytest.mark.parametrize(("name", "provider"), [c for c in CASES if c[1] == "gemini"])
def test_lower_and_upper_schema_types_get_the_same_verdicts(name: str, provider: str) -> None:
    assert verdicts(Mutant(name="lower", body=lower_types), name, provider) == verdicts(
        Mutant(name="upper", body=upper_types), name, provider
    )


def test_lowercase_schema_types_are_not_a_reject() -> None:
    """Google's REST function-calling guide sends ``"type": "object"`` in ``parameters``."""
    scenario = SCENARIOS["tool_single_call"]
    body = (
        Mutant(name="lower", body=lower_types)
        .render("gemini", scenario.history, scenario.params_for("gemini"))
        .body
    )
    declaration = body["tools"][0]["functionDeclarations"][0]
    assert declaration["parameters"]["type"] == "object"
    unsupported = copy.deepcopy(body)
    unsupported["tools"][0]["functionDeclarations"][0]["parameters"].pop("additionalProperties", None)
    assert validate("gemini", unsupported).ok, validate("gemini", unsupported)
    unsupported["tools"][0]["functionDeclarations"][0]["parameters"]["type"] = "objekt"
    assert not validate("gemini", unsupported).ok  # a type that is no spelling of the enum still fails


def single_objects(provider: str, body: dict[str, Any]) -> None:
    """Every one-item list of messages written as that one object (a repeated field as one value)."""
    if provider != "gemini":
        return

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            out: dict[str, Any] = {}
            for key, value in cast(dict[str, Any], node).items():
                if key in _FREE_FORM:
                    out[key] = value
                elif (
                    isinstance(value, list)
                    and len(cast(list[Any], value)) == 1
                    and isinstance(value[0], dict)
                ):
                    out[key] = walk(value[0])
                else:
                    out[key] = walk(value)
            return out
        if isinstance(node, list):
            return [walk(v) for v in cast(list[Any], node)]
        return node

    new = walk(body)
    body.clear()
    body.update(new)


#: Values that are data, not messages (a one-item list there is the caller's own JSON).
_FREE_FORM = {
    "args",
    "response",
    "parameters",
    "parametersJsonSchema",
    "responseSchema",
    "responseJsonSchema",
}


@pytest.mark.parametrize(("name", "provider"), [c for c in CASES if c[1] == "gemini"])
def test_a_repeated_field_written_as_one_object_gets_the_same_verdicts(name: str, provider: str) -> None:
    assert tuple(verdicts(Mutant(name="single", body=single_objects), name, provider)) == as_sent(
        name, provider
    )
