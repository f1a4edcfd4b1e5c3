"""A failed union is one error, for the best-matching branch (not one row per branch tried: 19 for one block)."""

from __future__ import annotations

from typing import Any

from harness.oracles import ORACLES, validate
from harness.oracles.unions import collapse_unions

BASE: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 64,
    "messages": [{"role": "user", "content": "hi"}],
}


def test_an_unknown_tool_type_is_one_error_per_oracle() -> None:
    report = validate("anthropic", {**BASE, "tools": [{"type": "web_fetch_20990101", "name": "web_fetch"}]})
    assert sorted((e.oracle, e.path) for e in report.errors) == [(o, "tools/0/type") for o in sorted(ORACLES)]
    spec = next(e for e in report.errors if e.oracle == "spec")
    assert '"web_fetch_20990101" is not one of' in spec.message and "'web_fetch_20250910'" in spec.message


def test_an_unknown_block_type_is_one_error() -> None:
    block: dict[str, Any] = {"type": "web_fetch2_tool_result", "tool_use_id": "srvtoolu_1", "content": {}}
    body: dict[str, Any] = {
        **BASE,
        "messages": [*BASE["messages"], {"role": "assistant", "content": [block]}],
    }
    spec = [e for e in validate("anthropic", body).errors if e.oracle == "spec"]
    assert [e.path for e in spec] == ["messages/1/content/0/type"]


def test_a_known_type_keeps_its_own_branch_errors() -> None:
    errors = [
        ("tools/0/type", "Input should be 'custom' [literal_error]"),
        ("tools/0/name", "Input should be 'bash' [literal_error]"),
        ("tools/0/type", "Input should be 'bash_20250124' [literal_error]"),
    ]
    body = {"tools": [{"type": "bash_20250124", "name": "shell"}]}
    assert collapse_unions("sdk", errors, body) == [
        ("tools/0/name", "Input should be 'bash' [literal_error]")
    ]


def test_other_errors_pass_unchanged() -> None:
    errors = [
        ("max_tokens", '"5" is not of type "integer"'),
        ("messages/0/role", '"robot" is not one of "user"'),
    ]
    assert collapse_unions("spec", errors, {}) == errors
