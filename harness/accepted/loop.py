"""The closed loop's accepted differences (part of the registry): a recorded request N+1 against
ours rebuilt from response N.

Each names one provider, a JSON path glob, the kind of difference (``missing``, ``extra``,
``changed``) and, almost always, a predicate on the two values. Content (text, tool ids,
arguments, signatures, tool result text, order of messages and blocks) is never allowed to
differ. Entries judged by import-check too hold for a single request (defaults, shorthands,
recorder spellings).
"""

from __future__ import annotations

from harness.accepted.predicates import (
    ascii_quotes_folded,
    function_response_key,
    in_recording,
    is_null,
    minted_pair,
    recorder_trailing_space,
    same_signature_bytes,
    snake_case_keys,
    string_is_one_block,
    value_is,
)
from harness.contract.accepted import Accepted

__all__ = ["LOOP"]

LOOP: tuple[Accepted, ...] = (
    Accepted(
        "anthropic-tool-choice-auto",
        judges=("closed-loop", "import-check"),
        provider="anthropic",
        where="tool_choice",
        diff="missing",
        when=(value_is({"type": "auto"}),),
        kind="equivalent",
        why=(
            "the recording client sent tool_choice {type: auto}, which is the API default when tools are "
            "given; we send none for tool_choice None (auto)"
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "anthropic-empty-tool-description",
        judges=("closed-loop", "import-check"),
        provider="anthropic",
        where="tools[*].description",
        diff="missing",
        when=(value_is(""),),
        kind="equivalent",
        why=(
            "an empty description is the same as none; our adapter omits empty descriptions "
            "(Tool.description is optional)"
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "anthropic-is-error-false",
        judges=("closed-loop", "import-check"),
        provider="anthropic",
        where="messages[*].content[*].is_error",
        diff="missing",
        when=(value_is(False),),
        kind="equivalent",
        why="is_error: false is the API default; our adapter sends is_error only for error/aborted results",
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "anthropic-tool-result-string-content",
        judges=("closed-loop", "import-check"),
        provider="anthropic",
        where="messages[*].content[*].content",
        diff="changed",
        when=(string_is_one_block("text"),),
        kind="equivalent",
        why=(
            "a tool_result's string content is shorthand for one text block "
            "(RequestToolResultBlock.content is string | block[]); ours sends the same text as [{type: "
            "text}]"
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "anthropic-llm-recorder-trailing-space",
        judges=("closed-loop",),
        provider="anthropic",
        where="messages[*].content[*].text",
        diff="changed",
        when=(
            recorder_trailing_space(),
            in_recording("llmanthropic__haiku35_parallel_tool_use_roundtrip"),
        ),
        kind="artifact",
        why=(
            "recorder artifact, not content: llm-anthropic yields an extra ' ' after a tool-using response "
            "(llm_anthropic.py: `yield \" \"`, 'Avoid can have dragons.Now that I bug') and replays it; "
            "the stream never sent it. Only exactly one appended space is accepted, only in this recording"
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "chat-tool-choice-auto",
        judges=("closed-loop", "import-check"),
        provider="openai-chat",
        where="tool_choice",
        diff="missing",
        when=(value_is("auto"),),
        kind="equivalent",
        why="tool_choice 'auto' is the API default when tools are given; we send none for tool_choice None",
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "chat-empty-tool-description",
        judges=("closed-loop", "import-check"),
        provider="openai-chat",
        where="tools[*].function.description",
        diff="missing",
        when=(value_is(""),),
        kind="equivalent",
        why="an empty description is the same as none; our adapter omits empty descriptions",
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "chat-assistant-null-content",
        judges=("closed-loop", "import-check"),
        provider="openai-chat",
        where="messages[*].content",
        diff="missing",
        when=(is_null(),),
        kind="equivalent",
        why=(
            "content: null on an assistant turn with tool_calls is the same as no content; our adapter "
            "omits it"
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "responses-tool-choice-auto",
        judges=("closed-loop", "import-check"),
        provider="openai-responses",
        where="tool_choice",
        diff="missing",
        when=(value_is("auto"),),
        kind="equivalent",
        why="tool_choice 'auto' is the API default; we send none for tool_choice None",
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "responses-null-tool-description",
        judges=("closed-loop", "import-check"),
        provider="openai-responses",
        where="tools[*].description",
        diff="missing",
        when=(is_null(),),
        kind="equivalent",
        why="description: null is the same as none; our adapter omits empty descriptions",
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "responses-store-false",
        judges=("closed-loop", "import-check"),
        provider="openai-responses",
        where="store",
        diff="extra",
        when=(value_is(False),),
        kind="policy",
        why=(
            "our adapter replays statelessly (store: false, documented decision); the recording used the "
            "default store: true. Reasoning items carry encrypted_content either way"
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "responses-message-type",
        judges=("closed-loop", "import-check"),
        provider="openai-responses",
        where="input[*].type",
        diff="extra",
        when=(value_is("message"),),
        kind="equivalent",
        why="an input item without type is an EasyInputMessage; we spell out type: message",
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "responses-user-content-string",
        judges=("closed-loop", "import-check"),
        provider="openai-responses",
        where="input[*].content",
        diff="changed",
        when=(string_is_one_block("input_text"),),
        kind="equivalent",
        why=(
            "EasyInputMessage string content is shorthand for one input_text part; ours sends the same "
            "text as [{type: input_text}]"
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "responses-output-text-logprobs",
        judges=("closed-loop", "import-check"),
        provider="openai-responses",
        where="input[*].content[*].logprobs",
        diff="extra",
        when=(value_is([]),),
        kind="policy",
        why=(
            "our adapter adds logprobs: [] to replayed output_text (the spec requires it; the API echoes it)"
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "responses-recorded-ascii-quotes",
        judges=("closed-loop",),
        provider="openai-responses",
        where="input[2].content[0].text",
        diff="changed",
        when=(
            ascii_quotes_folded(),
            in_recording("pai__gpt55_reasoning_function_call_phase_roundtrip"),
        ),
        kind="artifact",
        why=(
            "recording edit, not content: the gpt-5.5 stream sent curly quotes (U+2019, U+201C, U+201D) "
            "and our request replays them byte for byte; the recorded request 2 has them folded to ASCII "
            "(verified upstream). Only that folding is accepted, only in this recording and at this path"
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "gemini-response-modalities-text",
        judges=("closed-loop", "import-check"),
        provider="gemini",
        where="generationConfig.responseModalities",
        diff="missing",
        when=(value_is(["TEXT"]),),
        kind="equivalent",
        why="['TEXT'] is the default output modality of text models; CallParams has no modalities",
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "gemini-snake-case-field",
        judges=("closed-loop", "import-check"),
        provider="gemini",
        where="tools[*].functionDeclarations[*]",
        diff="changed",
        when=(snake_case_keys(),),
        kind="equivalent",
        why=(
            "the recording client spelled a proto field snake_case (parameters_json_schema); Gemini's JSON "
            "accepts snake_case and lowerCamel alike and ours sends lowerCamel; accepted only when the "
            "declaration is otherwise identical"
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "gemini-minted-call-id",
        judges=("closed-loop",),
        provider="gemini",
        where="contents[*].parts[*].{functionCall,functionResponse}.id",
        diff="changed",
        when=(minted_pair(),),
        kind="equivalent",
        why=(
            "Gemini sent no functionCall.id; the recording client (pydantic-ai) minted one and our parser "
            "mints its own (call_<responseId>_<n>), consistently in call and response. Accepted only for "
            "that exact pair of minted ids"
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "gemini-signature-base64url",
        judges=("closed-loop", "import-check"),
        provider="gemini",
        where="contents[*].parts[*].thoughtSignature",
        diff="changed",
        when=(same_signature_bytes(),),
        kind="equivalent",
        why=(
            "Gemini streams thoughtSignature in standard base64 and the recording client re-sent it "
            "base64url; the decoded bytes are identical (both spellings are accepted)"
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "gemini-function-response-key",
        judges=("closed-loop", "import-check"),
        provider="gemini",
        where="contents[*].parts[*].functionResponse.response",
        diff="changed",
        when=(function_response_key(),),
        kind="equivalent",
        why=(
            "FunctionResponse.response is free-form JSON; pydantic-ai wraps the result as return_value, "
            "ours uses the documented 'output' key. The value must be identical"
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "openrouter-stream-options",
        judges=("closed-loop", "import-check"),
        provider="openrouter",
        where="stream_options",
        diff="missing",
        when=(value_is({"include_usage": True}),),
        kind="policy",
        why="OpenRouter always sends usage; our adapter leaves out stream_options (documented decision)",
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "openrouter-stream-false",
        judges=("closed-loop", "import-check"),
        provider="openrouter",
        where="stream",
        diff="missing",
        when=(value_is(False),),
        kind="equivalent",
        why="stream: false is the default; our adapter sends stream only when streaming",
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "bedrock-tool-result-success",
        judges=("closed-loop", "import-check"),
        provider="bedrock",
        where="messages[*].content[*].toolResult.status",
        diff="missing",
        when=(value_is("success"),),
        kind="equivalent",
        why=(
            "status: success is the meaning of a toolResult without status (ToolResultBlock.status is "
            "optional, 'Required: No', in the Converse API reference); we send status only for errors"
        ),
        evidence=(
            (
                "cassettes/bedrock/models__test_bedrock__test_bedrock_model_iter_stream.yaml#1 (success "
                "sent, accepted); Converse API reference, ToolResultBlock: status Required: No"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
)
