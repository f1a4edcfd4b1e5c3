"""Scenarios: histories shaped like rejections real users reported (docs/field-rules.md)."""

# The corpus quotes real model output and tests non-ASCII text on purpose (curly quotes,
# fullwidth punctuation, mathematical letters), so "ambiguous character" warnings are noise here.

from __future__ import annotations

from harness.model import (
    AssistantMessage,
    ImageURLPart,
    StopReason,
)
from harness.params import CallParams, ThinkingParams
from harness.scenarios.corpus.common import (
    BASH,
    GEMINI_3,
    READ_FILE,
    RED_PIXEL_PNG,
    STR,
)
from harness.scenarios.dsl import (
    AssistantPart,
    Body,
    assistant,
    call,
    fake_encrypted,
    fake_id,
    result,
    scenario,
    signature,
    t,
    thinking,
    tool,
    usage,
    user,
)

# Histories shaped like failures real users of multi-provider libraries reported; the
# values are written here (synthetic), the shapes follow the cited reports.

MCP_CREATE_ISSUE = tool(
    "github.create_issue",
    "Create a GitHub issue (an MCP server tool).",
    {"title": STR, "body": STR},
    ["title"],
)
MCP_GET_FILE = tool(
    "Github Get File", "Read a file from a GitHub repository (an MCP tool).", {"path": STR}, ["path"]
)
MCP_PLUGIN_LONG = tool(
    "mcp__plugin_workspace-indexer_semantic-code-search__search_repository_symbols",
    "Search indexed repository symbols (a 77-character MCP plugin tool name).",
    {"query": STR},
    ["query"],
)


@scenario("tools", "tools-given", "tool-parallel-in-order", "field-report")
def field_tool_names_mcp() -> Body:
    """MCP tool names no provider rule admits (a dot, spaces, 77 characters): mapped reversibly in declarations, calls and results."""
    create = call("call_mcp_1", MCP_CREATE_ISSUE.name, {"title": "Crash on start"})
    search = call("call_mcp_2", MCP_PLUGIN_LONG.name, {"query": "startup"})
    params = CallParams(max_tokens=1024, tools=[MCP_CREATE_ISSUE, MCP_GET_FILE, MCP_PLUGIN_LONG])
    return params, [
        user("File an issue about the crash on start, and find the startup code."),
        assistant(create, search, stop="tool_use", usage=usage(310, 42)),
        result(create, '{"number": 812}'),
        result(search, "src/app/startup.py:12 def start()"),
        assistant(
            "Filed #812; the startup code is in src/app/startup.py.", stop="stop", usage=usage(402, 19)
        ),
        user("Thanks. Now read that file."),
    ]


@scenario("tools", "tools-given", "tool-single", "tool-id-reused", "field-report")
def field_tool_ids_reused_across_turns() -> Body:
    """A backend that numbers tool calls call_0 every turn: the same id in two responses (Anthropic: "tool_use ids must be unique")."""
    first = call("call_0", "read_file", {"path": "a.txt"})
    second = call("call_0", "read_file", {"path": "b.txt"})
    return CallParams(max_tokens=1024, tools=[READ_FILE]), [
        user("Read a.txt and then b.txt."),
        assistant(first, stop="tool_use", usage=usage(120, 18)),
        result(first, "alpha"),
        assistant(second, stop="tool_use", usage=usage(150, 18)),
        result(second, "beta"),
        user("Which one is longer?"),
    ]


@scenario("tools", "tools-given", "tool-error", "tool-parallel-in-order", "field-report")
def field_tool_error_empty_output() -> Body:
    """Error tool results with empty and whitespace-only output (Anthropic: "content cannot be empty if is_error is true")."""
    a = call("call_err_1", "bash", {"command": "false"})
    b = call("call_err_2", "bash", {"command": "exit 3"})
    return CallParams(max_tokens=1024, tools=[BASH]), [
        user("Run both checks."),
        assistant(a, b, stop="tool_use", usage=usage(200, 30)),
        result(a, "", "error"),
        result(b, "  \n", "error"),
        user("Why did they fail?"),
    ]


def _piece(*parts: AssistantPart, stop: StopReason) -> AssistantMessage:
    """One content block of a response stored as its own assistant message (seed 001)."""
    return AssistantMessage(
        parts=list(parts),
        stop_reason=stop,
        usage=usage(540, 61),
        id="msg_01PerBlockPiecesShareOneId",
        response_id="msg_01PerBlockPiecesShareOneId",
    )


@scenario("tools", "tools-given", "field-report")
def field_response_split_per_block() -> Body:
    """One response stored as three assistant messages (text, call A, call B; one id, seed 001), then both results: A's real result must not become "not executed"."""
    a = call("toolu_01PieceCallA000000000000", "read_file", {"path": "README.md"})
    b = call("toolu_01PieceCallB000000000000", "read_file", {"path": "setup.cfg"})
    return CallParams(max_tokens=1024, tools=[READ_FILE]), [
        user("Compare README.md and setup.cfg."),
        # Claude Code leaves stop_reason null on all but the last piece; the canonical model
        # needs one per message, so each piece states what it ends in.
        _piece(t("I'll read both files."), stop="stop"),
        _piece(a, stop="tool_use"),
        _piece(b, stop="tool_use"),
        result(a, "# Project\nA tool."),
        result(b, "[metadata]\nname = project"),
        user("Do the names agree?"),
    ]


