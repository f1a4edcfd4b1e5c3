"""Scenarios: tool calls and results (parallel, errors, aborts, odd ids, orphans, regressions)."""

# The corpus quotes real model output and tests non-ASCII text on purpose (curly quotes,
# fullwidth punctuation, mathematical letters), so "ambiguous character" warnings are noise here.

from __future__ import annotations

import hashlib

from harness.model import (
    ImageURLPart,
    ToolResultMessage,
)
from harness.params import CallParams, ToolSpec
from harness.scenarios.corpus.common import (
    BASH,
    BLUE_PIXEL_PNG,
    CLAUDE,
    GEMINI_3,
    GEMINI_25,
    GREP,
    READ_FILE,
    STR,
    WRITE_TODOS,
)
from harness.scenarios.dsl import (
    Body,
    assistant,
    call,
    developer,
    result,
    scenario,
    signature,
    tool,
    usage,
    user,
)


@scenario("tools", "tool-single", "tools-given")
def tool_single_call() -> Body:
    """REAL gpt-4o-mini: one tool call with streamed arguments, then its result (the recorded, accepted turn-2 request)."""
    get_capital = call("call_ZR5UUuTt3pf61kjwAJIYdVMj", "get_capital", '{"country":"UK"}')
    params = CallParams(
        model="gpt-4o-mini",
        tools=[
            ToolSpec.model_validate(
                {
                    "name": "get_capital",
                    "parameters": {
                        "additionalProperties": False,
                        "properties": {"country": STR},
                        "required": ["country"],
                        "type": "object",
                    },
                }
            )
        ],
    )
    return params, [
        user("What is the capital of the UK? Use the tool, then answer."),
        assistant(
            get_capital,
            stop="tool_use",
            usage=usage(53, 15, cached=0, reasoning=0),
            response_id="chatcmpl-Dx0XpqH8w09uBXwq1zFGYdETjtnEl",
        ),
        result(get_capital, "London"),
    ]


@scenario("tools", "tool-parallel-in-order", "tools-given", "tool-args-empty-object")
def tool_parallel_results_in_order() -> Body:
    """REAL claude-3-5-haiku: text plus two parallel tool_use blocks, results in call order (the recorded turn-2 request)."""
    first = call("toolu_011ouQLPrqhKSuFJtuJrpaUX", "pelican_name_generator", "{}")
    second = call("toolu_01NtJRxGhJcEQ4axN1FzHayX", "pelican_name_generator", "{}")
    params = CallParams(
        model="claude-3-5-haiku-latest",
        max_tokens=8192,
        temperature=1.0,
        tools=[
            ToolSpec.model_validate(
                {"name": "pelican_name_generator", "parameters": {"properties": {}, "type": "object"}}
            )
        ],
    )
    return params, [
        user("Two names for a pet pelican"),
        assistant(
            "I'll help you generate two potential names for a pet pelican by using the pelican name generator tool.",
            first,
            second,
            stop="tool_use",
            usage=usage(310, 84, cached=0, cache_creation=0),
            response_id="msg_01VXfmBNdfg2rtuVodqnDena",
        ),
        result(first, "Charles"),
        result(second, "Sammy"),
    ]


@scenario("tools", "tool-parallel-out-of-order", "tools-given")
def tool_parallel_results_out_of_order() -> Body:
    """Three parallel calls whose results were recorded in completion order (3, 1, 2): requests must restore call order."""
    a = call("toolu_01Aa1PqR2sT3uV4wX5yZ6bCd", "read_file", {"path": "src/app/server.py"})
    b = call("toolu_01Bb2QrS3tU4vW5xY6zA7cDe", "grep", {"pattern": "timeout=", "path": "src"})
    c = call("toolu_01Cc3RsT4uV5wX6yZ7aB8dEf", "bash", {"command": "git log -1 --format=%h"})
    params = CallParams(model=CLAUDE, max_tokens=8192, tools=[READ_FILE, GREP, BASH])
    return params, [
        user(
            "Why do requests time out after 5 seconds? Check the server, grep for timeouts, and tell me the current commit."
        ),
        assistant(
            "I'll look at all three at once.",
            a,
            b,
            c,
            stop="tool_use",
            usage=usage(2480, 170, cached=0, cache_creation=2304),
            response_id="msg_01Oo4StU5vW6xY7zA8bC9dEf",
        ),
        result(c, "3f9c2ab"),
        result(b, "src/app/server.py:21:    client = Client(timeout=5)\n"),
        result(
            a,
            "from app.http import Client\n\n\ndef make_client() -> Client:\n    client = Client(timeout=5)\n    return client\n",
        ),
    ]


