"""Scenarios: thinking structure and provenance (pairs, orphans, foreign and redacted signatures)."""

# The corpus quotes real model output and tests non-ASCII text on purpose (curly quotes,
# fullwidth punctuation, mathematical letters), so "ambiguous character" warnings are noise here.

from __future__ import annotations

from harness.params import CallParams, ThinkingParams, ToolSpec
from harness.scenarios.corpus.common import (
    CLAUDE,
    CLAUDE_4,
    CLAUDE_37,
    CODEX,
    GEMINI_3,
    READ_FILE,
    STR,
)
from harness.scenarios.corpus.real_tokens import (
    ANTHROPIC_SONNET40_ANSWER,
    ANTHROPIC_SONNET40_SIGNATURE,
    ANTHROPIC_SONNET40_THINKING,
    GEMINI3_CALL_ID,
    GEMINI3_FC_SIGNATURE,
)
from harness.scenarios.dsl import (
    Body,
    assistant,
    call,
    fake_encrypted,
    fake_id,
    fake_signature,
    result,
    scenario,
    signature,
    thinking,
    tool,
    usage,
    user,
)


@scenario("thinking", "signature-anthropic", "thinking-multiple-pairs", "tools", "tool-single", "tools-given")
def thinking_multiple_pairs_in_one_message() -> Body:
    """One claude message with thinking, signature, thinking, signature (synthetic signatures), then text and a tool call."""
    read = call("toolu_01Bv7XkP3sQeW9mZrT2yLcNd", "read_file", {"path": "src/utils.py"})
    params = CallParams(
        model=CLAUDE, max_tokens=8192, thinking=ThinkingParams(budget_tokens=4096), tools=[READ_FILE]
    )
    return params, [
        user("Is `retry()` in src/utils.py safe to call from async code?"),
        assistant(
            thinking(
                "The user asks whether retry() is async-safe. I should check whether it sleeps with time.sleep.",
                CLAUDE,
            ),
            signature(fake_signature("pairs-1"), "anthropic", CLAUDE),
            thinking(
                "If it uses time.sleep it blocks the event loop; an asyncio.sleep variant would be needed.",
                CLAUDE,
            ),
            signature(fake_signature("pairs-2"), "anthropic", CLAUDE),
            "Let me read the implementation.",
            read,
            stop="tool_use",
            usage=usage(1874, 161, cached=0, cache_creation=0, reasoning=88),
            response_id="msg_01Pq2WnYb8cRzK4tLmV7xDhS",
        ),
        result(
            read,
            "import time\n\n\ndef retry(fn, attempts=3, delay=0.5):\n    for i in range(attempts):\n        try:\n            return fn()\n        except OSError:\n            time.sleep(delay * 2**i)\n    return fn()\n",
        ),
    ]


@scenario(
    "thinking",
    "signature-openai-responses",
    "thinking-two-texts-one-signature",
    "tools",
    "tool-single",
    "tools-given",
)
def thinking_two_texts_one_signature() -> Body:
    """A Responses reasoning item with two summary texts and one encrypted_content (synthetic): texts share the rs_ id."""
    rs_id = fake_id("rs_", "two-texts", 53)
    shell = call(
        "call_m3Kd9XqP2vLw7RtY5nBc8ZaF",
        "shell",
        {"command": ["rg", "-n", "load_config", "src"]},
        fake_id("fc_", "two-texts", 53),
    )
    params = CallParams(
        model=CODEX,
        thinking=ThinkingParams(effort="medium"),
        tools=[
            tool(
                "shell",
                "Run a command in the workspace.",
                {"command": {"type": "array", "items": STR}},
                ["command"],
            )
        ],
    )
    return params, [
        user("Where is the config file loaded?"),
        assistant(
            thinking(
                "**Searching for config loading**\n\nI'll grep for load_config to find where configuration is read.",
                CODEX,
                id=rs_id,
            ),
            thinking(
                "**Narrowing the search**\n\nRestricting the search to src keeps test fixtures out of the results.",
                CODEX,
                id=rs_id,
            ),
            signature(fake_encrypted("two-texts"), "openai-responses", CODEX, id=rs_id),
            shell,
            stop="tool_use",
            usage=usage(1432, 96, cached=1280, reasoning=64),
            response_id=fake_id("resp_", "two-texts", 55),
        ),
        result(
            shell,
            "src/app/config.py:12:def load_config(path: Path) -> Config:\nsrc/app/main.py:8:    cfg = load_config(CONFIG_PATH)\n",
        ),
    ]


