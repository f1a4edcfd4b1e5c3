"""harness: conformance and golden tests for LLM message/provider mapping.

What an adopter needs is importable from here, httpx-style; everything else is private
by module. Names load on first use (PEP 562), so ``import harness`` stays cheap for the
CLI and for a target's own package.

    from harness import AssistantMessage, CallParams, get_target, run_invariants
    report = run_invariants(history, CallParams(model="claude-sonnet-4-5"), target=get_target("my-cli"))
    model = params.model or default_model("anthropic")   # the model the reference sends by default
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harness import kit, strategies
    from harness.codec import HistoryError, dumps_history, load_history, loads_history
    from harness.contract.channels import WARNING_CHANNELS
    from harness.contract.chunking import Chunking
    from harness.contract.exchange import Exchange
    from harness.contract.kinds import KINDS, Kind
    from harness.contract.rendered import Rendered, RenderWarning
    from harness.contract.results import CallResult, StreamItem, TextDelta, ThinkingDelta, ToolCallStart
    from harness.contract.target import Target, TargetError, TargetRefusal
    from harness.invariants import INVARIANTS, CheckReport, Invariant, Violation, run_invariants
    from harness.model import (
        AnyPart,
        AssistantMessage,
        DeveloperMessage,
        ErrorEvent,
        HistoryEvent,
        ImageFilePart,
        ImageURLPart,
        Message,
        StopReason,
        SystemMessage,
        TaskMetadataEvent,
        TextPart,
        ThinkingSignaturePart,
        ThinkingTextPart,
        ToolCallPart,
        ToolResultMessage,
        ToolStatus,
        Usage,
        UserMessage,
    )
    from harness.oracles import validate
    from harness.params import CallParams, ThinkingParams, ToolSpec
    from harness.providers import default_model
    from harness.rules import check_body
    from harness.scenarios import Scenario, get_scenario, load_scenarios
    from harness.targets import available_targets, get_target

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    **dict.fromkeys(
        (
            "AnyPart",
            "AssistantMessage",
            "DeveloperMessage",
            "ErrorEvent",
            "HistoryEvent",
            "ImageFilePart",
            "ImageURLPart",
            "Message",
            "StopReason",
            "SystemMessage",
            "TaskMetadataEvent",
            "TextPart",
            "ThinkingSignaturePart",
            "ThinkingTextPart",
            "ToolCallPart",
            "ToolResultMessage",
            "ToolStatus",
            "Usage",
            "UserMessage",
        ),
        "harness.model",
    ),
    **dict.fromkeys(("CallParams", "ThinkingParams", "ToolSpec"), "harness.params"),
    **dict.fromkeys(("HistoryError", "dumps_history", "load_history", "loads_history"), "harness.codec"),
    **dict.fromkeys(("KINDS", "Kind"), "harness.contract.kinds"),
    **dict.fromkeys(("RenderWarning", "Rendered"), "harness.contract.rendered"),
    **dict.fromkeys(
        ("CallResult", "StreamItem", "TextDelta", "ThinkingDelta", "ToolCallStart"),
        "harness.contract.results",
    ),
    "Exchange": "harness.contract.exchange",
    "Chunking": "harness.contract.chunking",
    "WARNING_CHANNELS": "harness.contract.channels",
    **dict.fromkeys(("Target", "TargetError", "TargetRefusal"), "harness.contract.target"),
    **dict.fromkeys(("available_targets", "get_target"), "harness.targets"),
    **dict.fromkeys(
        ("INVARIANTS", "CheckReport", "Invariant", "Violation", "run_invariants"), "harness.invariants"
    ),
    **dict.fromkeys(("Scenario", "get_scenario", "load_scenarios"), "harness.scenarios"),
    "validate": "harness.oracles",
    "default_model": "harness.providers",
    "check_body": "harness.rules",
}
#: Submodules that are part of the public surface (``harness.kit``: the target kit, docs/writing-a-target.md).
_MODULES = ("kit", "strategies")
#: The declared surface for adopters, in one place: module -> the names an adopter's code may
#: import from it (``None``: the module's own ``__all__``), listed with their documentation in
#: docs/api.md (``python -m tools.api_docs``). Everything else is internal and may move
#: (tests/test_public_api.py holds ``examples/`` to this). ``harness.testing`` is the suite
#: to subclass; a target without a stream parser of its own declares it (``lacks`` ``parser``,
#: examples/adopter) and its output checks are reported as not run.
_SURFACE: dict[str, tuple[str, ...] | None] = {
    "harness": None,
    "harness.kit": None,
    "harness.kit.shapes": None,
    "harness.strategies": None,
    "harness.invariants": None,
    "harness.targets": None,
    "harness.testing": ("TargetConformance", "register_profiles"),
}

__all__ = [
    "INVARIANTS",
    "KINDS",
    "WARNING_CHANNELS",
    "AnyPart",
    "AssistantMessage",
    "CallParams",
    "CallResult",
    "CheckReport",
    "Chunking",
    "DeveloperMessage",
    "ErrorEvent",
    "Exchange",
    "HistoryError",
    "HistoryEvent",
    "ImageFilePart",
    "ImageURLPart",
    "Invariant",
    "Kind",
    "Message",
    "RenderWarning",
    "Rendered",
    "Scenario",
    "StopReason",
    "StreamItem",
    "SystemMessage",
    "Target",
    "TargetError",
    "TargetRefusal",
    "TaskMetadataEvent",
    "TextDelta",
    "TextPart",
    "ThinkingDelta",
    "ThinkingParams",
    "ThinkingSignaturePart",
    "ThinkingTextPart",
    "ToolCallPart",
    "ToolCallStart",
    "ToolResultMessage",
    "ToolSpec",
    "ToolStatus",
    "Usage",
    "UserMessage",
    "Violation",
    "available_targets",
    "check_body",
    "default_model",
    "dumps_history",
    "get_scenario",
    "get_target",
    "kit",
    "load_history",
    "load_scenarios",
    "loads_history",
    "run_invariants",
    "strategies",
    "validate",
]


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        return import_module(f"harness.{name}")
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'harness' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # resolve once
    return value


def __dir__() -> list[str]:
    return __all__
