"""Scenarios: system prompts, non-message events and a long agent loop."""

# The corpus quotes real model output and tests non-ASCII text on purpose (curly quotes,
# fullwidth punctuation, mathematical letters), so "ambiguous character" warnings are noise here.

from __future__ import annotations

from harness.model import (
    AssistantMessage,
    ErrorEvent,
    StopReason,
    TaskMetadataEvent,
    ThinkingSignaturePart,
    ThinkingTextPart,
)
from harness.params import CallParams, ThinkingParams
from harness.scenarios.corpus.common import (
    BASH,
    CLAUDE,
    GREP,
    READ_FILE,
    STR,
    WRITE_TODOS,
)
from harness.scenarios.dsl import (
    AssistantPart,
    Body,
    assistant,
    at,
    call,
    developer,
    fake_id,
    fake_signature,
    result,
    scenario,
    signature,
    system,
    thinking,
    tool,
    usage,
    user,
)


@scenario("system-in-history", "system-mid-history", "plain", "plain-multi-turn")
def system_messages_in_history() -> Body:
    """A system message at the start and a second one mid-history: the system prompt is sent exactly once, in order."""
    return CallParams(), [
        system("You are Weatherly's support assistant. Answer in English."),
        user("My dashboard shows no data since this morning."),
        assistant("Sorry about that. Which city is your dashboard set to?", stop="stop", usage=usage(38, 13)),
        system("The session switched to plan mode: propose steps, do not change the user's settings."),
        user("Amsterdam."),
    ]


@scenario("event-error", "event-task-metadata", "plain", "plain-multi-turn")
def history_with_error_and_task_metadata_events() -> Body:
    """Error and task_metadata events between messages, and a failed partial turn (stop_reason error) retried: events are never sent."""
    return CallParams(model=CLAUDE, max_tokens=4096), [
        user("Summarize the changes in CHANGELOG.md since 2.0.", created_at=at(0)),
        assistant(
            "Since 2.0 the main changes are",
            stop="error",
            usage=usage(3050, 7, cached=0, cache_creation=0),
            response_id="msg_01Ev1AbC2dEf3GhI4jKl5MnO",
            created_at=at(0, 4),
        ),
        ErrorEvent(
            error_message="stream ended before message_stop: overloaded_error: Overloaded",
            created_at=at(0, 4),
            response_id="msg_01Ev1AbC2dEf3GhI4jKl5MnO",
            can_retry=True,
        ),
        assistant(
            "Since 2.0: async client support (2.1), Python 3.13 wheels (2.2) and the removal of the legacy v1 API (2.3).",
            stop="stop",
            usage=usage(3050, 41, cached=0, cache_creation=3050),
            response_id="msg_01Ev2PqR3sTu4VwX5yZa6BcD",
            created_at=at(0, 11),
        ),
        TaskMetadataEvent(
            created_at=at(0, 12),
            metadata={
                "model": CLAUDE,
                "turns": 2,
                "duration_ms": 11840,
                "usage": {"input_tokens": 6100, "output_tokens": 48},
                "retries": 1,
            },
        ),
        user("Thanks. Now draft the release announcement.", created_at=at(2)),
    ]


EDIT_FILE = tool(
    "edit_file",
    "Replace one exact string in a file.",
    {"path": STR, "old": STR, "new": STR},
    ["path", "old", "new"],
)