@scenario("thinking", "signature-orphan", "signature-anthropic")
def signature_orphan_anthropic() -> Body:
    """A claude message with a signature but no thinking text before it (thinking display omitted): kept, never displayed."""
    params = CallParams(model=CLAUDE, max_tokens=2048, thinking=ThinkingParams(budget_tokens=1024))
    return params, [
        user("Say hello in French."),
        assistant(
            signature(fake_signature("orphan"), "anthropic", CLAUDE),
            "Bonjour !",
            stop="stop",
            usage=usage(38, 41, cached=0, cache_creation=0, reasoning=30),
            response_id="msg_01Xo9RfT4mBnV2cQ8wLkE3sJ",
        ),
        user("And in Dutch?"),
    ]


@scenario(
    "thinking",
    "thinking-foreign-provider",
    "real-tokens",
    "tools",
    "tool-single",
    "tools-given",
    "tool-args-empty-object",
)
def thinking_foreign_provider_google_on_claude() -> Body:
    """Gemini thought text + REAL google signature in history while params.model is claude: never sent as native or as literal text."""
    get_country = call(GEMINI3_CALL_ID, "get_country", "{}")
    params = CallParams(
        model=CLAUDE,
        max_tokens=4096,
        thinking=ThinkingParams(budget_tokens=1024),
        tools=[
            ToolSpec.model_validate(
                {
                    "name": "get_country",
                    "parameters": {"additionalProperties": False, "properties": {}, "type": "object"},
                }
            )
        ],
    )
    return params, [
        user("What is the capital of the user country? Call the tool"),
        assistant(
            thinking(
                "**Locating the user**\n\nI need the user's country before I can name its capital, so I'll call get_country.",
                GEMINI_3,
            ),
            get_country,
            signature(GEMINI3_FC_SIGNATURE, "google", GEMINI_3),
            stop="tool_use",
            usage=usage(29, 212, reasoning=202),
            response_id="QUVVadTSNJ6_qtsPvN7J8Q0",
        ),
        result(get_country, "Mexico"),
        assistant(
            "The capital of Mexico is Mexico City.",
            stop="stop",
            usage=usage(257, 8),
            response_id="REVVabaiCdq4qtsPnZu96Qo",
        ),
        user("I switched you to Claude. Roughly how many people live there?"),
    ]


@scenario("thinking", "thinking-foreign-model", "real-tokens")
def thinking_foreign_model_same_provider() -> Body:
    """REAL claude-sonnet-4 thinking + signature replayed while params.model is claude-sonnet-4-5: same provider, another model."""
    params = CallParams(model=CLAUDE, max_tokens=4096, thinking=ThinkingParams(budget_tokens=1024))
    return params, [
        user("How do I cross the street?"),
        assistant(
            thinking(ANTHROPIC_SONNET40_THINKING, CLAUDE_4),
            signature(ANTHROPIC_SONNET40_SIGNATURE, "anthropic", CLAUDE_4),
            ANTHROPIC_SONNET40_ANSWER,
            stop="stop",
            usage=usage(43, 282, cached=0, cache_creation=0),
            response_id="msg_01ALwQ87pTS7hH1PjSdC9wJD",
        ),
        user("What changes at night?"),
    ]


@scenario("thinking", "thinking-redacted", "signature-anthropic")
def thinking_redacted_anthropic() -> Body:
    """claude-3-7-sonnet redacted_thinking (format anthropic-redacted, synthetic data) next to a normal thinking block: byte-exact replay."""
    params = CallParams(model=CLAUDE_37, max_tokens=4096, thinking=ThinkingParams(budget_tokens=2048))
    return params, [
        user(
            "ANTHROPIC_MAGIC_STRING_TRIGGER_REDACTED_THINKING_46C9A13E193C177646C7398A98432ECCCE4C1253D5E2D82641AC0E52CC2876CB"
        ),
        assistant(
            thinking(
                "The user sent what looks like a test trigger string rather than a question.", CLAUDE_37
            ),
            signature(fake_signature("redacted-pair"), "anthropic", CLAUDE_37),
            signature(fake_signature("redacted-data", 360), "anthropic-redacted", CLAUDE_37),
            "I notice you've sent what appears to be a trigger string. What would you like to talk about?",
            stop="stop",
            usage=usage(92, 176, cached=0, cache_creation=0),
            response_id="msg_01Rd4TcVx8nKq2WmZp6LsJ9H",
        ),
        user("What was that?"),
    ]


