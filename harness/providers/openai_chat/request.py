"""OpenAI Chat Completions input adapter (provider id ``openai-chat``).

Maps a prepared canonical history to a ``POST /v1/chat/completions`` body
(https://platform.openai.com/docs/api-reference/chat/create; OpenAPI schema
``CreateChatCompletionRequest``, SDK type ``CompletionCreateParamsStreaming``).
The messages, tools and limits come from the Chat Completions core
(``harness.mapping.chat_completions``), which OpenRouter builds on too.

Decisions (where DESIGN.md left room):

- ``params.model`` None -> ``DEFAULT_MODEL`` (``gpt-4.1-mini``, a current general chat model).
- System prompt: one ``system`` message first, its entries joined with a blank line. Not
  ``developer`` even for reasoning models: OpenAI maps ``system`` to ``developer`` for
  o-series/gpt-5 itself, while gateways speaking this API reject ``developer`` (field
  lesson 7); ``system`` works everywhere.
- Content rule (user, tool): a string when the message is exactly one text part, else an
  array of ``text`` / ``image_url`` parts. The rule reads only the message itself, so the
  same canonical message renders the same bytes whatever follows (I9).
- Images: http(s) URLs and base64 ``image/*`` data URLs both go as ``image_url.url``;
  anything else is dropped (``image-url-unsupported``); files on disk are never read
  (``image-file-not-inlined``).
- Assistant: text parts concatenated into one ``content`` string (a streamed reply is one
  text); ``content`` omitted when the turn is only tool calls (the spec requires content
  "unless tool_calls is specified"). ``tool_calls[].function.arguments`` is
  ``arguments_json`` verbatim. Chat has no reasoning field: every thinking part is dropped
  (``thinking-unsupported``), never re-sent as text (field lesson 1). Images cannot be
  replayed in assistant content (``assistant-image-dropped``). An assistant turn left with
  neither text nor tool calls is dropped (``empty-message``).
- Tool call ids: at most 40 characters (OpenAI rejects longer ``tool_calls[].id`` with
  ``string_above_max_length``; field lesson 6); longer ids are mapped consistently.
- Pieces of one response stored as adjacent assistant messages (``WireAssistant.continues``,
  seed 001) become one assistant message (``merge_assistant``): Chat requires the tool
  messages to follow the one message holding the ``tool_calls`` they answer.
- Tool results: ``{"role": "tool", "tool_call_id", "content"}`` with ``output_text`` as
  content. Developer text appended to a result stays INSIDE the tool message as extra
  ``text`` parts (the design says developer parts join the preceding tool message; a
  separate user message would make it a message of its own). Chat tool messages take
  text only, so the result's images and developer images go in one ``user`` message right
  after the run of tool messages (``tool-image-moved``). Chat has no error flag: the text
  is sent unchanged (it already says what happened) and a ``tool-status-not-sent``
  warning records the lost status.
- Params: ``max_completion_tokens`` (``max_tokens`` is deprecated), ``stream`` plus
  ``stream_options.include_usage`` (usage arrives only when asked for), function tools
  (``description`` only when non-empty), ``reasoning_effort`` from ``thinking.effort``
  only when thinking is enabled and the model is not a known non-reasoning model
  (``gpt-4*``, ``gpt-3.5*``, ``chatgpt-4o*``: OpenAI rejects reasoning parameters there;
  see ``accepts_reasoning``), ``temperature`` as given. Chat has no thinking budget and
  no explicit "off": ``thinking-param-ignored`` says so.

Warning codes emitted here (besides those from ``prepare()``): image-file-not-inlined,
image-url-unsupported, assistant-image-dropped, thinking-unsupported, tool-image-moved,
tool-status-not-sent, empty-message, thinking-param-ignored.
"""

from __future__ import annotations

from collections.abc import Sequence

from harness.contract.rendered import Rendered
from harness.contract.warning_codes import Code
from harness.mapping.chat_completions import JSON, base_body, warn_thinking
from harness.mapping.prepare import prepare
from harness.mapping.wire import ThinkingUnit, Warnings, WireAssistant
from harness.model import HistoryEvent
from harness.params import CallParams, ThinkingParams
from harness.providers.openai_chat.profile import DEFAULT_MODEL, ID_POLICY, TOOL_NAMES, accepts_reasoning

__all__ = [
    "ADAPTER",
    "DEFAULT_MODEL",
    "PROVIDER_ID",
    "OpenAIChatAdapter",
    "drop_thinking",
    "reasoning_effort",
]

PROVIDER_ID = "openai-chat"


class OpenAIChatAdapter:
    provider: str = PROVIDER_ID

    def render(self, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        prepared = prepare(history, params, PROVIDER_ID, ID_POLICY, TOOL_NAMES)
        warnings = prepared.warnings
        body = base_body(prepared, params, params.model or DEFAULT_MODEL, drop_thinking)
        if params.stream:
            # ChatCompletionStreamOptions: the final usage chunk only comes when asked for.
            body["stream_options"] = {"include_usage": True}
        effort = reasoning_effort(params.thinking, warnings, params.model or DEFAULT_MODEL)
        if effort is not None:
            body["reasoning_effort"] = effort
        return Rendered(body, list(warnings))


ADAPTER = OpenAIChatAdapter()


def reasoning_effort(thinking: ThinkingParams | None, warnings: Warnings, model: str) -> str | None:
    """CreateChatCompletionRequest.reasoning_effort (docs: guides/reasoning); Chat has no budget."""
    if thinking is None:
        return None
    if thinking.enabled and thinking.effort is not None and not accepts_reasoning(model):
        warnings.add(
            None,
            None,
            None,
            Code.THINKING_PARAM_IGNORED,
            f"model '{model}' is not a reasoning model and rejects reasoning_effort; not sent",
        )
        return None
    if not thinking.enabled:
        warnings.add(
            None,
            None,
            None,
            Code.THINKING_PARAM_IGNORED,
            "Chat Completions has no switch to turn reasoning off; reasoning_effort not sent",
        )
        return None
    if thinking.effort is None and thinking.budget_tokens is not None:
        warnings.add(
            None,
            None,
            None,
            Code.THINKING_BUDGET_IGNORED,
            "Chat Completions has no reasoning token budget; budget_tokens ignored (set effort instead)",
        )
    return thinking.effort


def drop_thinking(item: WireAssistant, units: list[ThinkingUnit], warnings: Warnings) -> JSON:
    """Chat Completions has no reasoning field on input: every thinking part is dropped, with a warning."""
    warn_thinking(
        item.index, units, warnings, Code.THINKING_UNSUPPORTED, "Chat Completions cannot carry reasoning"
    )
    return {}
