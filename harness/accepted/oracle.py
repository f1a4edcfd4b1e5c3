"""The request oracles' accepted differences (part of the registry), other providers than Anthropic.

An oracle error (``diff``: ``spec-error`` / ``sdk-error``) at a path matching ``where`` is
reported as "allowed (<id>)" instead of failing, when every predicate holds (``error_says``
the message, ``type_on_path``, ``host_in``, ``model_is``). An ``absent`` entry is a field the
spec and SDK mark required but the API fills in: both oracles judge the body with ``default``
filled in (the object holding it must satisfy ``when``), so the item is judged whole.

Rule for adding one: only after a body that is valid for the real API (per the provider's
docs or the other oracle) was seen to fail; keep the match narrow (one provider, one oracle,
an exact path, and where a union hides the culprit the ``type`` on the path) and write down
why. ``evidence`` names a request the real API accepted (``traffic/...yaml#N`` or
``cassettes/...yaml#N``) or the provider's docs.
"""

from __future__ import annotations

from harness.accepted.predicates import (
    error_says,
    has_list,
    host_in,
    model_is,
    role_is,
    type_is,
    type_on_path,
)
from harness.contract.accepted import Accepted

__all__ = ["ORACLE"]

#: Vertex AI's hosts for Gemini (global and regional endpoints).
_VERTEX_HOSTS = (
    "aiplatform.googleapis.com",
    *(f"{region}-aiplatform.googleapis.com" for region in ("us-central1", "us-east1", "us-east4", "us-west1",
                                                            "europe-west1", "europe-west4", "asia-northeast1")),
)  # fmt: skip

