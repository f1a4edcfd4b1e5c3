"""The scenario corpus, one module per topic; importing this package registers every scenario.

Scenario functions register themselves through ``harness.scenarios.dsl.scenario``;
``harness.scenarios.build`` writes them out as ``data/<name>.jsonl`` and ``catalog.json``.
"""

from __future__ import annotations

from collections.abc import Callable

from harness.scenarios.corpus import (
    controls,
    developer,
    field_reports,
    files,
    plain,
    server_tools,
    system_events,
    thinking_native,
    thinking_structure,
    tool_availability,
    tools,
)
from harness.scenarios.dsl import Body, registered

__all__ = [
    "controls",
    "developer",
    "field_reports",
    "files",
    "plain",
    "scenario_builders",
    "server_tools",
    "system_events",
    "thinking_native",
    "thinking_structure",
    "tool_availability",
    "tools",
]


def scenario_builders() -> list[tuple[Callable[[], Body], tuple[str, ...]]]:
    """Every scenario function of the corpus with its sorted tags (the topic modules are imported above)."""
    return registered()
