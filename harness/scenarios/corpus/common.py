"""Shared vocabulary of the corpus: model ids, tiny images and the tool specs several topics use."""

from __future__ import annotations

from harness.scenarios.dsl import tool

STR: dict[str, object] = {"type": "string"}

# A valid 1x1 red PNG (69 bytes) and a 1x1 blue one, as data URLs.
RED_PIXEL_PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mP4z8AAAAMBAQD3A0FDAAAAAElFTkSuQmCC"
BLUE_PIXEL_PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR42mNgYPgPAAEDAQA2dBFAAAAAAElFTkSuQmCC"
HTTP_IMAGE_URL = "https://upload.wikimedia.org/wikipedia/commons/4/47/PNG_transparency_demonstration_1.png"

CLAUDE = "claude-sonnet-4-5-20250929"
CLAUDE_4 = "claude-sonnet-4-20250514"
CLAUDE_37 = "claude-3-7-sonnet-20250219"
CODEX = "gpt-5.1-codex-max"
GPT55 = "gpt-5.5-2026-04-23"
GEMINI_25 = "gemini-2.5-pro"
GEMINI_3 = "gemini-3-pro-preview"
OR_CLAUDE = "anthropic/claude-sonnet-4.5"
OR_O3 = "openai/o3"

READ_FILE = tool("read_file", "Read a UTF-8 text file from the workspace.", {"path": STR}, ["path"])
GREP = tool("grep", "Search files for a regular expression.", {"pattern": STR, "path": STR}, ["pattern"])
BASH = tool(
    "bash", "Run a shell command in the workspace and return its output.", {"command": STR}, ["command"]
)
WRITE_TODOS = tool(
    "write_todos",
    "Replace the task list.",
    {"todos": {"type": "array", "items": {"type": "object", "properties": {"content": STR, "status": STR}}}},
    ["todos"],
)
