"""The ``klaude-code`` target: klaude-code's own request builders and stream parsers, from PyPI.

klaude-code's canonical model is the origin of ours (seed ``000_*.txt``), so the bridge
converts types field for field and then calls klaude's real code: ``client.call(param)``
of its ``anthropic``, ``openai`` (openai_compatible), ``responses``, ``google`` and
``openrouter`` clients, which run ``llm/*/input.py``, ``build_payload`` and the provider
SDK it pins, against an offline ``MockTransport``. Nothing of klaude's is reimplemented.

Where it runs
    klaude-code pins ``anthropic<2``; the harness's SDK oracles need ``anthropic>=2``. One
    interpreter cannot hold both, so klaude's code runs in a worker process (the kit's
    ``WorkerTarget`` serving ``harness.targets.klaude_bridge.drive:TARGET``) in an environment that has klaude-code and
    this harness installed, found in this order: ``$HARNESS_KLAUDE_PYTHON``; this
    interpreter, if it can import klaude_code; ``<checkout>/.venv-klaude/bin/python``
    (``UV_PROJECT_ENVIRONMENT=.venv-klaude uv sync --extra klaude --no-dev``). The worker gets
    a temporary ``HOME`` and working directory and no ``KLAUDE_*`` variables, so no user
    configuration can change a request.

Conversion choices (so that no finding can be an artifact of the bridge)
    History, canonical -> ``klaude_code.protocol.message``:

    - Roles map one to one (system, developer, user, assistant, tool). ``id`` and
      ``response_id`` are copied; ``created_at`` is copied or fixed to 2000-01-01 (klaude
      never sends it).
    - Ids are never minted or rewritten: ``ToolCallPart.call_id`` is copied verbatim and
      ``item_id`` (a Responses ``fc_`` id) becomes klaude's ``ToolCallPart.id``; thinking and
      signature ``id`` are copied.
    - Signatures: ``signature``, ``format`` and ``model_id`` are copied verbatim; klaude uses
      the same format vocabulary (``anthropic``, ``openai-responses``, ``google``, OpenRouter's
      ``*-v1`` formats). klaude-only ``ThinkingTextPart.format``, which its OpenRouter parser
      fills from ``reasoning_details``, gets the format of the signature that pairs with the
      text (nearest preceding unpaired text). ``reasoning_field`` stays None: klaude sets it
      only when parsing a Chat Completions stream, which a canonical history does not record,
      so klaude echoes no chat reasoning field for these histories and no finding may rest
      on that. ``duration_s`` and the assistant ``phase`` stay None.
    - Model ids are copied verbatim: klaude treats thinking as native exactly when the
      part's ``model_id`` is None or equals the call's model id.
    - Images: ``ImageURLPart(url, id)`` as a freshly attached image (``frozen=False``, no
      ``source_file_path``); ``ImageFilePart`` fields copied. klaude reads, validates and
      re-encodes images itself, and substitutes its own placeholder text when it cannot.
    - Developer messages: parts copied; UI-only fields dropped (never sent; klaude's are
      typed differently); ``attachment_position`` keeps its default ``append`` (the seed's rule).
    - Tool results: call id, name, status, ``output_text`` and image parts copied; UI-only
      ``ui_extra``, ``side_effects``, ``task_metadata`` dropped. Assistant ``usage`` is dropped
      (klaude's input conversion never reads it); ``stop_reason`` is copied.
    - Events: ``error`` becomes klaude's ``StreamErrorItem``, ``task_metadata`` is dropped;
      both are sidecars that klaude's LLM-input filter removes anyway.
    - The history then goes through klaude's own ``Session.get_llm_history()`` (which adds a
      synthetic "interrupted" error result for every dangling tool call) and the
      ``agent.step.LLM_INPUT_MESSAGE_TYPES`` filter, exactly as ``agent/step.py`` does.

    Call params -> ``LLMCallParameter``, built like ``agent/step.py`` builds it:

    - model: ``params.model``, else the reference adapter's ``DEFAULT_MODEL`` for the
      provider (both targets then render the same model); the client config gets the same id.
    - ``system``, ``max_tokens``, ``temperature`` verbatim; None leaves klaude's own
      defaults to ``apply_config_defaults``. ``tools`` -> ``ToolSchema(type="function")``.
    - thinking: None -> None; ``enabled=False`` -> ``Thinking(type="disabled")``; enabled ->
      ``Thinking(type="enabled", budget_tokens, reasoning_effort=effort, reasoning_summary=
      "auto" if include_thoughts)`` for anthropic, gemini and openrouter, and the same without
      ``type`` for openai-chat and openai-responses (OpenAI reasoning is configured by effort;
      klaude's openai_compatible client turns ``type="enabled"`` into a ``thinking`` body key
      meant for GLM/Kimi-style gateways).
    - ``stream`` is ignored (klaude always streams). ``session_id`` and ``prompt_cache_key``
      are a fixed ``harness-audit-session`` (the agent always passes its session id).
    - Client config: the provider's protocol, the SDK's default base URL (OpenRouter: klaude's
      fixed URL), a dummy API key, every other knob at its default (no cost table, vision on).

    Wire:

    - render: the request body is the JSON the provider SDK put on the wire (so Anthropic
      ``betas`` travel as a header, Gemini's model in the URL); the mock answers 400, which no
      SDK retries. klaude emits no warnings, so ``warnings`` is always empty.
    - SDK retries are off (``max_retries = 0`` on the openai/anthropic SDK clients klaude
      built; google-genai does not retry by default): the mock would serve the same recorded
      failure again, so a retry changes nothing but the time it takes.
    - replay: the mock serves the recorded status, headers (minus content-encoding/length;
      the body is already decompressed) and body in ``chunk_size`` chunks. The call's model id
      is the recorded request's (Gemini: from the URL); its input is one placeholder user
      message. A non-streamed body raises NotImplementedError: klaude always streams.
    - output: deltas -> text/thinking deltas and tool-call starts; ``StreamErrorItem`` ->
      error events; the final message maps part for part; usage: ``cached_tokens`` ->
      ``cached_input_tokens``, ``cache_write_tokens`` -> ``cache_creation_input_tokens``,
      ``total_tokens`` is klaude's (input + output). A missing or None stop reason is passed
      on, not repaired. klaude's Gemini parser mints uuid4 ids when a stream has none; the
      audit compares only ids the provider sent.
"""

from __future__ import annotations

from harness.kit.worker import WorkerTarget

__all__ = ["INSTALL_HINT", "TARGET"]

INSTALL_HINT = (
    "klaude-code is not installed: run `UV_PROJECT_ENVIRONMENT=.venv-klaude uv sync --extra klaude --no-dev` "
    "(it pins anthropic<2, so it gets its own environment), or set HARNESS_KLAUDE_PYTHON to a Python "
    "that has klaude-code and this harness installed"
)
_IN_PROCESS = "harness.targets.klaude_bridge.drive:TARGET"

TARGET = WorkerTarget.locate(
    "klaude-code",
    _IN_PROCESS,
    python_env_var="HARNESS_KLAUDE_PYTHON",
    module="klaude_code",
    venv=".venv-klaude",
    install_hint=INSTALL_HINT,
    lacks=frozenset({"warnings"}),  # klaude emits no warnings: its deliberate drops cannot be announced
    hidden_env_prefixes=("KLAUDE",),  # no user configuration may change a request
)
