"""The closed loop's accepted differences for the OpenAI-compatible dialects (part of the registry).

See ``harness.accepted.loop``.
"""

from __future__ import annotations

from harness.accepted.predicates import (
    client_retry_turn,
    in_recording,
    is_null,
    nonempty_string,
    think_block_rewrapped,
    think_tags_then_ours,
    value_is,
)
from harness.contract.accepted import Accepted

__all__ = ["LOOP_DIALECTS"]

LOOP_DIALECTS: tuple[Accepted, ...] = (
    Accepted(
        "cerebras-stream-false",
        judges=("closed-loop", "import-check"),
        provider="cerebras",
        where="stream",
        diff="missing",
        when=(value_is(False),),
        kind="equivalent",
        why="stream: false is the API default; our adapter sends stream only when streaming",
        evidence=(
            (
                "recorded stream: false accepted "
                "(traffic/pydantic-ai-more/models__test_cerebras__test_cerebras_model_simple.yaml#0); "
                "Cerebras API reference (inference-docs.cerebras.ai, chat completions): stream defaults to "
                "false"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "zai-stream-false",
        judges=("closed-loop", "import-check"),
        provider="zai",
        where="stream",
        diff="missing",
        when=(value_is(False),),
        kind="equivalent",
        why="stream: false is the API default; our adapter sends stream only when streaming",
        evidence=(
            (
                "recorded stream: false accepted "
                "(traffic/pydantic-ai-more/models__test_zai__test_zai_model_simple.yaml#0); Z.ai API "
                "reference (docs.z.ai, chat completion): stream defaults to false"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "groq-n-one",
        judges=("closed-loop", "import-check"),
        provider="groq",
        where="n",
        diff="missing",
        when=(value_is(1),),
        kind="equivalent",
        why=(
            "n: 1 (one choice) is the API default and the only value Groq accepts; CallParams has no n and "
            "our adapter never sends it"
        ),
        evidence=(
            (
                "n: 1 accepted: traffic/pydantic-ai-more/models__test_groq__test_extra_headers.yaml#0; "
                "Groq OpenAI compatibility docs (console.groq.com/docs/openai): n other than 1 is a 400, n "
                "defaults to 1"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "groq-tool-choice-auto",
        judges=("closed-loop", "import-check"),
        provider="groq",
        where="tool_choice",
        diff="missing",
        when=(value_is("auto"),),
        kind="equivalent",
        why=(
            "tool_choice 'auto' is the default when tools are given (the dialect follows the Chat "
            "Completions schema); we send none for tool_choice None"
        ),
        evidence=(
            (
                "recorded auto accepted: "
                "traffic/pydantic-ai-more/models__test_groq__test_tool_use_failed_error.yaml#1; Groq API "
                "reference (console.groq.com/docs/api-reference): tool_choice defaults to auto when tools "
                "are present"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "groq-empty-tool-description",
        judges=("closed-loop", "import-check"),
        provider="groq",
        where="tools[*].function.description",
        diff="missing",
        when=(value_is(""),),
        kind="equivalent",
        why="an empty description is the same as none; our adapter omits empty descriptions",
        evidence=(
            (
                "empty description accepted: "
                "traffic/pydantic-ai-more/models__test_groq__test_tool_use_failed_error.yaml#1; Groq API "
                "reference: tools[].function.description optional"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "groq-client-retry-turns",
        judges=("closed-loop",),
        provider="groq",
        where="messages[*]",
        diff="missing",
        when=(
            client_retry_turn(),
            in_recording("models__test_groq__test_tool_use_failed_error_streaming"),
        ),
        kind="artifact",
        why=(
            "after a response that ended in Groq's tool_use_failed error, pydantic-ai's agent loop writes "
            "the failed generation as an assistant call under an id it minted (pyd_ai_...) and its own "
            "validation error as that call's tool result: client content, not derivable from response 1 "
            "(an error event), so our history after it has neither. Only those two turns, only here"
        ),
        evidence=(
            (
                "cassettes/groq/models__test_groq__test_tool_use_failed_error_streaming.yaml#1 (accepted "
                "with both turns)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "groq-reasoning-as-think-tags",
        judges=("closed-loop",),
        provider="groq",
        where="messages[*].content",
        diff="missing",
        when=(
            think_tags_then_ours(),
            in_recording("models__test_groq__test_tool_use_failed_error_streaming"),
        ),
        kind="artifact",
        why=(
            "pydantic-ai replays the reasoning Groq returned as a <think>...</think> block in the "
            "assistant content; our adapter sends the turn's text only (the client's choice on an accepted "
            "request). Only one leading think block with nothing else is accepted, only here"
        ),
        evidence=(
            (
                "cassettes/groq/models__test_groq__test_tool_use_failed_error_streaming.yaml#2 (accepted "
                "with the think block)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "cerebras-reasoning-as-think-tags",
        judges=("closed-loop",),
        provider="cerebras",
        where="messages[*].content",
        diff="changed",
        when=(
            think_tags_then_ours(),
            in_recording("models__test_cerebras__test_cerebras_zai_reasoning_replayed_as_think_tags"),
        ),
        kind="artifact",
        why=(
            "pydantic-ai replays the reasoning Cerebras returned as a <think>...</think> block before the "
            "text (the cassette's name says so); our adapter sends the text only (the client's choice on "
            "an accepted request). Only one leading think block followed by exactly our text, only here"
        ),
        evidence=(
            (
                "cassettes/cerebras/models__test_cerebras__test_cerebras_zai_reasoning_replayed_as_think_tags.yaml#1 "
                "(accepted with the think block)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "huggingface-null-name",
        judges=("closed-loop", "import-check"),
        provider="huggingface",
        where="messages[*].name",
        diff="missing",
        when=(is_null(),),
        kind="equivalent",
        why=(
            "name: null is the field absent (the client serialises every optional field); our adapter "
            "sends name only with a value"
        ),
        evidence=(
            (
                "cassettes/huggingface/models__test_huggingface__test_hf_model_thinking_part.yaml#0 and #1 "
                "(null sent, accepted)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "huggingface-null-tool-calls",
        judges=("closed-loop", "import-check"),
        provider="huggingface",
        where="messages[*].tool_calls",
        diff="missing",
        when=(is_null(),),
        kind="equivalent",
        why=(
            "tool_calls: null is the field absent (the client serialises every optional field); our "
            "adapter sends tool_calls only with a value"
        ),
        evidence=(
            (
                "cassettes/huggingface/models__test_huggingface__test_hf_model_thinking_part.yaml#0 and #1 "
                "(null sent, accepted)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "huggingface-stream-false",
        judges=("closed-loop", "import-check"),
        provider="huggingface",
        where="stream",
        diff="missing",
        when=(value_is(False),),
        kind="equivalent",
        why="stream: false is the API default; our adapter sends stream only when streaming",
        evidence=(
            (
                "recorded stream: false accepted "
                "(traffic/pydantic-ai-more/models__test_huggingface__test_max_completion_tokens.yaml#0); "
                "Hugging Face Inference Providers chat completion reference: stream defaults to false"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "huggingface-empty-tools",
        judges=("closed-loop", "import-check"),
        provider="huggingface",
        where="tools",
        diff="missing",
        when=(value_is([]),),
        kind="equivalent",
        why=(
            "an empty tools list offers no tool, the same as none; our adapter sends tools only when there "
            "are some"
        ),
        evidence=(
            (
                "tools: [] accepted: "
                "traffic/pydantic-ai-more/models__test_huggingface__test_max_completion_tokens.yaml#0; "
                "tools is optional (Hugging Face Inference Providers chat completion reference)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "huggingface-think-tags-rewrapped",
        judges=("closed-loop",),
        provider="huggingface",
        where="messages[*].content",
        diff="changed",
        when=(
            think_block_rewrapped(),
            in_recording("models__test_huggingface__test_hf_model_thinking_part"),
        ),
        kind="artifact",
        why=(
            "the model answered '<think>\\n...\\n</think>\\n...' in content and our adapter replays it "
            "byte for byte; pydantic-ai split it into thinking and text and re-wrapped them with extra "
            "newlines around the tags. Only newlines next to the tags may differ; think text and answer "
            "are compared exactly; only here"
        ),
        evidence=(
            (
                "cassettes/huggingface/models__test_huggingface__test_hf_model_thinking_part.yaml#1 "
                "(re-wrapped form accepted; response 1 holds ours)"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    # ---------------------------------------------------------------- cohere
    Accepted(
        "cohere-stream-false",
        judges=("closed-loop", "import-check"),
        provider="cohere",
        where="stream",
        diff="missing",
        when=(value_is(False),),
        kind="equivalent",
        why=(
            "stream: false is the non-streaming call (the cohere SDK's chat writes stream: false, "
            "chat_stream true); our adapter sends stream only when streaming"
        ),
        evidence=(
            (
                "recorded stream: false accepted (traffic/pydantic-ai-more/models__test_cohere__test_request_"
                "simple_success_with_vcr.yaml#0); the cohere SDK's RawV2Client.chat writes stream: false"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
    Accepted(
        "cohere-tool-plan-sent-back",
        judges=("closed-loop",),
        provider="cohere",
        where="messages[*].tool_plan",
        diff="extra",
        when=(
            nonempty_string(),
            in_recording("models__test_tool_choice_matrix__test_tool_choice_matrix[auto-cohere]"),
        ),
        kind="equivalent",
        why=(
            "our adapter sends the model's tool_plan back with its tool_calls, as Cohere's tool-use guide "
            "does; pydantic-ai left it out. The plan is the text the model wrote before its calls, replayed "
            "from the recorded response; only a string, only in this recording"
        ),
        evidence=(
            (
                "cassettes/cohere/models__test_tool_choice_matrix__test_tool_choice_matrix[auto-cohere].yaml#1 "
                "(without it, accepted); https://docs.cohere.com/v2/docs/tool-use (messages.append({'role': "
                "'assistant', 'tool_plan': ..., 'tool_calls': ...}))"
            ),
        ),
        still_needed="tests/test_accepted_needed.py::test_each_closed_loop_entry_is_needed",
    ),
)