@scenario("thinking", "signature-openai-responses", "interrupt", "field-report")
def field_reasoning_interrupted() -> Body:
    """A Responses turn interrupted right after its reasoning item (nothing follows it), then a new user message."""
    rs_id = fake_id("rs_", "field-reasoning-interrupted", 50)
    return CallParams(model="gpt-5", max_tokens=2048, thinking=ThinkingParams(enabled=True, effort="low")), [
        user("Plan a three-day trip to Lisbon."),
        assistant(
            thinking("**Planning the itinerary**", "gpt-5", id=rs_id),
            signature(fake_encrypted("field-reasoning-interrupted"), "openai-responses", "gpt-5", id=rs_id),
            stop="aborted",
            usage=usage(40, 96, reasoning=96),
        ),
        user("Make it two days instead."),
    ]


@scenario("thinking", "signature-openai-responses", "tools", "tools-given", "field-report")
def field_reasoning_without_item_id() -> Body:
    """Responses reasoning kept from a client that stores no item ids (none, or a proxy's non-rs_ id): sent with its encrypted content and without id."""
    # openai/codex never serialises the id of its Reasoning and Message items and replays
    # every reasoning item with its encrypted_content (codex-rs/protocol/src/models.rs); a
    # proxy may hand out ids of its own. Issue 24: such reasoning is sent, only its id is not.
    seed = "field-reasoning-without-item-id"
    ls = call(fake_id("call_", seed, 30), "bash", {"command": "ls"}, fake_id("fc_", seed, 50))
    params = CallParams(
        model="gpt-5", max_tokens=2048, thinking=ThinkingParams(enabled=True, effort="low"), tools=[BASH]
    )
    return params, [
        user("Which files are in the workspace?"),
        assistant(
            thinking("**Listing the files**", "gpt-5"),
            signature(fake_encrypted(seed + "-1"), "openai-responses", "gpt-5"),
            ls,
            stop="tool_use",
            usage=usage(60, 40, reasoning=24),
        ),
        result(ls, "README.md\nsrc"),
        assistant(
            thinking("**Summing up**", "gpt-5", id="reasoning_1"),
            signature(fake_encrypted(seed + "-2"), "openai-responses", "gpt-5", id="reasoning_1"),
            "There are two entries: README.md and src.",
            stop="stop",
            usage=usage(120, 30, reasoning=12),
        ),
        user("Thanks."),
    ]


# A synthetic 8x8 mid-gray baseline JPEG (159 bytes, written by hand: one DC-only block),
# labelled with the non-standard ``image/jpg``: the bytes are JPEG, only the label is off.
JPG_LABELLED_JPEG = (
    "data:image/jpg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEB"
    "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQH/wAALCAAIAAgBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAAAP/EABQQAQAAAAAA"
    "AAAAAAAAAAAAAAD/2gAIAQEAAD8AP//Z"
)


@scenario("images", "field-report")
def field_media_type_jpg() -> Body:
    """A base64 image labelled image/jpg (Gemini: "Unsupported MIME type: image/jpg"): sent with the standard label."""
    return CallParams(max_tokens=512), [
        user("What shade of gray is this image?", ImageURLPart(url=JPG_LABELLED_JPEG)),
    ]


@scenario("plain", "plain-single-turn", "system-in-params", "field-report")
def field_gemma_system() -> Body:
    """Gemma on the Gemini API rejects systemInstruction: the system text travels in the first user turn."""
    return CallParams(model="gemma-3-27b-it", max_tokens=256, system="Answer in one word."), [
        user("What is the capital of Portugal?"),
    ]


@scenario(
    "tools", "tools-given", "tool-single", "tool-result-image", "images", "image-data-url", "field-report"
)
def field_gemini3_tool_image() -> Body:
    """A screenshot tool result on Gemini 3: the image goes inside functionResponse.parts (multimodal function responses)."""
    shot = call("call_shot_1", "screenshot", {})
    screenshot = tool("screenshot", "Capture the screen as a PNG.", {})
    return CallParams(model=GEMINI_3, max_tokens=1024, tools=[screenshot]), [
        user("Take a screenshot and tell me what you see."),
        assistant(shot, stop="tool_use", usage=usage(90, 12)),
        result(shot, "captured 1x1", images=[ImageURLPart(url=RED_PIXEL_PNG)]),
    ]


@scenario("tools", "tools-given", "tool-single", "field-report")
def field_result_after_text() -> Body:
    """A tool call, then an assistant text turn (another response), then the call's real result: sent right after its call, never replaced by a "not executed" error."""
    run = call("call_run_tests_1", "bash", {"command": "pytest -q"})
    return CallParams(max_tokens=1024, tools=[BASH]), [
        user("Run the test suite and tell me whether it passes."),
        assistant(run, stop="tool_use", usage=usage(120, 18)),
        # A UI that persists a progress note as its own assistant turn (litellm and LangChain
        # keep the real result in this shape).
        assistant("The tests are running; this can take a minute.", stop="stop", usage=usage(150, 12)),
        result(run, "42 passed in 3.1s"),
        user("Did they pass?"),
    ]
