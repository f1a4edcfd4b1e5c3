"""Tools added mid-conversation (a system message's ``added_tools``): native where the wire has a
place for them, else declared with the request's tools from the start.

Anthropic takes them as a ``system`` message of ``tool_addition`` blocks, each a
``tool_reference`` to a deferred tool or a whole ``tool_definition`` (recorded accepted:
traffic/pydantic-ai/models__test_anthropic__test_anthropic_lazy_advertisement_live.yaml#1;
traffic/clients2/langchain/libs/partners/anthropic/tests/cassettes/test_system_tool_addition.yaml.gz#0).
Responses takes an ``additional_tools`` input item (role ``developer``, function definitions;
openai-python ``ResponseInputItemParam.AdditionalTools``; recorded accepted:
traffic/clients2/langchain/libs/partners/openai/tests/cassettes/test_system_additional_tools.yaml.gz#0).
Everywhere else the tools cannot appear mid-way: they are declared from the first turn
(``tool-addition-upfront``), so the model can still call them, while the prompt prefix the
addition kept (its point: the cache before it stays warm) is not kept.
"""

from __future__ import annotations

from typing import Any

from harness.contract.warning_codes import Code
from harness.mapping.wire import Warnings, WireToolAddition
from harness.model import AddedTool
from harness.params import ToolSpec

__all__ = ["anthropic_message", "declare_upfront", "responses_item"]

Json = dict[str, Any]


def _spec(tool: AddedTool) -> ToolSpec | None:
    if tool.parameters is None:
        return None
    return ToolSpec(
        name=tool.name,
        description=tool.description or "",
        parameters=dict(tool.parameters),
        strict=tool.strict,
    )


def declare_upfront(
    additions: list[WireToolAddition], declared: list[ToolSpec], provider: str, warnings: Warnings
) -> list[ToolSpec]:
    """The added tools' definitions a provider without tool additions declares from the start (the
    ones not declared already: a reference names a deferred tool of the call's tools)."""
    names = {t.name for t in declared}
    out: list[ToolSpec] = []
    for addition in additions:
        for tool in addition.tools:
            spec = _spec(tool)
            if spec is not None and spec.name not in names:
                names.add(spec.name)
                out.append(spec)
        warnings.add(
            addition.index,
            None,
            "added_tools",
            Code.TOOL_ADDITION_UPFRONT,
            f"{provider} cannot add tools mid-conversation; "
            f"{', '.join(t.name for t in addition.tools)} declared with the request's tools from the start",
        )
    return out


def anthropic_message(addition: WireToolAddition, sent_name: Any) -> Json:
    """A ``system`` message of ``tool_addition`` blocks (``sent_name``: canonical -> wire name)."""
    blocks: list[Json] = []
    for tool in addition.tools:
        name = str(sent_name(tool.name))
        if tool.parameters is None:
            blocks.append({"type": "tool_addition", "tool": {"type": "tool_reference", "name": name}})
            continue
        definition: Json = {"name": name}
        if tool.description is not None:
            definition["description"] = tool.description
        definition["input_schema"] = dict(tool.parameters)
        if tool.strict is not None:
            definition["strict"] = tool.strict
        blocks.append(
            {"type": "tool_addition", "tool": {"type": "tool_definition", "definition": definition}}
        )
    return {"role": "system", "content": blocks}


def responses_item(
    addition: WireToolAddition, declared: list[ToolSpec], sent_name: Any, warnings: Warnings
) -> Json | None:
    """An ``additional_tools`` item; a reference takes the deferred tool's definition from the
    call's tools (the item holds whole definitions), one with none is not sent (warned)."""
    by_name = {t.name: t for t in declared}
    tools: list[Json] = []
    for tool in addition.tools:
        spec = _spec(tool) or by_name.get(str(sent_name(tool.name)))
        if spec is None:
            warnings.add(
                addition.index,
                None,
                "added_tools",
                Code.TOOL_ADDITION_UPFRONT,
                f"added tool '{tool.name}' is a reference to no declared tool; not sent",
            )
            continue
        out: Json = {"type": "function", "name": str(sent_name(spec.name))}
        if spec.description or tool.description is not None:
            out["description"] = spec.description
        out["parameters"] = dict(spec.parameters)
        if spec.strict is not None:
            out["strict"] = spec.strict
        tools.append(out)
    return {"type": "additional_tools", "role": "developer", "tools": tools} if tools else None
