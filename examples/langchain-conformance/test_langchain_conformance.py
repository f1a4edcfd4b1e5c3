"""The langchain target under harness.testing, as LangChain's own CI would run it (``.ci/langchain``).

Four providers, a set of scenarios that exercises tools, thinking, images and developer turns,
the fixed generated histories and every recording. Each known failure names its root cause in
docs/audits/langchain.md; they are strict, so a LangChain release that fixes one fails here
until the entry is removed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from harness.testing import TargetConformance

KNOWN: dict[tuple[str, str], str] = {
    (
        "I12",
        "anthropic-thinking_foreign_provider_google_on_claude",
    ): "langchain-anthropic forwards Gemini thoughts without a signature (docs/audits/langchain.md, bug 1)",
    (
        "I13",
        "anthropic-thinking_foreign_provider_google_on_claude",
    ): "langchain-anthropic forwards the thought and drops its Gemini signature (docs/audits/langchain.md, bug 1)",
    (
        "I13",
        "gemini-developer_after_tool_result",
    ): "langchain-google-genai drops a non-leading system message (docs/audits/langchain.md, bug 8)",
    (
        "I7",
        "gemini-generated",
    ): "langchain-google-genai drops an orphaned tool result without a word (docs/audits/langchain.md, defensible choices)",
    (
        "I7",
        "openai-chat-generated",
    ): "the history is sent as given, not repaired (docs/audits/langchain.md, defensible choices)",
    (
        "I11",
        "openai-chat-generated",
    ): "LangChain holds an empty argument string as {} (the parsed arguments)",
    (
        "I11",
        "openai-responses-generated",
    ): "LangChain holds an empty argument string as {} (the parsed arguments)",
    (
        "I12",
        "openai-chat-tool_result_with_image",
    ): "langchain-openai keeps images inside role: tool messages (docs/audits/langchain.md, bug 4)",
    (
        "I13",
        "openai-chat-agent_loop_long",
    ): "foreign reasoning dropped without a warning (docs/audits/langchain.md, defensible choices)",
    (
        "I13",
        "openai-chat-thinking_anthropic_tool_use",
    ): "foreign reasoning dropped without a warning (docs/audits/langchain.md, defensible choices)",
    (
        "I13",
        "openai-chat-thinking_foreign_provider_google_on_claude",
    ): "foreign reasoning dropped without a warning (docs/audits/langchain.md, defensible choices)",
    (
        "I7",
        "anthropic-generated",
    ): "the history is sent as given, not repaired (docs/audits/langchain.md, defensible choices)",
    (
        "I7",
        "openai-responses-generated",
    ): "the history is sent as given, not repaired (docs/audits/langchain.md, defensible choices)",
    (
        "I1",
        "gemini-developer_after_tool_result",
    ): "langchain-google-genai drops a non-leading system message (docs/audits/langchain.md, bug 8)",
    (
        "I13",
        "openai-responses-agent_loop_long",
    ): "foreign reasoning dropped without a warning (docs/audits/langchain.md, defensible choices)",
    (
        "I13",
        "openai-responses-thinking_anthropic_tool_use",
    ): "foreign reasoning dropped without a warning (docs/audits/langchain.md, defensible choices)",
    (
        "I13",
        "openai-responses-thinking_foreign_provider_google_on_claude",
    ): "foreign reasoning dropped without a warning (docs/audits/langchain.md, defensible choices)",
    (
        "I2",
        "anthropic-thinking_foreign_provider_google_on_claude",
    ): "langchain-anthropic forwards unsigned thinking (docs/audits/langchain.md, bug 1)",
    (
        "I7",
        "gemini-tool_parallel_results_out_of_order",
    ): "Gemini calls sent without ids, results in history order (docs/audits/langchain.md, defensible choices)",
    (
        "I7",
        "openai-chat-field_result_after_text",
    ): "the history is sent as given, not repaired (docs/audits/langchain.md, defensible choices)",
    (
        "I11",
        "anthropic-server_tools_web_search_anthropic",
    ): "the LangChain bridge maps Anthropic's server tool blocks and citations to no canonical part yet (the text comes back joined)",
    (
        "I15",
        "anthropic-server_tools_web_search_anthropic",
    ): "the LangChain bridge drops the citations LangChain keeps on the text block (seed 004's lost sources, found by I15)",
}


class TestLangChain(TargetConformance):
    target = "langchain"
    providers = ("anthropic", "openai-chat", "openai-responses", "gemini")
    scenarios = (
        "agent_loop_long",
        "developer_after_tool_result",
        "field_result_after_text",
        "plain_multi_turn",
        "server_tools_web_search_anthropic",
        "server_tools_web_search_responses",
        "thinking_anthropic_tool_use",
        "thinking_foreign_provider_google_on_claude",
        "tool_parallel_results_out_of_order",
        "tool_result_with_image",
    )
    group_checks = True
    request_goldens = False  # the bodies are LangChain's; the audit report keeps them
    known_failures: ClassVar[Mapping[tuple[str, str], str]] = KNOWN
