"""The ``langchain`` target: LangChain's own chat model integrations, from PyPI, pinned exactly.

Versions (the ``langchain`` extra): langchain-core 1.8.1, langchain-anthropic 1.7.10 (anthropic),
langchain-openai 1.7.4 (openai-chat, openai-responses), langchain-google-genai 4.4.2 (gemini),
langchain-aws 1.9.1 (bedrock, ``ChatBedrockConverse``), langchain-groq 1.1.3 (groq),
langchain-mistralai 1.1.6 (mistral) and langchain-deepseek 1.1.1 (deepseek). The target's
``version`` is langchain-core's. The bridge (``harness.targets.langchain_bridge``) converts the
canonical history to LangChain messages and calls the integration's own ``ainvoke``/``astream``:
LangChain's message conversion, request building, chunk parsing and chunk accumulation run as a
user's would. Nothing of LangChain's is reimplemented.

Where it runs
    langchain-google-genai 4.4 pins ``google-genai<3`` and langchain-groq ``groq<1``; the
    harness's SDK oracles pin ``google-genai>=3.4`` and ``groq>=1.7``. So, like pydantic-ai,
    it runs in a worker process (``harness.kit.WorkerTarget``) in an environment with the
    ``langchain`` extra, found in this order: ``$HARNESS_LANGCHAIN_PYTHON``; this interpreter,
    if it can import langchain_google_genai; ``<checkout>/.venv-langchain/bin/python``
    (``UV_PROJECT_ENVIRONMENT=.venv-langchain uv sync --locked --extra langchain --no-dev``).

Offline by construction
    Every integration builds its own HTTP client (``ChatAnthropic`` a cached
    ``anthropic.DefaultHttpxClient``, ``ChatOpenAI`` a cached httpx client, google-genai's own,
    ``ChatMistralAI`` a plain ``httpx.AsyncClient``); the bridge hands none and pre-seeds no
    private attribute: ``OfflineWire(intercept_all=True)`` answers every httpx default transport
    for the duration of each call. Bedrock's boto3 client is the kit's
    ``offline_boto3_client`` (``ChatBedrockConverse(client=...)``). langchain-google-genai
    downloads ``http(s)`` image URLs itself (``_image_utils.ImageBytesLoader._bytes_from_url``,
    ``requests.get``); the bridge replaces that one method with a refusal, so such a history is
    reported ``unsupported`` with the URL, and the harness's socket guard would stop any other
    attempt.

Warnings
    LangChain announces drops with ``warnings.warn`` (``UserWarning``/``RuntimeWarning``) and
    ``logging`` (``logger.warning``), never in a return value; the target declares both
    channels (``warning_channels``) and the harness listens on them during each render.

Conversion choices (so that no finding can be an artifact of the bridge)
    History, canonical -> ``langchain_core.messages``:

    - ``params.system`` is a leading ``SystemMessage``; a system message is a
      ``SystemMessage`` where it stands; a developer message is a ``SystemMessage`` with
      ``additional_kwargs={"__openai_role__": "developer"}`` (what LangChain's own
      ``convert_to_messages`` makes of ``{"role": "developer"}``).
    - User content: one text part is a string (``HumanMessage("...")``); otherwise LangChain's
      standard blocks: ``{"type": "text"}``, ``{"type": "image", "url"}`` for a remote URL,
      ``{"type": "image", "base64", "mime_type"}`` for a ``data:`` URL or an image file (read
      here; an unreadable file is unsupported).
    - Tool results: ``ToolMessage(output_text, tool_call_id, name=tool_name, status)``, status
      ``error`` for ``error`` and ``aborted``; image parts follow the text as standard blocks.
    - Each assistant message becomes the ``AIMessage`` that the integration which produced it
      holds (``output_version`` v0, LangChain's default), with
      ``response_metadata["model_provider"]`` naming that integration and ``tool_calls``
      parsed from the arguments (unparsable ones as ``invalid_tool_calls``). The producer is
      the message's own evidence: its signature's format (``anthropic*`` -> anthropic,
      ``google`` -> gemini, ``openai-responses`` -> Responses, ``bedrock*`` -> Bedrock), else
      Responses item ids, else the model its unsigned thinking names (``claude*``,
      ``gemini*``, ``deepseek*``), else the provider rendered for. Its content, through
      ``harness.kit.shapes``: Anthropic content blocks (a lone text block as a string, as
      ``_format_output`` does); langchain-openai's ``responses/v1`` blocks (reasoning and
      function-call items as is, text flattened with its ``msg_`` id); langchain-google-genai's
      shape (``thinking`` blocks with their signature, ``text`` blocks with
      ``extras.signature``, call signatures under ``__gemini_function_call_thought_signatures__``
      by call id, plain text as a string); langchain-aws's ``_bedrock_to_lc`` shape
      (``reasoning_content``, ``tool_use``); Chat Completions: text as a string, reasoning in
      ``additional_kwargs["reasoning_content"]`` for DeepSeek and Groq (where ChatDeepSeek and
      ChatGroq keep it); ChatOpenAI and ChatMistralAI keep no reasoning.
    - A part the producing integration's message has no place for (a signature of another
      format, reasoning on ChatOpenAI) is left out with the bridge's own returned warning, coded
      ``bridge-unmappable-part``, so the audit never counts the bridge's drop as LangChain's.
    - Error and task-metadata events are sidecars, never sent.

    Call params -> the integration's constructor and ``bind_tools``:

    - model: ``params.model``, else the reference adapter's default. ``max_tokens``,
      ``temperature`` verbatim; None leaves LangChain's own default (langchain-google-genai's
      temperature 0.7 and ChatMistralAI's 0.7 are LangChain's, not the bridge's). ``max_retries=0``.
    - thinking: Anthropic ``thinking={"type": "enabled", "budget_tokens"}`` when a budget is
      given, ``{"type": "disabled"}`` when off; Responses ``reasoning={"effort", "summary":
      "auto"}``; Chat ``reasoning_effort``; Gemini ``thinking_budget`` / ``include_thoughts``;
      Bedrock ``additional_model_request_fields.thinking`` with a budget.
    - tools: ``bind_tools`` with OpenAI-format function definitions (LangChain's common tool
      format), ``tool_choice`` ``required`` -> ``"any"`` (LangChain's word on every
      integration), a forced tool by its name; ``strict`` on OpenAI when every tool agrees.
      Structured output (``output_format``) is not mapped: unsupported.
    - ``stream`` chooses ``astream`` (chunks summed as a user sums them) or ``ainvoke``.

    Wire and refusals:

    - render: the body is the JSON the SDK put on the wire; the offline transport answers 400,
      which no SDK retries. A plain ``ValueError`` LangChain raises before anything is sent is
      its own refusal of an input it does not support ("Received multiple non-consecutive
      system messages."): ``harness.TargetRefusal``, reported as ``policy``. Any other
      exception is a crash.
    - replay: the recorded status, headers and body in ``chunk_size`` chunks; the call's model
      is the recorded request's (``harness.kit.recorded_call``), its input one placeholder
      user message.
    - output: stream items from each chunk (text, thinking/reasoning, tool-call starts); the
      final message read back through ``harness.kit.shapes`` per integration, then LangChain's
      parsed ``tool_calls`` (arguments as JSON of LangChain's parsed dict; Responses item ids
      and Gemini call signatures from where the integration keeps them); an exception -> one
      error event (mid-stream: what arrived is kept). Stop: the integration's
      ``response_metadata`` word (``stop_reason``, ``finish_reason``, ``stopReason``, or the
      Responses ``status``) through ``harness.kit.provider_stop``. Usage: ``usage_metadata``
      ``input_tokens``/``output_tokens``, ``input_token_details`` cache read/creation,
      ``output_token_details.reasoning``; ``total_tokens`` is not copied (LangChain's
      ``UsageMetadata`` always holds one, derived where the provider sent none). Ids: kept only
      when they occur in the recorded body (``harness.kit.sent_id``); LangChain mints tool-call
      ids for Gemini (``uuid4``), which are kept and noted.
"""

from __future__ import annotations

from harness.kit.worker import WorkerTarget
from harness.targets.langchain_bridge import INSTALL_HINT

__all__ = ["INSTALL_HINT", "TARGET"]

_IN_PROCESS = "harness.targets.langchain_bridge.target:TARGET"

TARGET = WorkerTarget.locate(
    "langchain",
    _IN_PROCESS,
    python_env_var="HARNESS_LANGCHAIN_PYTHON",
    module="langchain_google_genai",
    venv=".venv-langchain",
    install_hint=INSTALL_HINT,
)
