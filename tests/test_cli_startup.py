"""The command line starts cheaply: each command imports its machinery only when it runs.

Guarded by the modules a start loads, never by a timing (timings belong in the closing note:
the machine is shared). Each case runs in a fresh interpreter and lists ``sys.modules``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

#: Third-party packages no command needs just to start: the models, property testing, the
#: oracles, HTTP, YAML, Rich's help rendering.
HEAVY = ("hypothesis", "jsonschema_rs", "httpx", "orjson", "pydantic", "rich", "vcr", "yaml", "markdown_it")

#: The harness modules that define the commands' options (light by design) and the contract bits
#: their help text names. Anything else loaded at start is machinery that belongs inside a command.
COMMAND_DEFINITIONS = {
    "harness",
    "harness.audit",
    "harness.audit.command",
    "harness.audit.compare_command",
    "harness.audit.model",
    "harness.cli",
    "harness.cli.main",
    "harness.cli.style",
    "harness.contract",
    "harness.contract.accepted",
    "harness.contract.kinds",
    "harness.contract.providers",
    "harness.cli.import_request",
    "harness.record",
    "harness.record.commands",
    "harness.traffic",
    "harness.traffic.audit_command",
}

_RUN = """
import json, sys
from harness.cli.main import app
try:
    app({args!r}, prog_name="harness")
except SystemExit:
    pass
sys.stderr.write("\\n@@" + json.dumps(sorted(sys.modules)))
"""


def _loaded(args: list[str] | None) -> set[str]:
    code = (
        "import json, sys, harness.cli; print(json.dumps(sorted(sys.modules)))"
        if args is None
        else _RUN.format(args=args)
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    text = done.stdout if args is None else done.stderr.rsplit("@@", 1)[-1]
    return set(json.loads(text))


def _heavy(modules: set[str], *, command: bool = False) -> list[str]:
    """Heavy modules loaded; a command's own start may load pydantic: Typer (0.29) coerces every
    command's parameters with pydantic ``TypeAdapter``s (``typer._adapters``), the harness cannot avoid it."""
    allowed = {"pydantic"} if command else set[str]()
    return sorted(m for m in modules if m.split(".")[0] in set(HEAVY) - allowed)


@pytest.mark.parametrize("args", [None, ["--version"], ["--help"], ["render", "--help"]])
def test_starting_the_cli_loads_only_the_command_definitions(args: list[str] | None) -> None:
    modules = _loaded(args)
    assert _heavy(modules, command=bool(args) and args[0] == "render") == []
    ours = {m for m in modules if m.split(".")[0] == "harness"}
    assert ours <= COMMAND_DEFINITIONS, sorted(ours - COMMAND_DEFINITIONS)
    assert "harness.cli" in ours  # the check sees what was imported


def test_render_loads_the_one_adapter_and_no_judge(tmp_path: Path) -> None:
    from harness.codec import dumps_history
    from harness.scenarios import get_scenario

    history = tmp_path / "h.jsonl"
    history.write_text(dumps_history(get_scenario("plain_single_turn").history), encoding="utf-8")
    modules = _loaded(["render", str(history), "--provider", "anthropic"])
    assert "harness.providers.anthropic.request" in modules
    judges = (
        "harness.oracles",
        "harness.invariants",
        "harness.audit.run",
        "harness.rules",
        "harness.strategies",
    )
    assert sorted(m for m in modules if m.startswith(judges)) == []
    assert not [m for m in modules if m.startswith("harness.providers.") and ".anthropic" not in m]
    assert "harness.providers.replay" not in modules and "yaml" not in modules  # rendering reads no recording
    assert [
        m for m in _heavy(modules) if m.split(".")[0] in ("hypothesis", "jsonschema_rs", "rich", "httpx")
    ] == []
