"""Request-level controls every provider maps its own way: the tool choice and structured output.

The shared rules live here (a choice needs tools to choose from; a forced tool must be one
the request declares, under the name it is sent with; OpenAI's ``json_schema`` needs a
name). Each provider's ``request.py`` turns the result into its documented form
(docs/import-check-decisions.md#tool-choice, #output-format).
"""

from __future__ import annotations

from typing import Any

from harness.contract.warning_codes import Code
from harness.mapping.wire import Prepared
from harness.params import CallParams, ForcedTool, OutputFormat, ToolChoice

__all__ = [
    "DEFAULT_SCHEMA_NAME",
    "allowed_tools",
    "openai_schema_fields",
    "tool_choice",
    "warn_allowed_tools",
]

#: OpenAI requires ``json_schema.name``; used when the caller gave none.
DEFAULT_SCHEMA_NAME = "output"


def tool_choice(
    params: CallParams, prepared: Prepared, *, validated: bool = False, servers: bool = False
) -> ToolChoice | None:
    """The caller's tool choice as it can be sent, a forced tool under its sent name; None is auto.

    Without tools there is nothing to choose from (OpenAI rejects ``tool_choice`` without
    ``tools``), and a forced tool the request does not declare is rejected by every provider:
    both are not sent, with a warning. ``validated`` is Gemini's mode alone (``validated``: the
    provider takes it); elsewhere it is auto, with ``control-not-sent``. ``servers``: the request
    declares server tools (they are tools to choose from: recorded accepted, Responses
    ``tool_choice: required`` beside an ``image_generation`` tool alone).
    """
    choice = params.tool_choice
    if choice == "validated" and not validated:
        prepared.warnings.add(
            None,
            None,
            None,
            Code.CONTROL_NOT_SENT,
            "the provider has no validated tool-choice mode; sent as auto",
        )
        return None
    if choice is None:
        return None
    if not prepared.tools and not (servers and not isinstance(choice, ForcedTool)):
        prepared.warnings.add(
            None, None, None, Code.TOOL_CHOICE_NOT_SENT, "tool_choice given without tools; not sent"
        )
        return None
    if isinstance(choice, ForcedTool):
        sent = prepared.name(choice.name)
        if sent not in {t.name for t in prepared.tools}:
            prepared.warnings.add(
                None,
                None,
                None,
                Code.TOOL_CHOICE_NOT_SENT,
                f"tool_choice forces tool '{choice.name}', which the request does not declare; not sent",
            )
            return None
        return ForcedTool(name=sent)
    return choice


def allowed_tools(params: CallParams, prepared: Prepared) -> list[str] | None:
    """The allowed subset under the names sent, the tools the request declares only; None: all.

    An allowed tool the request does not declare is left out, with ``control-not-sent`` (a
    provider rejects an unknown name); a subset naming none of them is not sent.
    """
    if params.allowed_tools is None:
        return None
    declared = {t.name for t in prepared.tools}
    sent: list[str] = []
    for name in params.allowed_tools:
        native = prepared.name(name)
        if native in declared:
            sent.append(native)
        else:
            prepared.warnings.add(
                None,
                None,
                None,
                Code.CONTROL_NOT_SENT,
                f"allowed tool '{name}' is not declared by the request; left out of allowed_tools",
            )
    return sent or None


def warn_allowed_tools(params: CallParams, prepared: Prepared, provider: str) -> None:
    """A provider with no allowed-subset control: every tool stays callable, with a warning."""
    if params.allowed_tools is not None:
        prepared.warnings.add(
            None,
            None,
            None,
            Code.CONTROL_NOT_SENT,
            f"{provider} has no allowed-tools subset; allowed_tools not sent (every declared tool stays callable)",
        )


def openai_schema_fields(fmt: OutputFormat) -> dict[str, Any]:
    """OpenAI's ``json_schema`` object (Chat ``response_format.json_schema``, Responses ``text.format``)."""
    fields: dict[str, Any] = {"name": fmt.name or DEFAULT_SCHEMA_NAME, "schema": fmt.json_schema}
    if fmt.description is not None:
        fields["description"] = fmt.description
    if fmt.strict is not None:
        fields["strict"] = fmt.strict
    return fields
