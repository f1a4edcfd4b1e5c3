"""``harness.traffic.cache``: cache tokens read from recorded responses, and ``cache-prefix`` on a
continuing pair. The recorded Anthropic cache test keeps its prefix; planted (synthetic,
labelled) mutations of its second request that change the cached prefix or move the breakpoint
back are ``degrade`` findings naming the cached tokens at stake."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from harness.traffic.audit import audit_traffic
from harness.traffic.cache import cache_tokens, flat_blocks

ROOT = Path(__file__).resolve().parent.parent
RECORDED = (
    ROOT
    / "traffic/pydantic-ai/test_code_execution_files_vcr__test_anthropic_code_execution_files_cache_prefix_stable"
    "[messages-sonnet-4-6].yaml"
)


def _findings(path: Path) -> tuple[list[Any], dict[str, int]]:
    audit = audit_traffic([path])
    return [f for f in audit.findings if f.check == "cache-prefix"], audit.figures["anthropic"]


def test_the_recorded_cache_test_keeps_its_prefix_and_reports_its_cache_tokens() -> None:
    found, figures = _findings(RECORDED)
    assert found == []
    assert figures["cache_prefixes"] == figures["cache_prefixes_kept"] == 1
    assert figures["cache_read_tokens"] > 0 and figures["cache_write_tokens"] > 0


def _moved_back(body: dict[str, Any]) -> None:
    """Synthetic: the breakpoint leaves the latest user turn for the system prompt (earlier)."""
    for message in body["messages"]:
        for block in message["content"]:
            block.pop("cache_control", None)
    body["system"][0]["cache_control"] = {"type": "ephemeral"}


def _changed_before(body: dict[str, Any]) -> None:
    """Synthetic: the system prompt, inside the previous call's cached prefix, is edited."""
    body["system"][0]["text"] += " (edited)"


@pytest.mark.parametrize(
    ("mutation", "said"),
    [(_moved_back, "is moved back to system/0"), (_changed_before, "the cached prefix changed at system/0")],
    ids=["breakpoint-moved-back", "prefix-changed"],
)
def test_a_planted_mutation_of_the_next_request_is_a_degrade(
    tmp_path: Path, mutation: Any, said: str
) -> None:
    cassette = yaml.safe_load(RECORDED.read_text(encoding="utf-8"))
    second = cassette["interactions"][2]["request"]
    before = copy.deepcopy(second["parsed_body"])
    mutation(second["parsed_body"])
    assert second["parsed_body"] != before
    planted = tmp_path / f"synthetic-{mutation.__name__.strip('_')}__{RECORDED.name}"
    planted.write_text(yaml.safe_dump(cassette, sort_keys=False, allow_unicode=True), encoding="utf-8")
    found, _ = _findings(planted)
    assert [f.kind for f in found] == ["degrade"], found
    assert said in found[0].message and "tokens call #1 cached" in found[0].message


def test_cache_tokens_of_each_wire_are_the_largest_running_count() -> None:
    anthropic = (
        b'data: {"type":"message_start","message":{"usage":{"cache_read_input_tokens":10,'
        b'"cache_creation_input_tokens":5}}}\n\ndata: {"type":"message_delta","usage":{"cache_read_input_tokens":12}}\n'
    )
    assert cache_tokens(anthropic) == (12, 5)
    assert cache_tokens(b'{"usage":{"prompt_tokens_details":{"cached_tokens":7}}}') == (7, None)
    assert cache_tokens(b'{"usageMetadata":{"cachedContentTokenCount":3}}') == (3, None)
    assert cache_tokens(b'{"usage":{"cacheReadInputTokens":4,"cacheWriteInputTokens":2}}') == (4, 2)
    assert cache_tokens(b'{"usage":{"prompt_cache_hit_tokens":9}}') == (9, None)
    assert cache_tokens(b"not json") == (None, None)


def test_a_bedrock_cache_point_ends_the_block_before_it() -> None:
    body = {"system": [{"text": "s"}, {"cachePoint": {"type": "default"}}], "messages": []}
    blocks, last = flat_blocks("bedrock-converse", body)
    assert last == 0 and blocks[0][0] == "system/0"