@scenario("tools", "tool-single", "tool-error", "tools-given")
def tool_result_error() -> Body:
    """A tool result with status error (a timeout is an error, not an abort): is_error semantics on every provider."""
    run = call("toolu_01Er1TuV2wX3yZ4aB5cD6eFg", "bash", {"command": "uv run pytest -q"})
    params = CallParams(model=CLAUDE, max_tokens=8192, tools=[BASH])
    return params, [
        user("Run the test suite."),
        assistant(
            "Running the tests.",
            run,
            stop="tool_use",
            usage=usage(1650, 48, cached=1536, cache_creation=0),
            response_id="msg_01Er1xYz2AbC3dEf4GhI5jKl",
        ),
        result(run, "Command timed out after 120 s (exit status 124). Partial output:\n........F", "error"),
    ]


@scenario("tools", "tool-single", "tool-aborted", "interrupt", "tools-given")
def tool_result_aborted() -> Body:
    """A tool result with status aborted (the user pressed Ctrl+C while it ran), followed by a new user message."""
    sync = call("toolu_01Ab1CdE2fG3hI4jK5lM6nOp", "bash", {"command": "uv sync --all-extras"})
    params = CallParams(model=CLAUDE, max_tokens=8192, tools=[BASH])
    return params, [
        user("Install all the dependencies."),
        assistant(
            sync,
            stop="tool_use",
            usage=usage(1702, 39, cached=1536, cache_creation=0),
            response_id="msg_01Ab1qRs2TuV3wXy4ZaB5cDe",
        ),
        result(sync, "Interrupted by user.", "aborted"),
        user("Skip that. Just tell me which packages are outdated."),
    ]


@scenario("tools", "turn-aborted-dangling-call", "interrupt", "tools-given")
def aborted_turn_dangling_tool_call() -> Body:
    """An assistant turn aborted after emitting a tool call that never ran (no result), then a new user message."""
    rm = call("toolu_01Dg1HiJ2kL3mN4oP5qR6sTu", "bash", {"command": "rm -rf build/"})
    params = CallParams(model=CLAUDE, max_tokens=8192, tools=[BASH])
    return params, [
        user("Clean up the build directory."),
        assistant(
            "I'll remove build/.",
            rm,
            stop="aborted",
            usage=usage(1688, 31, cached=1536, cache_creation=0),
            response_id="msg_01Dg1vWx2YzA3bCd4EfG5hIj",
        ),
        user("Wait, don't delete anything. Just list what's in it."),
    ]


@scenario("interrupt", "interrupt-mid-text")
def interrupt_mid_text() -> Body:
    """An assistant answer interrupted mid-text (stop_reason aborted, partial text kept), then a new user message."""
    return CallParams(max_tokens=1024), [
        user("Write a haiku about autumn, then explain its structure."),
        assistant(
            "Crisp leaves drift and fall\nthe maple lets go of red\nquiet",
            stop="aborted",
            usage=usage(24, 14),
        ),
        user("Actually, make it about winter."),
    ]


@scenario("tools", "tool-single", "tool-result-image", "images", "image-data-url", "tools-given")
def tool_result_with_image() -> Body:
    """A tool result with output_text plus an image part (a screenshot): text stays in output_text, the image in parts."""
    shot = call("call_Sc7Rn4Tq1Uv8Wx2Yz5Ab3CdE", "screenshot", {"url": "http://localhost:3000/login"})
    params = CallParams(
        tools=[tool("screenshot", "Capture a PNG screenshot of a web page.", {"url": STR}, ["url"])]
    )
    return params, [
        user("Take a screenshot of the login page and tell me what's off."),
        assistant(shot, stop="tool_use", usage=usage(310, 22)),
        result(
            shot,
            "Captured a 1x1 screenshot of http://localhost:3000/login.",
            images=[ImageURLPart(url=BLUE_PIXEL_PNG)],
        ),
    ]


@scenario(
    "tools", "tool-parallel-in-order", "tool-args-empty-string", "tool-args-empty-object", "tools-given"
)
def tool_call_empty_arguments() -> Body:
    """Two no-argument calls: arguments_json "" (REAL claude-sonnet-4-5 no-args stream, vercel/ai) and "{}"."""
    issues = call("toolu_01QE1WLsSVp5hy5Q3GmGTmjP", "updateIssueList", "")
    now = call("toolu_01Nw2XyZ3aBc4DeF5gHi6JkL", "get_current_time", "{}")
    params = CallParams(
        model=CLAUDE,
        max_tokens=4096,
        tools=[
            tool("updateIssueList", "Refresh the cached issue list.", {}),
            tool("get_current_time", "The current UTC time.", {}),
        ],
    )
    return params, [
        user("Refresh the issue list and tell me the time."),
        assistant(
            "I'll update the issue list for you.",
            issues,
            now,
            stop="tool_use",
            usage=usage(565, 48, cached=0, cache_creation=0),
            response_id="msg_01GE2RKp1VYsPzdFs3sS9z5S",
        ),
        result(issues, "Issue list updated: 3 open issues."),
        result(now, "2025-11-03T09:41:00Z"),
    ]


