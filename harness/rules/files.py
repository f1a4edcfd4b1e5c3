"""File rules a schema cannot say: which files a wire part takes, names and counts, size limits.

Each rule carries its kind and the provider's own words where a 4xx or the docs show them.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from typing import Any

from harness.rules.base import Rule, RuleFinding, as_dict, as_list

__all__ = ["FILE_RULES"]

Json = dict[str, Any]

_DATA_URL = re.compile(r"data:([^;,]+)[^,]*,")


def _chat_file_parts(body: Json) -> Iterator[tuple[str, Json]]:
    for i, message in enumerate(as_list(body.get("messages"))):
        for j, part in enumerate(as_list(as_dict(message).get("content"))):
            if as_dict(part).get("type") == "file":
                yield f"messages/{i}/content/{j}", as_dict(part)


def _chat_file_pdf(provider: str, wire: str, body: Json, model: str | None) -> list[RuleFinding]:
    out: list[RuleFinding] = []
    for path, part in _chat_file_parts(body):
        file = as_dict(part.get("file"))
        data = file.get("file_data")
        match = _DATA_URL.match(data) if isinstance(data, str) else None
        if isinstance(data, str) and match is None:
            out.append(
                CHAT_FILE_PDF.finding(
                    f"{path}/file/file_data",
                    "file_data is not a base64 data URL: Chat Completions takes no file URL",
                    {"file_data": data[:60]},
                    "the API answers 400; send the bytes, a file_id, or use the Responses API's file_url",
                )
            )
        elif match is not None and match.group(1).lower() != "application/pdf":
            out.append(
                CHAT_FILE_PDF.finding(
                    f"{path}/file/file_data",
                    f"a '{match.group(1)}' file: Chat Completions accepts only PDF files as file content parts",
                    {"file_data": data[:60] if isinstance(data, str) else data},
                    "the API answers 400; send a text file's contents as a text part (file-text-inlined)",
                )
            )
        if isinstance(data, str) and not isinstance(file.get("filename"), str):
            out.append(
                CHAT_FILE_PDF.finding(
                    f"{path}/file",
                    f"Missing required parameter: '{path.replace('/', '.')}.file.file_id' (file_data without a "
                    "filename)",
                    {"file": {k: v for k, v in file.items() if k != "file_data"}},
                    "the API answers 400: inline file data needs its filename",
                )
            )
    return out


CHAT_FILE_PDF = Rule(
    "chat-file-part-pdf",
    ("openai-chat",),
    "reject",
    "a Chat `file` part carries a PDF, as a base64 data URL with its filename, or a file_id",
    (
        "https://developers.openai.com/api/docs/guides/file-inputs ('Chat Completions accepts only PDF "
        "files as file content parts'; 'External file URL (file_url) ... Not supported')",
        "openai SDK ChatCompletionContentPartParam.File (file_data, file_id, filename)",
        "traffic/pydantic-ai/models__test_openai__test_document_as_binary_content_input_with_tool.yaml#0 "
        "(a PDF data URL with filename, answered 200)",
        "https://github.com/openai/openai-agents-python/pull/1513 and "
        'https://github.com/langchain-ai/langchainjs/issues/9512 (file_data without filename: "400 Missing '
        "required parameter: 'messages[1].content[1].file.file_id'.\")",
    ),
    _chat_file_pdf,
    invariant="I12",
    hosts=("api.openai.com",),
)


#: Anthropic PDF support: "Maximum request size: 32MB"; "Maximum pages per request: 100".
_ANTHROPIC_REQUEST_BYTES = 32 * 1024 * 1024
_PAGE = re.compile(rb"/Type\s*/Page(?![s\w])")


def _anthropic_documents(body: Json) -> Iterator[tuple[str, Json]]:
    for i, message in enumerate(as_list(body.get("messages"))):
        for j, block in enumerate(as_list(as_dict(message).get("content"))):
            block = as_dict(block)
            if block.get("type") == "document":
                yield f"messages/{i}/content/{j}", block
            for k, inner in enumerate(
                as_list(block.get("content")) if block.get("type") == "tool_result" else []
            ):
                if as_dict(inner).get("type") == "document":
                    yield f"messages/{i}/content/{j}/content/{k}", as_dict(inner)


def _pdf_pages(data: str) -> int | None:
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return None
    return len(_PAGE.findall(raw))


def _anthropic_pdf_limits(provider: str, wire: str, body: Json, model: str | None) -> list[RuleFinding]:
    out: list[RuleFinding] = []
    inline = 0
    pages = 0
    first: str | None = None
    for path, block in _anthropic_documents(body):
        source = as_dict(block.get("source"))
        data = source.get("data")
        if source.get("type") == "base64" and isinstance(data, str):
            first = first or path
            inline += len(data)
            pages += _pdf_pages(data) or 0
    if inline > _ANTHROPIC_REQUEST_BYTES:
        out.append(
            ANTHROPIC_PDF_LIMITS.finding(
                first or "messages",
                f"{inline} bytes of base64 documents: over the 32MB request size",
                {"bytes": inline},
                "the API answers 413/400; send large PDFs by URL or file id",
            )
        )
    if pages > 100:
        out.append(
            ANTHROPIC_PDF_LIMITS.finding(
                first or "messages",
                f"{pages} PDF pages: over 'Maximum pages per request: 100'",
                {"pages": pages},
                "the API answers 400; split the document",
            )
        )
    return out


ANTHROPIC_PDF_LIMITS = Rule(
    "anthropic-pdf-limits",
    (),
    "reject",
    "base64 PDF documents stay within the request size (32MB) and 100 pages per request",
    (
        "https://docs.claude.com/en/docs/build-with-claude/pdf-support ('Maximum request size: 32MB', "
        "'Maximum pages per request: 100')",
    ),
    _anthropic_pdf_limits,
    invariant="I12",
    wires=("anthropic",),
)


#: "increased inline file size limits" to 100MB per request, PDFs 50MB when inline.
_GEMINI_INLINE_BYTES = 100 * 1024 * 1024
_GEMINI_INLINE_PDF_BYTES = 50 * 1024 * 1024


def _gemini_inline(body: Json) -> Iterator[tuple[str, Json]]:
    for i, content in enumerate(as_list(body.get("contents"))):
        for j, part in enumerate(as_list(as_dict(content).get("parts"))):
            part = as_dict(part)
            inline = as_dict(part.get("inlineData") or part.get("inline_data"))
            if inline:
                yield f"contents/{i}/parts/{j}/inlineData", inline
            response = as_dict(part.get("functionResponse") or part.get("function_response"))
            for k, inner in enumerate(as_list(response.get("parts"))):
                data = as_dict(as_dict(inner).get("inlineData") or as_dict(inner).get("inline_data"))
                if data:
                    yield f"contents/{i}/parts/{j}/functionResponse/parts/{k}/inlineData", data


def _gemini_inline_limit(provider: str, wire: str, body: Json, model: str | None) -> list[RuleFinding]:
    out: list[RuleFinding] = []
    total = 0
    for path, inline in _gemini_inline(body):
        data = inline.get("data")
        size = len(data) * 3 // 4 if isinstance(data, str) else 0
        total += size
        mime = str(inline.get("mimeType") or inline.get("mime_type") or "").lower()
        if mime == "application/pdf" and size > _GEMINI_INLINE_PDF_BYTES:
            out.append(
                GEMINI_INLINE_LIMIT.finding(
                    path, f"an inline PDF of {size} bytes: 'PDFs are limited to 50MB' inline", {"bytes": size},
                    "the API answers 400; upload it (Files API) or pass a URL",
                )
            )  # fmt: skip
    if total > _GEMINI_INLINE_BYTES:
        out.append(
            GEMINI_INLINE_LIMIT.finding(
                "contents", f"{total} bytes of inline data: over the 100MB inline limit", {"bytes": total},
                "the API answers 400; use the Files API, a URL or a registered gs:// object",
            )
        )  # fmt: skip
    return out


GEMINI_INLINE_LIMIT = Rule(
    "gemini-inline-data-limit",
    ("gemini",),
    "reject",
    "inline data stays within 100MB per request, an inline PDF within 50MB",
    (
        "https://ai.google.dev/gemini-api/docs/file-input-methods ('PDFs are limited to 50MB for this "
        "method'; the input method comparison table)",
        "https://blog.google/innovation-and-ai/technology/developers-tools/gemini-api-new-file-limits "
        "('increased inline file size limits')",
    ),
    _gemini_inline_limit,
    invariant="I12",
)


_BEDROCK_NAME = re.compile(r"[A-Za-z0-9_()\[\]\- ]{1,200}")


def _bedrock_documents(body: Json) -> Iterator[tuple[str, Json]]:
    for i, message in enumerate(as_list(body.get("messages"))):
        for j, block in enumerate(as_list(as_dict(message).get("content"))):
            block = as_dict(block)
            if "document" in block:
                yield f"messages/{i}/content/{j}/document", as_dict(block["document"])
            result = as_dict(block.get("toolResult"))
            for k, inner in enumerate(as_list(result.get("content"))):
                if "document" in as_dict(inner):
                    yield (
                        f"messages/{i}/content/{j}/toolResult/content/{k}/document",
                        as_dict(as_dict(inner)["document"]),
                    )


def _bedrock_document_name(provider: str, wire: str, body: Json, model: str | None) -> list[RuleFinding]:
    out: list[RuleFinding] = []
    for path, document in _bedrock_documents(body):
        name = document.get("name")
        if not isinstance(name, str) or _BEDROCK_NAME.fullmatch(name) is None or "  " in name:
            out.append(
                BEDROCK_DOCUMENT_NAME.finding(
                    f"{path}/name",
                    "The document file name can only contain alphanumeric characters, whitespace characters, "
                    "hyphens, parentheses, and square brackets. The name can't contain more than one "
                    "consecutive whitespace character.",
                    {"name": name},
                    "the API answers 400 ValidationException and the whole turn fails",
                )
            )
    return out


BEDROCK_DOCUMENT_NAME = Rule(
    "bedrock-document-name",
    ("bedrock",),
    "reject",
    "a document's name is 1-200 characters of letters, digits, single spaces, hyphens, parentheses, square "
    "brackets (underscores accepted)",
    (
        "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_DocumentBlock.html (name)",
        "https://github.com/simonw/llm-bedrock/issues/8 (ValidationException for 'attachment.pdf': 'The document "
        "file name can only contain alphanumeric characters, whitespace characters, hyphens, parentheses, and "
        "square brackets. The name can't contain more than one consecutive whitespace character.')",
        "https://github.com/aws-samples/generative-ai-use-cases/issues/1671 (probed live: underscores accepted, "
        "a full-width space refused)",
    ),
    _bedrock_document_name,
    invariant="I12",
)


def _bedrock_document_count(provider: str, wire: str, body: Json, model: str | None) -> list[RuleFinding]:
    documents = list(_bedrock_documents(body))
    if len(documents) <= 5:
        return []
    return [
        BEDROCK_DOCUMENT_COUNT.finding(
            documents[5][0],
            f"{len(documents)} documents in one request: Converse takes at most 5",
            {"documents": len(documents)},
            "the API answers 400 ValidationException; send fewer documents per request",
        )
    ]


BEDROCK_DOCUMENT_COUNT = Rule(
    "bedrock-document-count",
    ("bedrock",),
    "reject",
    "at most 5 documents per Converse request",
    (
        "https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference-call.html (content "
        "blocks: 'You can include up to 5 documents')",
    ),
    _bedrock_document_count,
    invariant="I12",
)


FILE_RULES: tuple[Rule, ...] = (
    CHAT_FILE_PDF,
    ANTHROPIC_PDF_LIMITS,
    GEMINI_INLINE_LIMIT,
    BEDROCK_DOCUMENT_NAME,
    BEDROCK_DOCUMENT_COUNT,
)