ORACLE: tuple[Accepted, ...] = (
    Accepted(
        "gemini-function-response-file-data",
        judges=("oracle",),
        provider="gemini",
        where="contents[*].parts[*].functionResponse.parts[*]",
        diff="spec-error",
        when=(error_says("'(file_data|fileData)' was unexpected"),),
        kind="oracle-lag",
        why=(
            "Gemini 3 accepts `fileData` in functionResponse.parts (multimodal function responses); the "
            "vendored Discovery document's FunctionResponsePart has only inlineData"
        ),
        evidence=(
            (
                "traffic/pydantic-ai/models__test_multimodal_tool_returns__test_multimodal_tool_return_matrix[direct-uploaded_file-image-google_gemini3].yaml#2"
            ),
            "https://ai.google.dev/gemini-api/docs/function-calling#multimodal",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "openrouter-sdk-reasoning-controls",
        judges=("oracle",),
        provider="openrouter",
        where="reasoning.{max_tokens,enabled,exclude}",
        diff="sdk-error",
        when=(error_says("\\[extra_forbidden\\]"),),
        kind="oracle-lag",
        why=(
            "openrouter SDK 1.3.84's ChatRequestReasoning has only `effort` and `summary`, but OpenRouter "
            "documents `reasoning.max_tokens`, `exclude` and `enabled` for chat "
            "(openrouter.ai/docs/use-cases/reasoning-tokens) and the same SDK's Responses ReasoningConfig "
            "has `enabled`/`max_tokens`. Live-accepted: `enabled` in "
            "cassettes/openrouter/pai__or_claude45_reasoning_text_signature.yaml; the reference adapter "
            "sends max_tokens (budget) and exclude (include_thoughts=false)."
        ),
        evidence=(
            "cassettes/openrouter/pai__or_claude45_reasoning_text_signature.yaml#0",
            "https://openrouter.ai/docs/use-cases/reasoning-tokens",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "responses-output-text-no-logprobs",
        judges=("oracle",),
        provider="openai-responses",
        where="input[*].content[*]",
        diff="spec-error",
        when=(error_says('"logprobs" is a required property'),),
        kind="oracle-lag",
        why=(
            "an assistant `output_text` part sent back without `logprobs` is accepted; the spec's "
            "OutputTextContent marks logprobs required (it is required only in responses). The SDK's "
            "ResponseOutputTextParam agrees with the API"
        ),
        evidence=(
            "traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_phase_live.yaml#1",
            "cassettes/openai-responses/pai__gpt55_reasoning_function_call_phase_roundtrip.yaml#1",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "responses-function-call-status-null",
        judges=("oracle",),
        provider="openai-responses",
        where="input[*].status",
        diff="spec-error",
        when=(
            error_says("null is not"),
            type_on_path("function_call"),
        ),
        kind="oracle-lag",
        why=(
            "a function_call input item with `status: null` is accepted (status is output-only); spec and "
            "SDK list only the three states"
        ),
        evidence=(
            (
                "traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_requires_function_call_status_none.yaml#1"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "responses-function-call-status-null",
        judges=("oracle",),
        provider="openai-responses",
        where="input[*].status",
        diff="sdk-error",
        when=(
            error_says("\\[literal_error\\]"),
            type_on_path("function_call"),
        ),
        kind="oracle-lag",
        why=(
            "a function_call input item with `status: null` is accepted (status is output-only); spec and "
            "SDK list only the three states"
        ),
        evidence=(
            (
                "traffic/pydantic-ai/models__test_openai_responses__test_openai_responses_requires_function_call_status_none.yaml#1"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "responses-tool-search-arguments",
        judges=("oracle",),
        provider="openai-responses",
        where="input[*].arguments",
        diff="spec-error",
        when=(
            error_says("Unevaluated properties are not allowed"),
            type_on_path("tool_search_call"),
        ),
        kind="oracle-lag",
        why=(
            "a client-executed `tool_search_call` carries the model's own arguments object (`queries`, "
            "`paths`); the spec closes it as an empty object"
        ),
        evidence=("traffic/pydantic-ai/test_tool_search__test_openai_execution_client_round_trip.yaml#1",),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "responses-tool-search-parameters",
        judges=("oracle",),
        provider="openai-responses",
        where="tools[*].parameters",
        diff="spec-error",
        when=(
            error_says("Unevaluated properties are not allowed"),
            type_on_path("tool_search"),
        ),
        kind="oracle-lag",
        why=(
            "a client-executed `tool_search` tool declares its parameters as a JSON schema; the spec "
            "closes `parameters` as an empty object"
        ),
        evidence=("traffic/pydantic-ai/test_tool_search__test_openai_client_tool_search_streaming.yaml#0",),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "responses-namespace-function-parameters",
        judges=("oracle",),
        provider="openai-responses",
        where="tools[*].tools[*].parameters",
        diff="spec-error",
        when=(
            error_says("Unevaluated properties are not allowed"),
            type_on_path("namespace"),
        ),
        kind="oracle-lag",
        why=(
            "a function inside a `namespace` tool declares its parameters as a JSON schema (nested objects "
            "and all); the spec's FunctionToolParam closes `parameters` as an empty object "
            "(EmptyModelParam, a generator artifact), while the official SDK types it `Optional[object]` "
            "and the spec's own top-level FunctionTool takes a JSON schema there"
        ),
        evidence=(
            (
                "openai-python src/openai/types/responses/namespace_tool_param.py: "
                "ToolFunction.parameters: Optional[object]"
            ),
            "https://developers.openai.com/api/docs/guides/tools-tool-search",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "openrouter-server-tools",
        judges=("oracle",),
        provider="openrouter",
        where="tools[*].type",
        diff="spec-error",
        when=(error_says('"openrouter:[a-z_]+" is not one of'),),
        kind="oracle-lag",
        why=(
            "OpenRouter server tools (`openrouter:web_search`, `openrouter:advisor`) are OpenRouter "
            "extensions of the tools list; OpenAI's spec knows only function/custom"
        ),
        evidence=(
            "traffic/pydantic-ai/models__test_openrouter__test_openrouter_web_search_tool_usage.yaml#0",
            "traffic/pydantic-ai/models__test_openrouter__test_openrouter_advisor_tool.yaml#0",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "openrouter-video-url-part",
        judges=("oracle",),
        provider="openrouter",
        where="messages[*].content[*].type",
        diff="spec-error",
        when=(error_says('"video_url" is not one of'),),
        kind="oracle-lag",
        why="OpenRouter accepts `video_url` content parts (video inputs); OpenAI's spec does not",
        evidence=(
            "traffic/pydantic-ai/models__test_openrouter__test_openrouter_video_url_public_api.yaml#0",
            "https://openrouter.ai/docs/features/multimodal/videos",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "openrouter-sdk-part-cache-control",
        judges=("oracle",),
        provider="openrouter",
        where="messages[*].content[*].cache_control",
        diff="sdk-error",
        when=(error_says("\\[extra_forbidden\\]"),),
        kind="oracle-lag",
        why=(
            "OpenRouter documents `cache_control` on content parts (prompt caching), also on image parts; "
            "SDK 1.3.84 has it only on text parts"
        ),
        evidence=(
            (
                "traffic/pydantic-ai/models__openrouter__test_cache__test_openrouter_cache_point_image_e2e.yaml#0"
            ),
            "https://openrouter.ai/docs/features/prompt-caching",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "openrouter-sdk-request-extensions",
        judges=("oracle",),
        provider="openrouter",
        where="{transforms,usage,preset}",
        diff="sdk-error",
        when=(error_says("\\[extra_forbidden\\]"),),
        kind="oracle-lag",
        why=(
            "OpenRouter documents the request fields `transforms`, `usage` ({include: true}) and `preset`; "
            "SDK 1.3.84's chat request lacks them"
        ),
        evidence=(
            (
                "traffic/pydantic-ai/models__test_openrouter__test_openrouter_stream_with_native_options.yaml#0"
            ),
            "traffic/pydantic-ai/models__test_openrouter__test_openrouter_usage.yaml#1",
            "traffic/pydantic-ai/models__test_openrouter__test_openrouter_with_preset.yaml#0",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "deepseek-reasoning-content",
        judges=("oracle",),
        provider="openai-chat",
        where="messages[*]",
        diff="spec-error",
        when=(
            error_says("'reasoning_content' was unexpected"),
            model_is("deepseek-.*"),
        ),
        kind="oracle-lag",
        why=(
            "DeepSeek's thinking mode returns `reasoning_content` beside `content`, and documents that an "
            "assistant turn with tool calls must send it back in every later request (a 400 otherwise); "
            "OpenAI's schema has no such field. Only for DeepSeek models behind the Chat wire"
        ),
        evidence=(
            "https://api-docs.deepseek.com/guides/thinking_mode",
            "anomalyco/opencode issue 24722 (DeepSeek 400 without reasoning_content on tool turns)",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "deepseek-reasoning-content",
        judges=("oracle",),
        provider="openai-chat",
        where="messages[*].reasoning_content",
        diff="sdk-error",
        when=(
            error_says("\\[extra_forbidden\\]"),
            model_is("deepseek-.*"),
        ),
        kind="oracle-lag",
        why=(
            "DeepSeek's thinking mode returns `reasoning_content` beside `content`, and documents that an "
            "assistant turn with tool calls must send it back in every later request (a 400 otherwise); "
            "OpenAI's schema has no such field. Only for DeepSeek models behind the Chat wire"
        ),
        evidence=(
            "https://api-docs.deepseek.com/guides/thinking_mode",
            "anomalyco/opencode issue 24722 (DeepSeek 400 without reasoning_content on tool turns)",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "openrouter-sdk-routing-fields",
        judges=("oracle",),
        provider="openrouter",
        where="{route,include_reasoning}",
        diff="sdk-error",
        when=(error_says("\\[extra_forbidden\\]"),),
        kind="oracle-lag",
        why=(
            "OpenRouter documents the request fields `route` ('fallback', with `models`) and "
            "`include_reasoning` (the legacy switch for reasoning output) and passes them on; SDK 1.3.84's "
            "chat request lacks both (calibrate.py strips `route` on its Responses endpoint for the same "
            "reason)"
        ),
        evidence=(
            "https://openrouter.ai/docs/api-reference/overview",
            "https://openrouter.ai/docs/use-cases/reasoning-tokens",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "openrouter-sdk-verbosity",
        judges=("oracle",),
        provider="openrouter",
        where="verbosity",
        diff="sdk-error",
        when=(error_says("\\[extra_forbidden\\]"),),
        kind="oracle-lag",
        why=(
            "OpenRouter documents a top-level `verbosity` (low, medium, high, xhigh, max; an open enum) "
            "and its newer SDKs carry a `Verbosity` component; SDK 1.3.84's chat request lacks it. No "
            "recorded request carries it, so the evidence is OpenRouter's own documentation"
        ),
        evidence=(
            "https://openrouter.ai/docs/client-sdks/python/components/verbosity.md",
            "https://openrouter.ai/docs/client-sdks/typescript/models/verbosity.md",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "gemini-vertex-request-fields",
        judges=("oracle",),
        provider="gemini",
        where="$",
        diff="spec-error",
        when=(
            error_says("\\(('(labels|modelArmorConfig)'(, )?)+ (was|were) unexpected\\)"),
            host_in(*_VERTEX_HOSTS),
        ),
        kind="oracle-lag",
        why=(
            "Vertex AI's generateContent (aiplatform.googleapis.com, Gemini's Vertex endpoint) takes "
            "`labels` (billing labels) and `modelArmorConfig` (Model Armor templates) beside the Gemini "
            "API's fields; the vendored Gemini API Discovery document and google-genai's mldev body lack "
            "`modelArmorConfig`, and the document lacks `labels`. Only for Vertex hosts"
        ),
        evidence=(
            (
                "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/projects.locations.publishers.models/generateContent"
            ),
            "traffic/pydantic-ai-more/models__test_google__test_google_model_vertex_labels.yaml#0",
            (
                "traffic/pydantic-ai-more/models__test_google__test_google_model_armor_prompt_template_text_gets_blocked.yaml#1"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "gemini-vertex-request-fields",
        judges=("oracle",),
        provider="gemini",
        where="modelArmorConfig",
        diff="sdk-error",
        when=(
            error_says("\\[extra_forbidden\\]"),
            host_in(*_VERTEX_HOSTS),
        ),
        kind="oracle-lag",
        why=(
            "Vertex AI's generateContent (aiplatform.googleapis.com, Gemini's Vertex endpoint) takes "
            "`labels` (billing labels) and `modelArmorConfig` (Model Armor templates) beside the Gemini "
            "API's fields; the vendored Gemini API Discovery document and google-genai's mldev body lack "
            "`modelArmorConfig`, and the document lacks `labels`. Only for Vertex hosts"
        ),
        evidence=(
            (
                "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/projects.locations.publishers.models/generateContent"
            ),
            "traffic/pydantic-ai-more/models__test_google__test_google_model_vertex_labels.yaml#0",
            (
                "traffic/pydantic-ai-more/models__test_google__test_google_model_armor_prompt_template_text_gets_blocked.yaml#1"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "bedrock-video-format-media-type",
        judges=("oracle",),
        provider="bedrock",
        where="messages[*].content[*].video.format",
        diff="spec-error",
        when=(error_says("is not one of"),),
        kind="oracle-lag",
        why=(
            "The service model's VideoFormat enum names bare formats (mp4, mov, ...); Bedrock accepted a "
            "Nova Pro request with the media type `video/mp4` as `video.format` (see evidence). botocore's "
            "ParamValidator checks no enum; the spec oracle's enum check stays on for every other enum."
        ),
        evidence=("traffic/pydantic-ai-more/models__test_bedrock__test_video_url_input.yaml#1",),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "responses-reasoning-id-optional",
        judges=("oracle",),
        provider="openai-responses",
        where="input[*].id",
        diff="absent",
        when=(type_is("reasoning"),),
        default="rs_defaulted",
        kind="oracle-lag",
        why=(
            "a reasoning input item without `id` is accepted when it carries `encrypted_content` "
            "(stateless replay, store false): OpenAI's own agent CLI never serialises the id of a "
            "reasoning item. The spec and SDK mark `id` required (it is always set in responses)"
        ),
        evidence=(
            (
                "openai/codex codex-rs/protocol/src/models.rs@001cb8e2: `ResponseItem::Message` and "
                "`ResponseItem::Reasoning` declare `id` `#[serde(default, skip_serializing)]`; a Message "
                "carries `role` and `content` only (no `status`), and `ContentItem::OutputText` carries "
                "`text` only (no `annotations`)"
            ),
            (
                "openai/codex codex-rs/core/src/client.rs@001cb8e2: every Responses request asks for "
                "`include: [reasoning.encrypted_content]` and replays the whole history (store false), so "
                "every reasoning item goes back with its encrypted_content and without an id"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "responses-message-id-optional",
        judges=("oracle",),
        provider="openai-responses",
        where="input[*].id",
        diff="absent",
        when=(
            type_is("message"),
            role_is("assistant"),
            has_list("content"),
        ),
        default="msg_defaulted",
        kind="oracle-lag",
        why=(
            "an assistant output message sent back without `id` is accepted: codex never serialises a "
            "message item's id. The spec and SDK mark it required"
        ),
        evidence=(
            (
                "openai/codex codex-rs/protocol/src/models.rs@001cb8e2: `ResponseItem::Message` and "
                "`ResponseItem::Reasoning` declare `id` `#[serde(default, skip_serializing)]`; a Message "
                "carries `role` and `content` only (no `status`), and `ContentItem::OutputText` carries "
                "`text` only (no `annotations`)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "responses-message-status-optional",
        judges=("oracle",),
        provider="openai-responses",
        where="input[*].status",
        diff="absent",
        when=(
            type_is("message"),
            role_is("assistant"),
            has_list("content"),
        ),
        default="completed",
        kind="oracle-lag",
        why=(
            "an assistant output message sent back without `status` is accepted (status is output state): "
            "codex's Message item has no status field"
        ),
        evidence=(
            (
                "openai/codex codex-rs/protocol/src/models.rs@001cb8e2: `ResponseItem::Message` and "
                "`ResponseItem::Reasoning` declare `id` `#[serde(default, skip_serializing)]`; a Message "
                "carries `role` and `content` only (no `status`), and `ContentItem::OutputText` carries "
                "`text` only (no `annotations`)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "responses-output-text-annotations-optional",
        judges=("oracle",),
        provider="openai-responses",
        where="input[*].content[*].annotations",
        diff="absent",
        when=(type_is("output_text"),),
        default=[],
        kind="oracle-lag",
        why=(
            "an `output_text` part sent back without `annotations` is accepted: codex's "
            "ContentItem::OutputText carries `text` only"
        ),
        evidence=(
            (
                "openai/codex codex-rs/protocol/src/models.rs@001cb8e2: `ResponseItem::Message` and "
                "`ResponseItem::Reasoning` declare `id` `#[serde(default, skip_serializing)]`; a Message "
                "carries `role` and `content` only (no `status`), and `ContentItem::OutputText` carries "
                "`text` only (no `annotations`)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
    Accepted(
        "responses-function-strict-optional",
        judges=("oracle",),
        provider="openai-responses",
        where="{tools[*],input[*].tools[*]}.strict",
        diff="absent",
        when=(type_is("function"),),
        default=True,
        kind="oracle-lag",
        why=(
            "a function tool without `strict` is accepted; the API defaults it (to true on Responses). "
            "OpenAI's function-calling guide defines its Responses example tool (get_horoscope) without "
            "`strict`; the spec and SDK mark it required"
        ),
        evidence=(
            "https://developers.openai.com/api/docs/guides/function-calling",
            "https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools",
        ),
        still_needed="tests/test_accepted_needed.py::test_each_oracle_entry_is_needed",
    ),
)