@scenario("tools", "tool-id-invalid-chars", "tool-parallel-in-order", "tools-given")
def tool_call_id_invalid_characters() -> Body:
    """Kimi-style call ids `functions.write_todos:0` (dot, colon) that Anthropic rejects: mapped consistently in calls and results (lesson 6)."""
    todos = call(
        "functions.write_todos:0",
        "write_todos",
        {"todos": [{"content": "Split parser.py", "status": "in_progress"}]},
    )
    read = call("functions.read_file:1", "read_file", {"path": "src/parser.py"})
    again = call("functions.read_file:2", "read_file", {"path": "tests/test_parser.py"})
    return CallParams(tools=[WRITE_TODOS, READ_FILE]), [
        user("Plan the parser refactor, and look at the parser module first."),
        assistant(
            "Planning, and reading the module.",
            todos,
            read,
            stop="tool_use",
            usage=usage(3120, 88, cached=2816),
        ),
        result(todos, "Todos updated (1 in progress)."),
        result(read, "def parse(text):\n    ...\n"),
        assistant(again, stop="tool_use", usage=usage(3260, 30, cached=3072)),
        result(again, "def test_parse():\n    assert parse('') == []\n"),
    ]


LONG_ID_80 = "call_" + hashlib.sha256(b"long-id").hexdigest() + "_attempt_01"  # 5 + 64 + 11 = 80 characters
ID_64 = "call_" + hashlib.sha256(b"id-64").hexdigest()[:59]  # exactly 64 characters, the Responses limit


@scenario("tools", "tool-id-too-long", "tool-parallel-in-order", "tools-given")
def tool_call_id_too_long() -> Body:
    """An 80-character call id (over the Responses 64 limit) next to one of exactly 64: mapped consistently (lesson 6)."""
    long_call = call(LONG_ID_80, "get_weather", {"city": "Oslo"})
    edge_call = call(ID_64, "get_weather", {"city": "Bergen"})
    params = CallParams(tools=[tool("get_weather", "Current weather for a city.", {"city": STR}, ["city"])])
    return params, [
        user("Weather in Oslo and Bergen?"),
        assistant(long_call, edge_call, stop="tool_use", usage=usage(198, 54)),
        result(long_call, "Oslo: -3 °C, light snow"),
        result(edge_call, "Bergen: 4 °C, rain"),
    ]


@scenario("tools", "tool-result-orphan")
def tool_result_orphan_after_trim() -> Body:
    """History trimming removed the assistant call: the first event is a tool result with no call (lesson 4)."""
    return CallParams(), [
        ToolResultMessage(
            call_id="call_8fKq2Lw9Xz3Rt6Vb1Nm4Pc7D",
            tool_name="grep",
            status="success",
            output_text="src/http.py:40: fetch(url)\nsrc/sync.py:12: fetch(url)\nsrc/cli.py:88: fetch(url)\n",
        ),
        assistant(
            "There are three call sites of fetch(): http.py, sync.py and cli.py.",
            stop="stop",
            usage=usage(4210, 25),
        ),
        user("Update them to pass timeout=30."),
    ]


@scenario("regression", "developer", "tools", "tool-result-orphan")
def regression_developer_on_dropped_result() -> Body:
    """Regression F1: a developer reminder attached to an orphan tool result must still be sent (as a user message)."""
    return CallParams(), [
        ToolResultMessage(
            call_id="trimmed_call", tool_name="read", status="success", output_text="old output"
        ),
        developer("<system-reminder>Reminder: the repo indents with tabs.</system-reminder>"),
        user("Continue with the refactor."),
    ]


@scenario("regression", "tools", "tools-derived")
def regression_gemini3_sentinel_on_earlier_turn() -> Body:
    """Regression F2: an unsigned gemini-3 call in an earlier turn keeps its sentinel signature (prefix stability)."""
    ls = call("call_Ls1Gm3Pr4Ev5Wx6Yz7Ab8CdE", "bash", {"cmd": "ls"})
    return CallParams(model=GEMINI_3), [
        user("List the files."),
        assistant(ls, stop="tool_use", usage=usage(61, 12)),
        result(ls, "a.py\nb.py\n"),
        assistant("There are two files: a.py and b.py.", stop="stop", usage=usage(90, 11)),
        user("Which one is bigger?"),
    ]


