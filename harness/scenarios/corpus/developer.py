"""Scenarios: developer messages (degraded onto the preceding user or tool message)."""

# The corpus quotes real model output and tests non-ASCII text on purpose (curly quotes,
# fullwidth punctuation, mathematical letters), so "ambiguous character" warnings are noise here.

from __future__ import annotations

from harness.model import (
    ImageURLPart,
)
from harness.params import CallParams
from harness.scenarios.corpus.common import (
    RED_PIXEL_PNG,
)
from harness.scenarios.dsl import (
    Body,
    assistant,
    call,
    developer,
    result,
    scenario,
    usage,
    user,
)


@scenario("developer", "developer-after-user")
def developer_after_user() -> Body:
    """A developer reminder right after a user message: appended to that user message with a trailing newline."""
    return CallParams(), [
        user("Rename the function `parse` to `parse_config` everywhere."),
        developer(
            "<system-reminder>Plan mode is on: describe the changes and wait for approval before editing.</system-reminder>"
        ),
    ]


@scenario("developer", "developer-after-tool", "tools", "tool-single", "tools-derived")
def developer_after_tool_result() -> Body:
    """A developer reminder right after a tool result: appended to the tool result, never a message of its own."""
    read = call("toolu_01Hq3fZ8kWv2NcRtY6bLmPjA", "read_file", {"path": "pyproject.toml"})
    return CallParams(), [
        user("Which Python versions does this project support?"),
        assistant(read, stop="tool_use", usage=usage(1320, 52)),
        result(read, '[project]\nname = "weatherly"\nrequires-python = ">=3.11"\n'),
        developer(
            "<system-reminder>README.md was modified by the user while you were working.</system-reminder>"
        ),
    ]


@scenario("developer", "developer-after-user", "developer-image", "images", "image-data-url")
def developer_with_image() -> Body:
    """A developer message carrying text and a PNG data URL (a harness screenshot) after a user message."""
    return CallParams(), [
        user("Why does the login button look wrong?"),
        developer(
            "<system-reminder>Screenshot of the current browser tab, captured by the harness:</system-reminder>",
            ImageURLPart(url=RED_PIXEL_PNG),
        ),
    ]


@scenario("developer", "developer-at-start")
def developer_at_start() -> Body:
    """A developer message opening the history (nothing to attach to): sent as a user message, then a real user message."""
    return CallParams(), [
        developer(
            "<system-reminder>Project memory (AGENTS.md): use uv for everything; run the tests before committing.</system-reminder>"
        ),
        user("Add a --verbose flag to the CLI."),
    ]


@scenario("developer", "developer-after-assistant", "plain-multi-turn")
def developer_after_assistant() -> Body:
    """A developer message right after an assistant message: becomes a user message at its own position, next to a user message."""
    return CallParams(), [
        user("Is the build on main green?"),
        assistant("Yes: the last CI run on main passed all 412 tests.", stop="stop", usage=usage(2210, 17)),
        developer(
            "<system-reminder>Context window is 82% full; consider summarizing older turns.</system-reminder>"
        ),
        user("Good. Let's start on the release notes."),
    ]


@scenario("developer", "developer-after-user", "developer-ui-fields")
def developer_ui_only_fields() -> Body:
    """Developer messages with command_output, at_files and ui_extra: only their parts may reach a provider."""
    return CallParams(), [
        user("@src/app.py what does main() do? Also, is my tree clean?"),
        developer(
            "<system-reminder>Contents of src/app.py:\n```python\ndef main() -> None:\n    serve(port=8080)\n```\n</system-reminder>",
            at_files=["src/app.py"],
            ui_extra={"kind": "at_file", "collapsed": True, "line_count": 2},
        ),
        developer(
            "<system-reminder>The user ran `git status`; its output was shown to them.</system-reminder>",
            command_output="UI-ONLY: On branch main\nYour branch is up to date with 'origin/main'.\nnothing to commit, working tree clean",
            ui_extra={"kind": "bash_command", "command": "git status", "exit_code": 0},
        ),
    ]
