"""Scenarios: documents, audio, video and file references in user turns and tool results, and
structured tool results, on every provider (each maps them natively or warns by name)."""

from __future__ import annotations

import base64

from pydantic import JsonValue

from harness.model import FilePart, ImageURLPart
from harness.params import CallParams
from harness.scenarios.corpus.common import READ_FILE, STR
from harness.scenarios.dsl import Body, assistant, call, result, scenario, tool, usage, user

# Small real bodies (base64), written here (synthetic): a PDF header, UTF-8 text, an MP3 frame
# header, an MP4 ftyp box. Adapters never decode media, so a header is all a request needs.
PDF = "JVBERi0xLjQKJcOkw7zDtsOfCg=="
NOTES_TXT = "TWVldGluZyBub3Rlczogc2hpcCBvbiBGcmlkYXku"  # "Meeting notes: ship on Friday."
MP3 = "//uQxAAAAAAAAAAAAAAAAAAAAAAA"
MP4 = "AAAAGGZ0eXBtcDQyAAAAAG1wNDJpc29t"

GET_REPORT = tool("get_report", "Fetch a report as a PDF.", {"name": STR}, ["name"])
RUN_TESTS = tool("run_tests", "Run the test suite under a path.", {"path": STR}, ["path"])
WEATHER = tool("get_weather", "Current weather for a city, as structured data.", {"city": STR}, ["city"])


@scenario("files", "file-document", "file-text")
def files_documents_in_user_turn() -> Body:
    """A PDF (bytes, with a filename and title) and a text document in one user turn: document blocks, file parts or input_file where the provider takes them, the text inlined elsewhere."""
    return CallParams(max_tokens=1024), [
        user(
            "Summarise the report and the notes.",
            FilePart(media_type="application/pdf", data=PDF, filename="q3-report.pdf", title="Q3 report"),
            FilePart(media_type="text/plain", data=NOTES_TXT, filename="notes.txt"),
        ),
    ]


@scenario("files", "file-audio", "file-video")
def files_audio_and_video() -> Body:
    """An MP3 recording and an MP4 clip as bytes, and a YouTube URL: native on Gemini, audio on Chat (input_audio) and OpenRouter, video on Bedrock; warned (file-kind-unsupported / file-source-unsupported) elsewhere."""
    return CallParams(max_tokens=1024), [
        user(
            "Transcribe the recording and describe both videos.",
            FilePart(media_type="audio/mpeg", data=MP3, filename="memo.mp3"),
            FilePart(media_type="video/mp4", data=MP4, filename="clip.mp4"),
            FilePart(media_type="video/mp4", url="https://youtu.be/lCdaVNyHtjU"),
        ),
    ]


@scenario("files", "file-document", "file-reference")
def files_references() -> Body:
    """Files by reference: an OpenAI file id, an Anthropic file id, a gs:// and an s3:// URI and a PDF URL; each goes only where it means something (file-id-foreign, file-source-unsupported elsewhere)."""
    return CallParams(max_tokens=1024), [
        user(
            "Compare these documents.",
            FilePart(media_type="application/pdf", file_id="file-6F2ksmvXxt4VdoqmHRw6kL", provider="openai"),
            FilePart(
                media_type="application/pdf", file_id="file_011CNha8iCJcU1wXNR6q4V8w", provider="anthropic"
            ),
            FilePart(media_type="application/pdf", uri="gs://example-bucket/contract.pdf"),
            FilePart(media_type="application/pdf", uri="s3://example-bucket/contract-v2.pdf"),
            FilePart(media_type="application/pdf", url="https://example.com/whitepaper.pdf"),
        ),
    ]


@scenario("files", "file-document", "tools", "tools-given", "tool-single", "tool-result-file")
def files_pdf_in_tool_result() -> Body:
    """A tool returns a PDF: inside the result where the provider takes it (Anthropic tool_result, Responses function_call_output, Bedrock toolResult, Gemini 3 functionResponse.parts), else right after the results (tool-file-moved) or dropped with its warning."""
    fetch = call("call_report_1", "get_report", {"name": "q3"})
    return CallParams(max_tokens=1024, tools=[GET_REPORT, READ_FILE]), [
        user("Get the Q3 report and tell me the revenue."),
        assistant(fetch, stop="tool_use", usage=usage(180, 22)),
        result(
            fetch,
            "Report attached.",
            images=[FilePart(media_type="application/pdf", data=PDF, filename="q3-report.pdf")],
        ),
    ]