@scenario(
    "agent-loop-long",
    "thinking",
    "signature-anthropic",
    "tools",
    "tools-given",
    "tool-single",
    "tool-parallel-in-order",
    "developer",
    "developer-after-tool",
    "system-in-params",
)
def agent_loop_long() -> Body:
    """A 13-turn claude-sonnet-4-5 agent loop: thinking + tool calls, developer reminders, two final answers; usage on every turn."""
    n = 0

    def think(text: str) -> tuple[ThinkingTextPart, ThinkingSignaturePart]:
        nonlocal n
        n += 1
        return thinking(text, CLAUDE), signature(fake_signature(f"loop-{n}"), "anthropic", CLAUDE)

    def turn(
        minute: int,
        *parts: str | AssistantPart,
        stop: StopReason,
        inp: int,
        out: int,
        reasoning: int,
        cached: int,
    ) -> AssistantMessage:
        return assistant(
            *parts,
            stop=stop,
            usage=usage(inp, out, cached=cached, cache_creation=inp - cached, reasoning=reasoning),
            response_id=fake_id("msg_01", f"loop-{minute}", 28),
            created_at=at(minute, 30),
        )

    repro = call(
        "toolu_01Lp01ReproAa1Bb2Cc3Dd4Ee", "bash", {"command": "uv run pytest tests/test_dates.py -x -q"}
    )
    read_src = call("toolu_01Lp02ReadSrcFf5Gg6Hh7Ii8", "read_file", {"path": "src/dates.py"})
    plan = call(
        "toolu_01Lp03TodosJj9Kk0Ll1Mm2Nn",
        "write_todos",
        {
            "todos": [
                {"content": "Make parse_dates timezone-aware", "status": "in_progress"},
                {"content": "Run the full suite", "status": "pending"},
            ]
        },
    )
    read_test = call("toolu_01Lp04ReadTestOo3Pp4Qq5R", "read_file", {"path": "tests/test_dates.py"})
    grep_ci = call("toolu_01Lp05GrepCiSs6Tt7Uu8Vv9", "grep", {"pattern": "TZ", "path": ".github/workflows"})
    edit = call(
        "toolu_01Lp06EditWw0Xx1Yy2Zz3Aa4",
        "edit_file",
        {
            "path": "src/dates.py",
            "old": "datetime.fromtimestamp(ts)",
            "new": "datetime.fromtimestamp(ts, tz=UTC)",
        },
    )
    rerun = call(
        "toolu_01Lp07RerunBb5Cc6Dd7Ee8F",
        "bash",
        {"command": "TZ=Europe/Amsterdam uv run pytest tests/test_dates.py -q"},
    )
    suite = call("toolu_01Lp08SuiteGg9Hh0Ii1Jj2K", "bash", {"command": "uv run pytest -q"})
    done = call(
        "toolu_01Lp09DoneLl3Mm4Nn5Oo6Pp",
        "write_todos",
        {
            "todos": [
                {"content": "Make parse_dates timezone-aware", "status": "completed"},
                {"content": "Run the full suite", "status": "completed"},
            ]
        },
    )
    read_log = call("toolu_01Lp10ChangelogQq7Rr8Ss9", "read_file", {"path": "CHANGELOG.md"})
    edit_log = call(
        "toolu_01Lp11EditLogTt0Uu1Vv2Ww",
        "edit_file",
        {
            "path": "CHANGELOG.md",
            "old": "## Unreleased\n",
            "new": "## Unreleased\n\n- Fix `parse_dates` returning local time instead of UTC.\n",
        },
    )
    diff = call("toolu_01Lp12DiffXx3Yy4Zz5Aa6Bb", "bash", {"command": "git diff --stat"})
    params = CallParams(
        model=CLAUDE,
        system="You are a coding agent working in the user's repository. Use the tools; keep the user informed briefly.",
        max_tokens=16000,
        thinking=ThinkingParams(budget_tokens=4096),
        tools=[BASH, READ_FILE, GREP, EDIT_FILE, WRITE_TODOS],
    )
    return params, [
        user(
            "test_parse_dates fails on CI but passes on my machine. Find out why and fix it.",
            created_at=at(0),
        ),
        turn(
            0,
            *think(
                "A test that passes locally but fails on CI smells like timezone dependence. Reproduce first."
            ),
            "I'll reproduce the failure first.",
            repro,
            stop="tool_use",
            inp=4120,
            out=96,
            reasoning=31,
            cached=0,
        ),
        result(
            repro,
            "F\n_____ test_parse_dates _____\nE   AssertionError: assert datetime(2025, 3, 30, 3, 30) == datetime(2025, 3, 30, 1, 30, tzinfo=UTC)\n1 failed in 0.21s",
            created_at=at(1),
        ),
        turn(
            1,
            *think(
                "The expected value is UTC but the result is naive local time. Look at the implementation."
            ),
            read_src,
            stop="tool_use",
            inp=4330,
            out=71,
            reasoning=24,
            cached=4120,
        ),
        result(
            read_src,
            "from datetime import UTC, datetime\n\n\ndef parse_dates(stamps: list[int]) -> list[datetime]:\n    return [datetime.fromtimestamp(ts) for ts in stamps]\n",
            created_at=at(2),
        ),
        developer(
            "<system-reminder>The todo list is empty. Use write_todos to track multi-step work.</system-reminder>",
            created_at=at(2, 1),
        ),
        turn(
            2,
            *think(
                "fromtimestamp without tz uses the machine's zone, and CI probably runs in UTC while the test expects UTC. Track the plan."
            ),
            plan,
            stop="tool_use",
            inp=4560,
            out=118,
            reasoning=40,
            cached=4330,
        ),
        result(plan, "Todos updated (1 in progress, 1 pending).", created_at=at(3)),
        turn(
            3,
            *think("Confirm the test's expectation and how CI sets the timezone, in parallel."),
            "Checking the test and the CI timezone together.",
            read_test,
            grep_ci,
            stop="tool_use",
            inp=4790,
            out=133,
            reasoning=22,
            cached=4560,
        ),
        result(
            read_test,
            "def test_parse_dates():\n    assert parse_dates([1743298200]) == [datetime(2025, 3, 30, 1, 30, tzinfo=UTC)]\n",
            created_at=at(4),
        ),
        result(grep_ci, ".github/workflows/ci.yml:18:      TZ: UTC\n", created_at=at(4)),
        turn(
            4,
            *think("The test expects aware UTC datetimes; fix the implementation rather than the test."),
            edit,
            stop="tool_use",
            inp=5040,
            out=102,
            reasoning=19,
            cached=4790,
        ),
        result(edit, "Applied 1 edit to src/dates.py.", created_at=at(5)),
        developer(
            "<system-reminder>src/dates.py was reformatted by ruff after your edit.</system-reminder>",
            created_at=at(5, 1),
        ),
        turn(
            5,
            *think(
                "Re-run the failing test under a non-UTC zone to prove the fix does not depend on the machine."
            ),
            rerun,
            stop="tool_use",
            inp=5210,
            out=84,
            reasoning=25,
            cached=5040,
        ),
        result(rerun, "1 passed in 0.19s", created_at=at(6)),
        turn(
            6,
            *think("Now the whole suite, to catch callers that relied on naive datetimes."),
            suite,
            stop="tool_use",
            inp=5330,
            out=60,
            reasoning=18,
            cached=5210,
        ),
        result(suite, "412 passed in 9.84s", created_at=at(7)),
        turn(
            7,
            *think("Everything passes; close the todo list."),
            done,
            stop="tool_use",
            inp=5440,
            out=104,
            reasoning=9,
            cached=5330,
        ),
        result(done, "Todos updated (2 completed).", created_at=at(8)),
        turn(
            8,
            *think("Summarize the cause and the fix for the user."),
            "Fixed. `parse_dates` used `datetime.fromtimestamp(ts)`, which returns naive local time: it matched on your machine only by accident of zone, and CI runs with TZ=UTC. It now passes `tz=UTC`; the test passes under Europe/Amsterdam and the full suite (412 tests) is green.",
            stop="stop",
            inp=5590,
            out=141,
            reasoning=12,
            cached=5440,
        ),
        user("Thanks! Add a CHANGELOG entry too.", created_at=at(10)),
        turn(
            10,
            *think("Read the changelog to match its format."),
            read_log,
            stop="tool_use",
            inp=5760,
            out=58,
            reasoning=10,
            cached=5590,
        ),
        result(
            read_log,
            "# Changelog\n\n## Unreleased\n\n## 2.3.0\n\n- Remove the legacy v1 API.\n",
            created_at=at(11),
        ),
        turn(
            11,
            *think("Add one line under Unreleased."),
            edit_log,
            stop="tool_use",
            inp=5890,
            out=112,
            reasoning=8,
            cached=5760,
        ),
        result(edit_log, "Applied 1 edit to CHANGELOG.md.", created_at=at(12)),
        turn(
            12,
            *think("Show the user what changed overall."),
            diff,
            stop="tool_use",
            inp=6030,
            out=52,
            reasoning=7,
            cached=5890,
        ),
        result(
            diff,
            " CHANGELOG.md  | 2 ++\n src/dates.py  | 2 +-\n 2 files changed, 3 insertions(+), 1 deletion(-)\n",
            created_at=at(13),
        ),
        developer(
            "<system-reminder>Do not commit unless the user asks you to.</system-reminder>",
            created_at=at(13, 1),
        ),
        turn(
            13,
            *think("Report the diff; do not commit."),
            "Added the entry under Unreleased. Two files changed: CHANGELOG.md and src/dates.py.",
            stop="stop",
            inp=6190,
            out=44,
            reasoning=6,
            cached=6030,
        ),
        user("Perfect, commit it with a short message.", created_at=at(15)),
    ]


@scenario("regression", "system-in-history")
def regression_system_only_history() -> Body:
    """Regression import-check placeholder-turns: a history of one system message. OpenAI Chat sends it
    alone and Responses an empty user message (both accepted in the recorded traffic); the others keep a
    placeholder user turn."""
    return CallParams(model="o3-mini"), [system("You are a potato.")]
