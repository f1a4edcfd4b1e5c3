"""Every warning code a reference adapter may emit: one registry, one code per case.

A ``RenderWarning`` names what the adapter changed; its ``code`` is stable (goldens,
baselines and reports match on it), so a case gets one code whatever the provider.
Each code carries a one-line meaning and the finding kind it stands for
(``harness.contract.kinds``): ``reject`` when the request as given would be refused,
so the adapter repaired it; ``degrade`` when the model loses something (dropped,
moved or rewritten content); ``policy`` when the adapter picked one of two forms the
provider accepts. The contract holds it so judges and reports can read the codes
without importing the reference side.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from harness.contract.kinds import Kind

__all__ = ["WARNING_CODES", "Code", "CodeInfo"]


class Code(StrEnum):
    """The warning codes; the value is what a RenderWarning carries."""

    ASSISTANT_IMAGE_DROPPED = "assistant-image-dropped"
    ASSISTANT_MERGED = "assistant-merged"
    ASSISTANT_PREFILL = "assistant-prefill"
    CACHE_BREAKPOINT_AUTOMATIC = "cache-breakpoint-automatic"
    CACHE_BREAKPOINT_DROPPED = "cache-breakpoint-dropped"
    CACHE_TTL_UNSUPPORTED = "cache-ttl-unsupported"
    CONTROL_CLAMPED = "control-clamped"
    CONTROL_NOT_SENT = "control-not-sent"
    DEVELOPER_AS_USER = "developer-as-user"
    DISCOVERED_TOOLS_NOT_SENT = "discovered-tools-not-sent"
    EMPTY_MESSAGE = "empty-message"
    EMPTY_TEXT = "empty-text"
    FILE_CONTAINER_UNSUPPORTED = "file-container-unsupported"
    FILE_DOCUMENT_OPTIONS_DROPPED = "file-document-options-dropped"
    FILE_ID_FOREIGN = "file-id-foreign"
    FILE_KIND_UNSUPPORTED = "file-kind-unsupported"
    FILE_SOURCE_UNSUPPORTED = "file-source-unsupported"
    FILE_TEXT_INLINED = "file-text-inlined"
    FILE_VIDEO_METADATA_DROPPED = "file-video-metadata-dropped"
    IMAGE_FILE_NOT_INLINED = "image-file-not-inlined"
    IMAGE_MIME_UNKNOWN = "image-mime-unknown"
    IMAGE_URL_UNSUPPORTED = "image-url-unsupported"
    ITEM_ID_DROPPED = "item-id-dropped"
    MAX_TOKENS_INVALID = "max-tokens-invalid"
    MAX_TOKENS_RAISED = "max-tokens-raised"
    MEDIA_TYPE_NORMALIZED = "media-type-normalized"
    OUTPUT_FORMAT_NOT_SENT = "output-format-not-sent"
    PHASE_DROPPED = "phase-dropped"
    PLACEHOLDER_USER = "placeholder-user"
    PREFILL_THINKING_DROPPED = "prefill-thinking-dropped"
    PREFILL_TRAILING_WHITESPACE = "prefill-trailing-whitespace"
    REASONING_CONTENT_EMPTY = "reasoning-content-empty"
    REASONING_DUPLICATE_ID = "reasoning-duplicate-id"
    REASONING_NO_FOLLOWING_ITEM = "reasoning-no-following-item"
    REASONING_NO_ID = "reasoning-no-id"
    REASONING_NOT_SENT = "reasoning-not-sent"
    RESPONSE_PIECES_JOINED = "response-pieces-joined"
    ROLES_MERGED = "roles-merged"
    SERVER_TOOL_FOREIGN = "server-tool-foreign"
    SERVER_TOOL_OPTIONS_DROPPED = "server-tool-options-dropped"
    SERVER_TOOL_UNSUPPORTED = "server-tool-unsupported"
    SIGNATURE_INVALID = "signature-invalid"
    SOURCE_NOT_SENT = "source-not-sent"
    SYSTEM_AS_USER = "system-as-user"
    SYSTEM_DUPLICATE = "system-duplicate"
    SYSTEM_HOISTED = "system-hoisted"
    TEMPERATURE_CLAMPED = "temperature-clamped"
    TEMPERATURE_DROPPED = "temperature-dropped"
    THINKING_BUDGET_CLAMPED = "thinking-budget-clamped"
    THINKING_BUDGET_IGNORED = "thinking-budget-ignored"
    THINKING_BUDGET_RAISED = "thinking-budget-raised"
    THINKING_CANNOT_DISABLE = "thinking-cannot-disable"
    THINKING_DISABLED = "thinking-disabled"
    THINKING_EFFORT_IGNORED = "thinking-effort-ignored"
    THINKING_FOREIGN = "thinking-foreign"
    THINKING_MODEL_MISMATCH = "thinking-model-mismatch"
    THINKING_PARAM_IGNORED = "thinking-param-ignored"
    THINKING_SIGNATURE_UNPAIRED = "thinking-signature-unpaired"
    THINKING_UNSIGNED = "thinking-unsigned"
    THINKING_UNSUPPORTED = "thinking-unsupported"
    THOUGHT_SIGNATURE_DUMMY = "thought-signature-dummy"
    TOOL_ADDITION_UPFRONT = "tool-addition-upfront"
    TOOL_ARGUMENTS_INVALID = "tool-arguments-invalid"
    TOOL_ATTACHMENT_MOVED = "tool-attachment-moved"
    TOOL_CALL_DUPLICATE_DROPPED = "tool-call-duplicate-dropped"
    TOOL_CALLER_NOT_SENT = "tool-caller-not-sent"
    TOOL_CALL_DUPLICATE_ID = "tool-call-duplicate-id"
    TOOL_CHOICE_NOT_SENT = "tool-choice-not-sent"
    TOOL_CHOICE_WIDENED = "tool-choice-widened"
    TOOL_DUPLICATE = "tool-duplicate"
    TOOL_ERROR_EMPTY_OUTPUT = "tool-error-empty-output"
    TOOL_ID_MAPPED = "tool-id-mapped"
    TOOL_ID_RENUMBERED = "tool-id-renumbered"
    TOOL_FILE_MOVED = "tool-file-moved"
    TOOL_IMAGE_MOVED = "tool-image-moved"
    TOOL_JSON_AS_TEXT = "tool-json-as-text"
    TOOL_NAME_MAPPED = "tool-name-mapped"
    TOOL_NAME_MISMATCH = "tool-name-mismatch"
    TOOL_RESULT_DUPLICATE = "tool-result-duplicate"
    TOOL_RESULT_ORDER_LOST = "tool-result-order-lost"
    TOOL_RESULT_MISSING = "tool-result-missing"
    TOOL_RESULT_ORPHAN = "tool-result-orphan"
    TOOL_RESULT_AFTER_TEXT = "tool-result-after-text"
    TOOL_RESULTS_MOVED = "tool-results-moved"
    TOOL_RESULTS_REORDERED = "tool-results-reordered"
    TOOL_SCHEMA_DEGRADED = "tool-schema-degraded"
    TOOL_STATUS_NOT_SENT = "tool-status-not-sent"
    TOOL_STRICT_NOT_SENT = "tool-strict-not-sent"
    TOOLS_DERIVED = "tools-derived"
    TOOLS_NOT_DECLARED = "tools-not-declared"


class CodeInfo(NamedTuple):
    kind: Kind
    meaning: str


WARNING_CODES: dict[Code, CodeInfo] = {
    Code.DISCOVERED_TOOLS_NOT_SENT: CodeInfo(
        "degrade", "the deferred tools a tool result loads have no place in this provider's request; not sent"
    ),
    Code.TOOL_CALLER_NOT_SENT: CodeInfo(
        "degrade",
        "a client tool call made from the provider's code execution, or a tool only code may call "
        "(Anthropic programmatic tool calling), sent here as the model's own call or tool",
    ),
    Code.TOOL_ADDITION_UPFRONT: CodeInfo(
        "degrade",
        "tools added mid-conversation have no place in this provider's request; declared with the "
        "request's tools from the start (the prompt prefix before the addition is not kept)",
    ),
    Code.SERVER_TOOL_FOREIGN: CodeInfo(
        "degrade",
        "a provider-executed call or result of another provider (or without its raw block) cannot be "
        "replayed here; dropped, never sent as a client tool call",
    ),
    Code.SERVER_TOOL_OPTIONS_DROPPED: CodeInfo(
        "degrade",
        "another provider's server tool declared natively without options this provider has no field for",
    ),
    Code.SERVER_TOOL_UNSUPPORTED: CodeInfo(
        "degrade", "a provider-executed tool definition this provider cannot declare; not sent"
    ),
    Code.SOURCE_NOT_SENT: CodeInfo(
        "degrade",
        "a citation or grounding source the provider's request has no place for (another provider's, "
        "or not attached to a text); kept in history, not sent",
    ),
    Code.ASSISTANT_IMAGE_DROPPED: CodeInfo(
        "degrade", "an image in an assistant message cannot be replayed; dropped"
    ),
    Code.ASSISTANT_MERGED: CodeInfo(
        "reject", "consecutive assistant messages merged into one for role alternation"
    ),
    Code.ASSISTANT_PREFILL: CodeInfo("policy", "the history ends with an assistant message; sent as prefill"),
    Code.DEVELOPER_AS_USER: CodeInfo(
        "degrade", "a developer message with no user/tool message to join sent as a user message"
    ),
    Code.EMPTY_MESSAGE: CodeInfo(
        "reject", "a message with no content left dropped (providers reject empty messages)"
    ),
    Code.EMPTY_TEXT: CodeInfo(
        "reject", "an empty or whitespace-only text part dropped (providers reject blank text)"
    ),
    Code.FILE_CONTAINER_UNSUPPORTED: CodeInfo(
        "degrade",
        "a file meant for the code-execution container (Anthropic container_upload) the provider has no block for, or not by a file id of its own; dropped",
    ),
    Code.FILE_DOCUMENT_OPTIONS_DROPPED: CodeInfo(
        "degrade",
        "a document's context, citations switch or content blocks (text_chunks) the provider has no field for; the document is sent without them",
    ),
    Code.FILE_ID_FOREIGN: CodeInfo(
        "degrade", "a file id another provider's Files API issued means nothing here; dropped"
    ),
    Code.FILE_KIND_UNSUPPORTED: CodeInfo(
        "degrade", "a file kind (document, audio, video) the provider or model cannot take; dropped"
    ),
    Code.FILE_SOURCE_UNSUPPORTED: CodeInfo(
        "degrade", "a file source (bytes, URL, file id, cloud URI) the provider cannot take for it; dropped"
    ),
    Code.FILE_TEXT_INLINED: CodeInfo(
        "degrade", "a text document the provider takes no file for sent as its decoded text"
    ),
    Code.FILE_VIDEO_METADATA_DROPPED: CodeInfo(
        "degrade",
        "a video's frame rate / clip offsets (video_metadata) the provider has no field for; the video is sent without them",
    ),
    Code.IMAGE_FILE_NOT_INLINED: CodeInfo(
        "degrade", "an image file on disk is never read by a pure adapter; dropped"
    ),
    Code.IMAGE_MIME_UNKNOWN: CodeInfo(
        "degrade", "no image type could be told from a URL; sent without a media type"
    ),
    Code.IMAGE_URL_UNSUPPORTED: CodeInfo(
        "reject", "an image URL or media type the provider does not accept; dropped"
    ),
    Code.ITEM_ID_DROPPED: CodeInfo(
        "reject", "an output item id not sent because its reasoning item was not sent"
    ),
    Code.MAX_TOKENS_INVALID: CodeInfo("reject", "a negative max_tokens replaced by the default"),
    Code.MAX_TOKENS_RAISED: CodeInfo("reject", "max_tokens below the provider's minimum raised to it"),
    Code.MEDIA_TYPE_NORMALIZED: CodeInfo(
        "reject", "a non-standard image media type label sent as its standard label"
    ),
    Code.OUTPUT_FORMAT_NOT_SENT: CodeInfo(
        "degrade", "a structured-output setting the provider cannot carry not sent; the reply is free text"
    ),
    Code.PHASE_DROPPED: CodeInfo("reject", "a message phase the provider does not know not sent"),
    Code.PLACEHOLDER_USER: CodeInfo(
        "reject", "a placeholder user message put first (or sent alone) so a user turn exists"
    ),
    Code.PREFILL_THINKING_DROPPED: CodeInfo("reject", "thinking in a final assistant prefill dropped"),
    Code.PREFILL_TRAILING_WHITESPACE: CodeInfo(
        "reject", "trailing whitespace stripped from a final assistant prefill"
    ),
    # The OpenAI-compatible dialects (their evidence: docs/field-rules.md).
    Code.REASONING_CONTENT_EMPTY: CodeInfo(
        "reject",
        "a thinking model's tool-loop turn had no reasoning text; sent with an empty reasoning_content "
        "(DeepSeek, Kimi: 400 without it)",
    ),
    Code.REASONING_NOT_SENT: CodeInfo(
        "policy",
        "reasoning text left out of a turn where the dialect ignores or refuses it "
        "(DeepSeek: outside thinking-mode tool loops; Kimi: off its tool-call messages)",
    ),
    Code.REASONING_DUPLICATE_ID: CodeInfo(
        "reject", "a second reasoning item with an id already sent; dropped"
    ),
    Code.REASONING_NO_FOLLOWING_ITEM: CodeInfo(
        "reject", "a reasoning item with no output item after it; dropped"
    ),
    Code.REASONING_NO_ID: CodeInfo(
        "policy", "a reasoning item id that is not the provider's own; the item is sent without an id"
    ),
    Code.RESPONSE_PIECES_JOINED: CodeInfo(
        "policy", "messages that are pieces of one response share one results window"
    ),
    Code.ROLES_MERGED: CodeInfo(
        "reject", "consecutive same-role contents merged into one for role alternation"
    ),
    Code.SIGNATURE_INVALID: CodeInfo(
        "reject", "a signature that cannot be encoded on the wire (not base64); dropped"
    ),
    Code.SYSTEM_AS_USER: CodeInfo(
        "reject", "the model rejects a system instruction; system text sent in the first user turn"
    ),
    Code.SYSTEM_DUPLICATE: CodeInfo(
        "policy", "a system text already in the system prompt sent once, not twice"
    ),
    Code.SYSTEM_HOISTED: CodeInfo(
        "policy", "a system message after the conversation started joins the system prompt"
    ),
    Code.TEMPERATURE_CLAMPED: CodeInfo("reject", "temperature outside the provider's range clamped into it"),
    Code.TEMPERATURE_DROPPED: CodeInfo("reject", "a temperature that is not a number not sent"),
    Code.THINKING_BUDGET_CLAMPED: CodeInfo("reject", "a thinking budget not below max_tokens clamped"),
    Code.THINKING_BUDGET_IGNORED: CodeInfo(
        "policy", "a thinking token budget the provider cannot take; not sent"
    ),
    Code.THINKING_BUDGET_RAISED: CodeInfo(
        "reject", "a thinking budget below the provider's minimum raised to it"
    ),
    Code.THINKING_CANNOT_DISABLE: CodeInfo(
        "policy", "the model cannot turn thinking off; no thinking config sent"
    ),
    Code.THINKING_DISABLED: CodeInfo(
        "reject", "thinking turned off because the open tool turn has no native thinking first"
    ),
    Code.THINKING_EFFORT_IGNORED: CodeInfo("policy", "a thinking effort the model cannot take; not sent"),
    Code.THINKING_FOREIGN: CodeInfo(
        "degrade", "thinking from another provider, model or format; dropped, never sent as text"
    ),
    Code.THINKING_MODEL_MISMATCH: CodeInfo("degrade", "thinking text produced by another model; dropped"),
    Code.THINKING_PARAM_IGNORED: CodeInfo(
        "policy", "a thinking setting the provider or model cannot take; not sent"
    ),
    Code.THINKING_SIGNATURE_UNPAIRED: CodeInfo(
        "degrade", "a signature with nothing to pair with; kept in history, not sent"
    ),
    Code.THINKING_UNSIGNED: CodeInfo(
        "degrade", "thinking without a (non-empty) signature cannot be replayed; dropped"
    ),
    Code.THINKING_UNSUPPORTED: CodeInfo(
        "degrade", "the provider cannot carry reasoning on input; thinking dropped"
    ),
    Code.THOUGHT_SIGNATURE_DUMMY: CodeInfo(
        "reject", "a function call that must carry a signature sent with the documented dummy"
    ),
    Code.TOOL_ARGUMENTS_INVALID: CodeInfo(
        "reject", "tool-call arguments that are not a JSON object sent as an empty object"
    ),
    Code.TOOL_ATTACHMENT_MOVED: CodeInfo(
        "degrade", "developer content attached to a tool result sent after the turn's results"
    ),
    Code.TOOL_CALL_DUPLICATE_DROPPED: CodeInfo(
        "reject", "a second tool call with an id already used in the message; dropped"
    ),
    Code.TOOL_CALL_DUPLICATE_ID: CodeInfo("degrade", "two tool calls share an id; one result serves both"),
    Code.CACHE_BREAKPOINT_AUTOMATIC: CodeInfo(
        "policy",
        "the provider caches request prefixes on its own and takes no breakpoint; not sent "
        "(the prefix is still cached where it is long enough)",
    ),
    Code.CACHE_BREAKPOINT_DROPPED: CodeInfo(
        "degrade",
        "a cache breakpoint the provider cannot place there (a block that takes none, past its "
        "limit of breakpoints, a provider without prompt caching); not sent",
    ),
    Code.CACHE_TTL_UNSUPPORTED: CodeInfo(
        "degrade", "a cache lifetime the provider does not take; sent with its default lifetime"
    ),
    Code.CONTROL_CLAMPED: CodeInfo("reject", "a call control outside the provider's range clamped into it"),
    Code.CONTROL_NOT_SENT: CodeInfo(
        "degrade",
        "a call control (sampling, tool choice, tier, state) the provider has no field for; not sent",
    ),
    Code.TOOL_CHOICE_NOT_SENT: CodeInfo(
        "degrade", "a tool choice the request or provider cannot carry not sent; the model chooses freely"
    ),
    Code.TOOL_CHOICE_WIDENED: CodeInfo(
        "degrade",
        "a named tool choice the provider cannot carry sent as 'required': any declared tool may be called",
    ),
    Code.TOOL_DUPLICATE: CodeInfo("reject", "a second definition of the same tool dropped"),
    Code.TOOL_ERROR_EMPTY_OUTPUT: CodeInfo(
        "reject", "an error result with no output sent with a text saying so"
    ),
    Code.TOOL_ID_MAPPED: CodeInfo(
        "reject", "a tool-call id invalid for the provider sent mapped, in call and result"
    ),
    Code.TOOL_ID_RENUMBERED: CodeInfo(
        "reject", "a tool-call id an earlier response used sent renumbered, in call and result"
    ),
    Code.TOOL_FILE_MOVED: CodeInfo(
        "degrade", "a tool result's file the result cannot hold sent right after the results"
    ),
    Code.TOOL_IMAGE_MOVED: CodeInfo(
        "degrade", "a tool result's image the result cannot hold sent right after the results"
    ),
    Code.TOOL_JSON_AS_TEXT: CodeInfo(
        "policy", "a structured tool result the provider takes only as text sent as its output_text"
    ),
    Code.TOOL_RESULT_ORDER_LOST: CodeInfo(
        "degrade",
        "a tool result whose text follows an image or file, on a wire that holds a result's text and files apart: the text goes first",
    ),
    Code.TOOL_NAME_MAPPED: CodeInfo(
        "reject", "a tool name outside the provider's name rule sent mapped (reversibly)"
    ),
    Code.TOOL_NAME_MISMATCH: CodeInfo(
        "reject", "a result naming another tool than its call sent with the call's name"
    ),
    Code.TOOL_RESULT_DUPLICATE: CodeInfo("reject", "a second result for the same call dropped"),
    Code.TOOL_RESULT_MISSING: CodeInfo(
        "reject", "a call with no result gets an error result saying it was not executed"
    ),
    Code.TOOL_RESULT_ORPHAN: CodeInfo(
        "reject", "a result answering no call of the preceding assistant turn dropped"
    ),
    Code.TOOL_RESULT_AFTER_TEXT: CodeInfo(
        "reject", "a result recorded after a later assistant turn moved up next to its call"
    ),
    Code.TOOL_RESULTS_MOVED: CodeInfo(
        "degrade", "user content between calls and their results moved after the results"
    ),
    Code.TOOL_RESULTS_REORDERED: CodeInfo("reject", "tool results not in call order sent in call order"),
    Code.TOOL_SCHEMA_DEGRADED: CodeInfo(
        "reject", "a tool schema the provider cannot take sent in a simpler form"
    ),
    Code.TOOL_STATUS_NOT_SENT: CodeInfo(
        "degrade", "the provider has no error flag; a result's status is carried by its text only"
    ),
    Code.TOOL_STRICT_NOT_SENT: CodeInfo(
        "degrade", "a tool's strict-schema flag the provider has no field for not sent"
    ),
    Code.TOOLS_DERIVED: CodeInfo(
        "reject", "tools called without a definition get permissive derived definitions"
    ),
    Code.TOOLS_NOT_DECLARED: CodeInfo(
        "policy",
        "tools the history calls but the request does not declare stay undeclared (the provider accepts the calls)",
    ),
}
