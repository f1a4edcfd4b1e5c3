"""The ``pydantic-ai`` target: pydantic-ai's own model classes (pydantic-ai-slim 2.68.0, from PyPI).

The bridge (``harness.targets.pydantic_ai_bridge``) converts the canonical history to
pydantic-ai ``ModelMessage``s and calls ``Model.request`` / ``Model.request_stream`` of
pydantic-ai's own model class for each provider, on its own provider class with an offline
client from ``harness.kit.OfflineWire``: ``OpenAIChatModel`` (openai-chat),
``OpenAIResponsesModel`` (openai-responses), ``AnthropicModel`` (anthropic), ``GoogleModel``
(gemini), ``OpenRouterModel`` (openrouter), ``BedrockConverseModel`` (bedrock; boto3 answered
by botocore's ``before-send`` hook), ``MistralModel`` (mistral), ``GroqModel`` (groq),
``OpenAIChatModel`` on ``DeepSeekProvider`` (deepseek; its Responses recordings through
``OpenAIResponsesModel``), ``CerebrasModel`` (cerebras), ``ZaiModel`` (zai),
``HuggingFaceModel`` (huggingface) and ``CohereModel`` (cohere). The table is ``pydantic_ai_bridge.models.MODELS``: a
provider is one entry. Nothing of pydantic-ai's is reimplemented.

Where it runs
    pydantic-ai-slim[google] pins ``google-genai<3``; the harness's SDK oracles pin
    ``google-genai>=3.4``. One environment holding both was tried and refused: google-genai
    2.34 rejects a valid Gemini stream whose text holds U+0085 (it splits SSE lines with
    ``str.splitlines``), which changes an SDK crosscheck verdict, and pydantic-ai under
    google-genai 3 would call another API version (``v1`` instead of ``v1beta``) than
    pydantic-ai ships with. So, like klaude-code, it runs in a worker process
    (``harness.kit.WorkerTarget``) in an environment with the extra ``pydantic-ai``, found in
    this order: ``$HARNESS_PYDANTIC_AI_PYTHON``; this interpreter, if it can import
    pydantic_ai; ``<checkout>/.venv-pydantic-ai/bin/python``
    (``UV_PROJECT_ENVIRONMENT=.venv-pydantic-ai uv sync --extra pydantic-ai --no-dev``).

Conversion choices (so that no finding can be an artifact of the bridge)
    History, canonical -> ``pydantic_ai.messages``:

    - Each run of non-assistant messages becomes one ``ModelRequest`` (how an agent run
      builds its history: tool returns, then the next prompt); each assistant message one
      ``ModelResponse``. ``params.system`` is a leading ``SystemPromptPart``; a system
      message is a ``SystemPromptPart`` where it stands.
    - User and developer messages -> ``UserPromptPart`` with their parts (pydantic-ai has
      no developer role). Text as ``str``; ``data:`` image URLs as ``BinaryContent``; other
      URLs as ``ImageUrl``; image files read into ``BinaryContent`` (mime type given, else
      guessed from the name). A file that is not readable here is unsupported
      (NotImplementedError): pydantic-ai takes bytes, never a path.
    - Tool results -> ``ToolReturnPart(tool_name, content, tool_call_id, outcome)``; status
      ``success``/``error``/``aborted`` -> outcome ``success``/``failed``/``interrupted``;
      image parts follow the output text in the content list.
    - Assistant parts: text -> ``TextPart(id=item_id)``; tool calls ->
      ``ToolCallPart(tool_name, args=arguments_json, tool_call_id=call_id, id=item_id)``,
      all ids verbatim (never minted or rewritten); images -> ``FilePart``.
    - Developer text parts get a trailing newline (the canonical degradation rule); pydantic-ai
      has no developer role, so they join the request as user content where they stand.
    - Thinking: a text and the signature after it become one
      ``ThinkingPart(content, id, signature, provider_name)``, ``provider_name`` from the
      signature format (``anthropic``/``anthropic-redacted`` -> ``anthropic``, the redacted
      one with pydantic-ai's ``id="redacted_thinking"``; ``openai-responses`` -> ``openai``;
      ``bedrock``/``bedrock-redacted`` -> ``bedrock``, the redacted blob as pydantic-ai holds it:
      its bytes as UTF-8 text with ``id="redacted_content"``);
      text without a signature has no provider name. Several Responses summaries of one
      reasoning item (same ``rs_`` id) take pydantic-ai's own shape (``map_reasoning_item``):
      all ``provider_name="openai"``, the encrypted content on the first. A ``google`` signature belongs to
      the part before it (canonical rule) and goes into that part's
      ``provider_details["thought_signature"]`` with ``provider_name="google"``, which is
      where pydantic-ai keeps it. OpenRouter formats (``*-v1``) become ``reasoning_details``
      parts as pydantic-ai's own codec stores them: ``anthropic-claude-v1`` as one
      ``reasoning.text`` with its signature, every other format as ``reasoning.text`` plus
      ``reasoning.encrypted``.
    - ``ModelResponse.provider_response_id`` is the message's ``response_id``; ``model_name``
      is left unset (pydantic-ai decides what to send back by provider name, not model).
    - ``ModelResponse.provider_name`` is what the message's own evidence names: the format of
      its first native signature (``openrouter`` for OpenRouter's ``*-v1`` formats), else
      ``openai`` when it carries Responses item ids (``item_id``, ``rs_`` thinking ids), else
      None. pydantic-ai sends ids, reasoning and signatures back only to the provider its
      history names, so leaving it unset would make every native part look foreign.
    - Error and task-metadata events are sidecars, never sent.
    - The messages then go through what an agent run does before every model request
      (``_agent_graph``): ``pydantic_ai.messages.repair_messages(..., repair_last_response=True)``
      (drops orphaned tool results, adds a result for each dangling call, merges adjacent
      messages), ``Model.prepare_messages`` and the repair again if that changed them.

    Call params -> settings and ``ModelRequestParameters``:

    - model: ``params.model``, else the reference adapter's default (both targets then
      render the same model). OpenRouter needs ``vendor/model`` ids and pydantic-ai refuses
      a bare one before sending; a bare ``claude*``/``gemini*``/``gemma*``/``gpt*``/``o*``
      id gets ``anthropic/``/``google/``/``openai/``, any other is unsupported.
    - ``max_tokens``, ``temperature`` verbatim; None leaves pydantic-ai's defaults.
      ``tools`` -> ``ToolDefinition(name, description, parameters_json_schema)``,
      ``allow_text_output=True``.
    - thinking: None -> no setting; ``enabled=False`` -> ``thinking=False``; enabled ->
      ``thinking=effort`` (``True`` without one), plus ``anthropic_thinking`` with
      ``budget_tokens`` (Anthropic), ``google_thinking_config`` with ``thinking_budget`` /
      ``include_thoughts`` (Gemini, when either differs from the default) and
      ``openai_reasoning_summary="auto"`` when ``include_thoughts`` (Responses).
    - ``stream`` chooses ``request_stream`` or ``request``. ``max_retries=0``, except on the
      models that have no such setting (bedrock, huggingface: their offline clients never retry).

    Wire:

    - render: the body is the JSON the SDK put on the wire; the offline transport answers
      400, which no SDK retries. pydantic-ai emits no warnings (``lacks = {"warnings"}``).
      GoogleModel downloads ``http(s)`` image URLs itself to inline them; the bridge refuses
      the download (NotImplementedError), so no call touches the network.
    - replay: the transport serves the recorded status, headers and body in ``chunk_size``
      chunks; the call's model is the recorded request's (Gemini: from the URL), its input
      one placeholder user message. A streamed recording goes through ``request_stream``,
      a JSON body through ``request``.
    - output: ``PartStartEvent``/``PartDeltaEvent`` -> text/thinking deltas and tool-call
      starts; an exception -> one error event (mid-stream: what arrived is kept). The final
      ``ModelResponse`` maps part for part (``ToolCallPart.args`` verbatim when pydantic-ai
      holds a string, else its JSON; a ``ThinkingPart``'s provider name back to the signature
      format); ``finish_reason`` ``stop``/``length``/
      ``tool_call``/``error`` -> ``stop``/``length``/``tool_use``/``error``; ``content_filter``
      is an error (the shared rule for safety stops); None is "not said", which
      ``harness.kit.final_result`` turns into ``error`` with an event (the reference rule).
      Usage: ``input_tokens``/``output_tokens`` verbatim, ``cache_read_tokens`` ->
      ``cached_input_tokens``, ``cache_write_tokens`` -> ``cache_creation_input_tokens``,
      ``details["reasoning_tokens"]``; pydantic-ai reports 0 for counts the provider did not
      send (the checks treat None and 0 alike); no total is derived. Ids: kept only when they
      occur in the recorded body (``harness.kit.sent_id``); pydantic-ai mints tool-call ids
      for Gemini, which are kept and noted.
"""

from __future__ import annotations

from harness.kit.worker import WorkerTarget

__all__ = ["INSTALL_HINT", "TARGET"]

INSTALL_HINT = (
    "pydantic-ai is not installed: run `UV_PROJECT_ENVIRONMENT=.venv-pydantic-ai uv sync --extra pydantic-ai "
    "--no-dev` (it pins google-genai<3, so it gets its own environment), or set HARNESS_PYDANTIC_AI_PYTHON to a "
    "Python that has pydantic-ai-slim and this harness installed"
)
_IN_PROCESS = "harness.targets.pydantic_ai_bridge.target:TARGET"

TARGET = WorkerTarget.locate(
    "pydantic-ai",
    _IN_PROCESS,
    python_env_var="HARNESS_PYDANTIC_AI_PYTHON",
    module="pydantic_ai",
    venv=".venv-pydantic-ai",
    install_hint=INSTALL_HINT,
    lacks=frozenset({"warnings"}),
)