@scenario("regression", "tools", "system-in-params")
def regression_nothing_left_to_send() -> Body:
    """Regression F3: a history whose only message is dropped (an orphan result) still renders a valid request."""
    return CallParams(system="You are a coding agent."), [
        ToolResultMessage(call_id="call_gone", tool_name="read", status="success", output_text="stale"),
    ]


@scenario("regression", "thinking")
def regression_google_signature_not_base64() -> Body:
    """Regression F4: a corrupt (non-base64) google signature is dropped with a warning, never sent as bytes."""
    return CallParams(model=GEMINI_25), [
        user("Say hello."),
        assistant("Hello!", signature("=DD6/4A4=CA", "google", GEMINI_25), stop="stop", usage=usage(12, 3)),
        user("Again, in French."),
    ]


GET_WEATHER = tool("get_weather", "Current weather for a city.", {"city": STR}, ["city"])


@scenario("tools", "tools-derived", "tool-parallel-in-order")
def tools_derived_from_history() -> Body:
    """Parallel calls with no tool definitions in params: adapters derive permissive definitions (with a warning)."""
    paris = call("call_Pa1Ri2Sx3Ty4Uz5Va6Wb7XcY", "get_weather", {"city": "Paris"})
    berlin = call("call_Be1Rl2In3Jo4Kp5Lq6Mr7NsT", "get_weather", {"city": "Berlin"})
    return CallParams(), [
        user("What's the weather in Paris and Berlin?"),
        assistant(paris, berlin, stop="tool_use", usage=usage(84, 46)),
        result(paris, "Paris: 12 °C, overcast"),
        result(berlin, "Berlin: 8 °C, clear"),
    ]


@scenario("tools", "tools-derived", "tool-parallel-in-order")
def tools_partially_given() -> Body:
    """params.tools defines get_weather but the history also calls get_time: only the missing one is derived."""
    weather = call("call_Wx1Aa2Bb3Cc4Dd5Ee6Ff7GgH", "get_weather", {"city": "Tokyo"})
    clock = call("call_Tm1Hh2Ii3Jj4Kk5Ll6Mm7NnO", "get_time", {"timezone": "Asia/Tokyo"})
    return CallParams(tools=[GET_WEATHER]), [
        user("Weather and local time in Tokyo?"),
        assistant(weather, clock, stop="tool_use", usage=usage(120, 50)),
        result(weather, "Tokyo: 17 °C, sunny"),
        result(clock, "18:05 JST"),
    ]


@scenario("regression", "tools", "tools-given", "tool-single", "tool-args-empty-object", "images")
def regression_gemini_tool_result_media() -> Body:
    """Regression import-check gemini-tool-result-media: a tool result, then a user message holding the
    file it announced (pydantic-ai's accepted gemini-2.5-flash recording, with its usage; the JPEG swapped
    for a 1x1 PNG, its signature left out). Gemini sends the image in a user content of its own after the functionResponse."""
    get_file = call("pyd_ai_06e57c9a31a1497ba6b3d09531b31256", "get_file", "{}")
    params = CallParams(
        model="gemini-2.5-flash",
        tools=[
            ToolSpec.model_validate(
                {
                    "name": "get_file",
                    "parameters": {"additionalProperties": False, "properties": {}, "type": "object"},
                }
            )
        ],
    )
    return params, [
        user("Use the get_file tool now to retrieve a image file, then describe what you received."),
        assistant(get_file, stop="tool_use", usage=usage(41, 233, reasoning=223)),
        result(get_file, "File attached"),
        user(ImageURLPart(url=BLUE_PIXEL_PNG)),
    ]


@scenario("regression", "tools", "tools-derived", "tool-single", "tool-args-empty-object", "tool-error")
def regression_gemini_undeclared_call() -> Body:
    """Regression import-check gemini-derived-declarations: the model called a tool the request does not
    declare and got an error result (pydantic-ai's accepted gemini-3-flash-preview recording, with its usage;
    signature left out). Gemini declares only the caller's tool; providers that need one still derive it."""
    list_files = call("pyd_ai_8b35fbcc1aaf4fd39eeb8fd392ea6cee", "list_files", "{}")
    params = CallParams(
        model="gemini-3-flash-preview",
        tools=[
            ToolSpec.model_validate(
                {
                    "name": "get_file",
                    "parameters": {"additionalProperties": False, "properties": {}, "type": "object"},
                }
            )
        ],
    )
    return params, [
        user("Use the get_file tool now to retrieve a image file, then describe what you received."),
        assistant(list_files, stop="tool_use", usage=usage(36, 221, reasoning=211)),
        result(
            list_files,
            "Unknown tool name: 'list_files'. Available tools: 'get_file'\n\nFix the errors and try again.",
            status="error",
        ),
    ]