@scenario("thinking", "signature-empty", "interrupt")
def thinking_interrupted_empty_signature() -> Body:
    """Thinking interrupted before its signature arrived (signature ""): must never be replayed as signed (field lesson 2)."""
    params = CallParams(model=CLAUDE, max_tokens=4096, thinking=ThinkingParams(budget_tokens=2048))
    return params, [
        user("Plan a migration of our Postgres 13 cluster to Postgres 17."),
        assistant(
            thinking(
                "The user wants a major-version upgrade plan. Options are pg_upgrade in link mode or logical repl",
                CLAUDE,
            ),
            signature("", "anthropic", CLAUDE),
            stop="aborted",
            usage=usage(31, 24, cached=0, cache_creation=0),
            response_id="msg_01Ab3CdE5fGh7IjK9lMn1OpQ",
        ),
        user("Sorry, I interrupted you. Assume zero downtime is required, then go on."),
    ]


@scenario("thinking", "thinking-enabled-lost-thinking", "signature-anthropic", "tools", "tools-given")
def thinking_enabled_last_turn_lost_thinking() -> Body:
    """Thinking on, but the last assistant tool turn has no thinking (lost on a host fallback): request must still be valid (lesson 3)."""
    first = call("toolu_01Fb1AkQ7nRc3VsX9mTe2WyU", "read_file", {"path": "docs/deploy.md"})
    second = call("toolu_01Gc2BlR8oSd4WtY0nUf3XzV", "read_file", {"path": "deploy/prod.yaml"})
    params = CallParams(
        model=CLAUDE, max_tokens=8192, thinking=ThinkingParams(budget_tokens=2048), tools=[READ_FILE]
    )
    return params, [
        user("How do we deploy to production?"),
        assistant(
            thinking("The deploy docs should describe the process; I'll read them first.", CLAUDE),
            signature(fake_signature("lost-1"), "anthropic", CLAUDE),
            first,
            stop="tool_use",
            usage=usage(2150, 74, cached=0, cache_creation=2048, reasoning=20),
            response_id="msg_01Lt1NhW3yKa5PcM7rQs9UvX",
        ),
        result(first, "Deploys run from deploy/prod.yaml via `make release`."),
        assistant(
            "The docs point to deploy/prod.yaml; reading it.",
            second,
            stop="tool_use",
            usage=usage(2260, 58, cached=2048, cache_creation=0),
            response_id="msg_01Lt2OiX4zLb6QdN8sRt0VwY",
        ),
        result(second, "stages: [build, canary, promote]\ncanary_percent: 5\n"),
    ]


@scenario(
    "thinking", "mixed-provider", "signature-google-function-call", "tools", "tool-single", "tools-derived"
)
def mixed_provider_history() -> Body:
    """Assistant turns from gpt-5.1-codex-max, claude-sonnet-4-5 and gemini-3-pro-preview (synthetic signatures), rendered for gemini-3."""
    rs_id = fake_id("rs_", "mixed", 53)
    ls = call(
        "call_Vd8Hk2Lm5Pq9Rs3Tu6Wx1YzA", "shell", {"command": ["ls", "src"]}, fake_id("fc_", "mixed", 53)
    )
    grep = call("9c1e2f0a-1b7d-4c55-9e3a-6d8b2f4a7c10", "grep", {"pattern": "TODO", "path": "src"})
    return CallParams(model=GEMINI_3), [
        user("List the source directory."),
        assistant(
            thinking("**Listing files**\n\nA plain ls of src answers this.", CODEX, id=rs_id),
            signature(fake_encrypted("mixed"), "openai-responses", CODEX, id=rs_id),
            ls,
            stop="tool_use",
            usage=usage(812, 44, cached=0, reasoning=12),
            response_id=fake_id("resp_", "mixed", 55),
        ),
        result(ls, "app.py\nconfig.py\nutils.py\n"),
        assistant(
            "`src` holds app.py, config.py and utils.py.",
            stop="stop",
            usage=usage(870, 16, cached=768),
            response_id=fake_id("resp_", "mixed-2", 55),
        ),
        user("/model claude — which of those files is the entry point?"),
        assistant(
            thinking("app.py is the conventional entry point and the listing has no __main__.py.", CLAUDE),
            signature(fake_signature("mixed-claude"), "anthropic", CLAUDE),
            "Most likely app.py: it is the conventional entry point and there is no __main__.py.",
            stop="stop",
            usage=usage(903, 61, cached=0, cache_creation=0, reasoning=18),
            response_id="msg_01Mx5PkQ8rSa2TbU4vWc6XdY",
        ),
        user("/model gemini — find the TODOs."),
        assistant(
            grep,
            signature(fake_signature("mixed-gemini", 300), "google", GEMINI_3),
            stop="tool_use",
            usage=usage(1001, 95, reasoning=80),
            response_id="Wk1xYbC2dE3fG4hI5jK6lM7",
        ),
        result(grep, "src/utils.py:14: # TODO: make retry async-aware\n"),
    ]