@scenario(
    "files", "tools", "tools-given", "tool-parallel-in-order", "tool-result-structured", "tool-result-file"
)
def files_mixed_tool_results() -> Body:
    """Two parallel results: a structured value (Gemini's response object, Bedrock's json block, text elsewhere with tool-json-as-text) and a text document beside its output text."""
    weather = call("call_weather_1", "get_weather", {"city": "Oslo"})
    notes = call("call_read_1", "read_file", {"path": "notes.txt"})
    value: JsonValue = {"city": "Oslo", "temperature": 21, "unit": "C", "conditions": ["clear", "light wind"]}
    return CallParams(max_tokens=1024, tools=[WEATHER, READ_FILE]), [
        user("What's the weather in Oslo, and what do my notes say?"),
        assistant(weather, notes, stop="tool_use", usage=usage(240, 40)),
        result(
            weather,
            '{"city": "Oslo", "temperature": 21, "unit": "C", "conditions": ["clear", "light wind"]}',
            output_json=value,
        ),
        result(
            notes,
            "notes.txt (attached)",
            images=[FilePart(media_type="text/plain", data=NOTES_TXT, filename="notes.txt")],
        ),
    ]


@scenario("tools", "tools-given", "tool-single", "tool-result-text-blocks")
def files_tool_result_text_blocks() -> Body:
    """A tool result given as two text blocks (a command's stdout and stderr): sent as two blocks on Anthropic (tool_result content), Bedrock (toolResult content) and Responses (function_call_output input_text list); as their concatenation (output_text) where a tool result is one string."""
    run = call("call_run_1", "run_tests", {"path": "tests/"})
    stdout = "stdout:\n12 passed, 1 failed in 0.42s\n"
    stderr = "stderr:\nFAILED tests/test_http.py::test_retry - TimeoutError\n"
    return CallParams(max_tokens=1024, tools=[RUN_TESTS]), [
        user("Run the tests and tell me what failed."),
        assistant(run, stop="tool_use", usage=usage(150, 20)),
        result(run, stdout + stderr, blocks=[stdout, stderr]),
    ]


@scenario("files", "file-video", "file-video-metadata")
def files_video_metadata() -> Body:
    """A YouTube video sampled at 0.2 frames per second (Gemini's videoMetadata, as recorded accepted by pydantic-ai's test_google_model_youtube_video_url_input_with_vendor_metadata): native on Gemini; elsewhere the video goes (or is dropped) as usual and file-video-metadata-dropped names the lost setting."""
    return CallParams(max_tokens=1024), [
        user(
            "Explain me this video in a few sentences",
            FilePart(media_type="video/mp4", url="https://youtu.be/lCdaVNyHtjU", video_metadata={"fps": 0.2}),
        ),
    ]


#: The pixel the tool-result scenarios show (a 1x1 PNG), as a data URL.
PIXEL_PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
SCREENSHOT = tool("take_screenshot", "Screenshot a web page.", {"url": STR}, ["url"])


@scenario("tools", "tools-given", "tool-single", "images", "tool-result-image", "tool-result-interleaved")
def files_tool_result_interleaved() -> Body:
    """A tool result whose text follows its image (pydantic-ai's test_mixed_content_ordering, recorded accepted on Anthropic and Bedrock): the order kept on Anthropic (tool_result content), Bedrock (toolResult content) and Responses (function_call_output list); tool-result-order-lost where a result's text and files go apart (Chat dialects, Cohere, Gemini)."""
    shot = call("call_shot_1", "take_screenshot", {"url": "https://example.com"})
    before, after = "Here is the screenshot:", "The page loaded in 0.8s."
    return CallParams(max_tokens=1024, tools=[SCREENSHOT]), [
        user("Take a screenshot of example.com and describe it."),
        assistant(shot, stop="tool_use", usage=usage(150, 20)),
        result(
            shot,
            before + after,
            blocks=[before, after],
            images=[ImageURLPart(url=PIXEL_PNG)],
            positions=[1],
        ),
    ]


@scenario("files", "file-text", "file-document-options")
def files_document_options() -> Body:
    """A custom-content document (two text blocks, citations enabled, with a title and context; recorded accepted: LangChain's test_citations on Anthropic): an Anthropic document with source type content, a Bedrock DocumentBlock with source.content; elsewhere the text document goes as usual and file-document-options-dropped names what is lost."""
    chunks = ["The grass is green", "The sky is blue"]
    data = base64.b64encode("".join(chunks).encode()).decode()
    return CallParams(max_tokens=1024), [
        user(
            FilePart(
                media_type="text/plain",
                data=data,
                text_chunks=[len(c) for c in chunks],
                title="Colours",
                context="Observations from a field trip.",
                citations=True,
            ),
            "What color is the grass and sky?",
        ),
    ]


@scenario("files", "file-reference", "file-container")
def files_container_upload() -> Body:
    """A file uploaded into the code-execution container by its Anthropic file id (container_upload, recorded accepted: pydantic-ai's test_code_execution_files_vcr): native on Anthropic; file-container-unsupported elsewhere."""
    return CallParams(max_tokens=1024), [
        user(
            "Load the CSV and tell me how many rows it has.",
            FilePart(
                media_type="application/octet-stream",
                file_id="file_011CcQH3nbP5brKi4DsVcj7j",
                provider="anthropic",
                purpose="container",
            ),
        ),
    ]
