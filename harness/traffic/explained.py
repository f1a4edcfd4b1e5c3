"""Why a recorded 4xx cannot be caught by a check on the request body (a small reviewed table).

A rejection is "classified" here only when the request body alone cannot show the
problem: the model lacks a capability, the model does not exist, the key or quota is
the issue. Matched by the API's own error text (so a new cassette with the same cause
is classified too), or by HTTP status for auth and quota. Anything else that a check
does not catch is a missing check: add the check, not a row here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["EXPLANATIONS", "Explanation", "explain"]


@dataclass(frozen=True)
class Explanation:
    category: str  # model-capability | model-output | unknown-model | remote-resource | auth | quota
    error: str  # regex searched in the response body, "" for status-only rows
    reason: str
    statuses: tuple[int, ...] = ()


EXPLANATIONS: tuple[Explanation, ...] = (
    Explanation(
        "unknown-model",
        r"model_not_found|does not exist|is not found for API version",
        "the model id does not exist (or the key has no access): a body check cannot know the catalogue",
    ),
    Explanation(
        "unknown-model",
        r"Publisher Model `[^`]*` not found|\"not_found_error\".{0,80}\"message\":\s*\"model: ",
        "the model id does not exist: Vertex AI's 404 'Publisher Model ... not found', Anthropic's 404 "
        "not_found_error 'model: NAME' (traffic/clients2/otel-python-contrib/instrumentation-genai/"
        "opentelemetry-instrumentation-vertexai/tests/cassettes/test_generate_content_missing_model.yaml#0)",
    ),
    Explanation(
        "remote-resource",
        r"Error while downloading https?://",
        "the API could not download an image the body names by URL (OpenAI: 'Error while downloading "
        "URL'): a property of the remote resource, not of the body (traffic/clients2/openllmetry/packages/"
        "opentelemetry-instrumentation-openai/tests/traces/cassettes/test_vision/test_vision.yaml#2)",
    ),
    Explanation(
        "model-capability",
        r"does not support effort level",
        "the effort level is valid on the wire but this model supports a subset (Anthropic)",
    ),
    Explanation(
        "model-capability",
        r"does not support '(system|developer)' with this model",
        "o1-mini takes neither a system nor a developer message; other models do",
    ),
    Explanation(
        "model-capability",
        r"Web search options not supported with this model",
        "web_search_options is valid for search-preview models only",
    ),
    Explanation(
        "model-capability",
        r"Content blocks are expected to be either text or image_url type",
        "input_audio parts are valid Chat wire but this model (gpt-5-mini) takes no audio",
    ),
    Explanation(
        "model-capability",
        r"The file type you uploaded is not supported",
        "an input_file by URL whose file type (audio) the endpoint does not read; valid wire",
    ),
    Explanation(
        "model-capability",
        r"Expected a base64-encoded data URL with a valid file MIME type",
        "input_file data URL with an audio MIME type: the file input reads documents, not audio",
    ),
    # AWS Bedrock Converse (the model id is in the URL, not the body; each row cites its recording
    # under traffic/pydantic-ai-more/).
    Explanation(
        "unknown-model",
        r"The provided model identifier is invalid",
        "Bedrock: no such model id (cassettes__test_model_name_suggestions__test_model_name_suggestion[bedrock].yaml#0)",
    ),
    Explanation(
        "model-capability",
        r"This model doesn't support the (s3Uri field|video content block)",
        "Bedrock: Claude takes no S3 sources and no video; valid Converse, which Nova accepts "
        "(..._matrix[direct-uploaded_file-image-bedrock_claude].yaml#1 vs ..._matrix[direct-uploaded_file-image-bedrock_nova].yaml#1)",
    ),
    Explanation(
        "model-capability",
        r"extraneous key \[toolResult\] is not permitted",
        "Bedrock: Nova rejects a toolResult holding a video block, valid Converse "
        "(..._matrix[direct-uploaded_file-video-bedrock_nova].yaml#1)",
    ),
    Explanation(
        "model-capability",
        r"document\.source\.type: Field required",
        "Bedrock: Claude cannot take an S3 document (no Anthropic source type for it), valid Converse "
        "(..._matrix[tool_return_content-uploaded_file-document-bedrock_claude].yaml#1)",
    ),
    Explanation(
        "remote-resource",
        r"Cannot fetch content from the provided URL",
        "the API could not fetch a file the body names by URL (robots.txt, reachability: Vertex AI): "
        "a property of the remote resource, not of the body "
        "(traffic/pydantic-ai-more/models__test_multimodal_tool_returns__test_model_sees_multiple_images[google_vertex].yaml#1)",
    ),
    Explanation(
        "model-output",
        r'"code":\s*"tool_use_failed"',
        "Groq checks the model's own generation (a tool call that breaks its schema, or no call when "
        "one is required) and answers 400 tool_use_failed with the failed_generation: the request was valid "
        "(the retry with the same tools is accepted: models__test_groq__test_tool_use_failed_error*.yaml#1)",
    ),
    Explanation("auth", "", "authentication or permission: not a property of the body", (401, 403)),
    Explanation("quota", "", "rate limit or quota: not a property of the body", (429,)),
)


def explain(status: int, response: bytes) -> Explanation | None:
    """The row explaining this rejection, if any."""
    text = response.decode("utf-8", errors="replace")
    for row in EXPLANATIONS:
        if row.statuses and status in row.statuses:
            return row
        if row.error and re.search(row.error, text):
            return row
    return None
