"""Every command's --help names values as Unix tools do: no type labels, no braces, flags bare."""

from __future__ import annotations

import re
from typing import Any

import pytest
from typer.main import get_command
from typer.testing import CliRunner

from harness.cli.main import app

_GROUP: Any = get_command(app)
COMMANDS: list[str] = sorted(str(name) for name in _GROUP.commands)


@pytest.mark.parametrize("command", COMMANDS)
def test_help_reads_cleanly(command: str) -> None:
    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    assert not re.search(r"<(bool|str|int|path|list\[[^\]]*\])>", result.output), result.output
    usage = next(line for line in result.output.splitlines() if "Usage:" in line)
    assert "{" not in usage, usage


def test_version() -> None:
    from importlib.metadata import version

    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    # the distribution's name, not the import package's
    assert result.output == f"harness {version('llm-wire-harness')}\n"


def test_docs_cli_md_is_generated_from_the_cli() -> None:
    from pathlib import Path

    from tools.cli_docs import render

    committed = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    assert committed == render(), "docs/cli.md is stale: uv run python -m tools.cli_docs docs/cli.md"
