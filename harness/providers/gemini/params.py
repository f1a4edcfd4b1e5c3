"""Gemini request parameters: systemInstruction, the function declarations and generationConfig
(thinking config by model version; see ``profile.py`` for the version gates and DECISIONS.md)."""

from __future__ import annotations

from typing import Any

from harness.contract.warning_codes import Code
from harness.mapping.call_controls import fold_effort
from harness.mapping.wire import (
    Warnings,
)
from harness.params import CallParams, ForcedTool, ServerToolSpec, ThinkingParams, ToolChoice, ToolSpec
from harness.providers.gemini import profile
from harness.providers.gemini.profile import (
    EFFORT_TO_LEVEL,
)

__all__ = [
    "function_tool",
    "generation_config",
    "system_instruction",
    "system_into_first_user",
    "thinking_config",
    "thinking_off",
    "tool_config",
]

Json = dict[str, Any]


def system_instruction(system: list[tuple[int | None, str]]) -> Json | None:
    """``systemInstruction`` is a Content of text parts; one part per system entry.

    https://ai.google.dev/gemini-api/docs/system-instructions
    """
    if not system:
        return None
    return {"parts": [{"text": text} for _, text in system]}


def system_into_first_user(contents: list[Json], system: Json, model: str, warnings: Warnings) -> None:
    """Models that reject ``systemInstruction`` (Gemma: "Developer instruction is not enabled")
    get the system text as the first parts of the first user content, as Google's Gemma
    docs prompt it and the AI SDK does. ``contents`` always opens with a user content."""
    contents[0]["parts"] = [*system["parts"], *contents[0]["parts"]]
    warnings.add(
        None,
        None,
        None,
        Code.SYSTEM_AS_USER,
        f"model '{model}' rejects systemInstruction; system text sent at the start of the first user content",
    )


def function_tool(tools: list[ToolSpec], warnings: Warnings) -> Json:
    """One Tool with every function declaration, parameters as full JSON Schema.

    https://ai.google.dev/api/caching#FunctionDeclaration (``parametersJsonSchema``)
    """
    declarations: list[Json] = []
    for tool in tools:
        if tool.strict:
            warnings.add(
                None,
                None,
                None,
                Code.TOOL_STRICT_NOT_SENT,
                f"tool '{tool.name}' asks for strict schemas; FunctionDeclaration has no strict flag, not sent",
            )
        # Names already follow Gemini's rule: prepare() mapped them (tool-name-mapped).
        declarations.append(
            {"name": tool.name, "description": tool.description, "parametersJsonSchema": tool.parameters}
        )
    return {"functionDeclarations": declarations}


#: Gemini's tool entry for each provider-neutral kind another provider declared
#: (https://ai.google.dev/gemini-api/docs/google-search, code-execution, url-context); they take
#: no options, so domains, limits and location are not sent.
SERVER_TOOL_KEYS = {
    "web_search": "googleSearch",
    "code_execution": "codeExecution",
    "url_context": "urlContext",
    "web_fetch": "urlContext",
}


def server_tool_definition(spec: ServerToolSpec) -> Json | None:
    """Another provider's server tool as Gemini's tool of the same kind, or None."""
    key = SERVER_TOOL_KEYS.get(spec.kind)
    return None if key is None else {key: {}}


def tool_config(choice: ToolChoice | None, allowed: list[str] | None, warnings: Warnings) -> Json | None:
    """``toolConfig.functionCallingConfig``: NONE, ANY, VALIDATED, or ANY limited to one
    ``allowedFunctionNames``; the allowed subset goes with ANY or VALIDATED only ("should only be
    set when the Mode is ANY or VALIDATED").

    https://ai.google.dev/api/caching#FunctionCallingConfig; None (AUTO, the default) sends nothing.
    """
    if isinstance(choice, ForcedTool):
        return {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": [choice.name]}}
    if choice is None or choice == "none":
        if allowed is not None:
            warnings.add(
                None,
                None,
                None,
                Code.CONTROL_NOT_SENT,
                "Gemini takes allowedFunctionNames only with mode ANY or VALIDATED; allowed_tools not sent",
            )
        return None if choice is None else {"functionCallingConfig": {"mode": "NONE"}}
    calling: Json = {"mode": "VALIDATED" if choice == "validated" else "ANY"}
    if allowed is not None:
        calling["allowedFunctionNames"] = list(allowed)
    return {"functionCallingConfig": calling}


def generation_config(params: CallParams, model: str, warnings: Warnings) -> Json:
    """``generationConfig``: maxOutputTokens, temperature, JSON output, thinkingConfig.

    https://ai.google.dev/api/generate-content#generationconfig; structured output as
    ``responseMimeType: application/json`` plus ``responseJsonSchema`` (full JSON Schema, not
    the OpenAPI subset of ``responseSchema``) when a schema is given.
    """
    config: Json = {}
    if params.output_format is not None:
        config["responseMimeType"] = "application/json"
        if params.output_format.json_schema is not None:
            config["responseJsonSchema"] = params.output_format.json_schema
    if params.max_tokens is not None:
        config["maxOutputTokens"] = params.max_tokens
    if params.temperature is not None:
        config["temperature"] = params.temperature
    if params.thinking is not None:
        thinking = thinking_config(params.thinking, model, warnings)
        if thinking:
            config["thinkingConfig"] = thinking
    return config


def thinking_config(thinking: ThinkingParams, model: str, warnings: Warnings) -> Json:
    """``thinkingConfig`` for the model's generation: level (3+), budget (2.5), none (older).

    https://ai.google.dev/gemini-api/docs/thinking#set-budget and #thinking-levels
    """
    version = profile.version(model)
    if version is not None and version < 2.5:
        if thinking.enabled:
            warnings.add(
                None,
                None,
                None,
                Code.THINKING_UNSUPPORTED,
                f"'{model}' does not think; thinking settings not sent",
            )
        return {}
    if not thinking.enabled:
        return thinking_off(model, warnings)
    config: Json = {"includeThoughts": True} if thinking.include_thoughts else {}
    level = (
        fold_effort(thinking.effort, EFFORT_TO_LEVEL, warnings, "gemini")
        if thinking.effort is not None
        else None
    )
    if version is not None and version >= 3 and level is not None:
        config["thinkingLevel"] = level
    elif thinking.budget_tokens is not None:
        config["thinkingBudget"] = thinking.budget_tokens
    elif version is None and level is not None:
        config["thinkingLevel"] = level  # an alias: send what was asked for
    elif thinking.effort is not None:
        warnings.add(
            None,
            None,
            None,
            Code.THINKING_EFFORT_IGNORED,
            f"'{model}' takes a thinking budget, not an effort level; effort '{thinking.effort}' not sent "
            "(the model's dynamic budget applies)",
        )
    return config


def thinking_off(model: str, warnings: Warnings) -> Json:
    """``thinkingBudget: 0`` turns thinking off where the model allows it (2.5 Flash / Flash-Lite)."""
    if not profile.can_disable_thinking(model):
        warnings.add(
            None,
            None,
            None,
            Code.THINKING_CANNOT_DISABLE,
            f"'{model}' cannot turn thinking off; thinking config not sent (model default applies)",
        )
        return {}
    return {"thinkingBudget": 0}
