"""The ``klaude-code`` target: klaude-code's own request builders and stream parsers, from PyPI.

klaude-code's canonical model is the origin of ours (seed ``000_*.txt``), so the bridge
converts types field for field and then calls klaude's real code: ``client.call(param)``
of its ``anthropic``, ``openai`` (openai_compatible), ``responses``, ``google`` and
``openrouter`` clients, which run ``llm/*/input.py``, ``build_payload`` and the provider
SDK it pins, against an offline ``MockTransport``. Nothing of klaude's is reimplemented.

Where it runs
    klaude-code pins ``anthropic<2``; the harness's SDK oracles need ``anthropic>=2``. One
    interpreter cannot hold both, so klaude's code runs in a worker process
    (``harness.targets.klaude_bridge.worker``) in an environment that has klaude-code and
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

import atexit
import importlib.metadata
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import IO, Any, cast

from harness.contract.rendered import Rendered
from harness.contract.routing import route
from harness.model import HistoryEvent
from harness.params import CallParams
from harness.providers import PROVIDERS
from harness.replay import Exchange
from harness.stream.base import CallResult
from harness.targets import TargetError
from harness.targets.klaude_bridge import protocol

__all__ = ["INSTALL_HINT", "TARGET", "KlaudeError", "KlaudeTarget", "find_python"]

INSTALL_HINT = (
    "klaude-code is not installed: run `UV_PROJECT_ENVIRONMENT=.venv-klaude uv sync --extra klaude --no-dev` "
    "(it pins anthropic<2, so it gets its own environment), or set HARNESS_KLAUDE_PYTHON to a Python "
    "that has klaude-code and this harness installed"
)
_CHECKOUT_VENV = Path(__file__).resolve().parents[2] / ".venv-klaude" / "bin" / "python"


class KlaudeError(RuntimeError):
    """klaude-code raised (or sent no request) for one call; the message is klaude's error."""


def find_python() -> str | None:
    """The interpreter that runs klaude-code's code, or None."""
    explicit = os.environ.get("HARNESS_KLAUDE_PYTHON")
    if explicit:
        return explicit
    if find_spec("klaude_code") is not None:
        return sys.executable
    return str(_CHECKOUT_VENV) if _CHECKOUT_VENV.exists() else None


class _Worker:
    """The worker process, started on first use and stopped at exit."""

    def __init__(self, python: str) -> None:
        self.python = python
        self._process: subprocess.Popen[str] | None = None
        self._stderr: IO[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        home = tempfile.mkdtemp(prefix="harness-klaude-home-")
        env = {k: v for k, v in os.environ.items() if not k.startswith("KLAUDE")}
        env["HOME"] = home
        self._stderr = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115  (lives as long as the worker)
        try:
            process = subprocess.Popen(
                [self.python, "-m", "harness.targets.klaude_bridge.worker"],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                text=True,
                encoding="utf-8",
                cwd=home,
                env=env,
            )
        except OSError as exc:
            raise TargetError(f"cannot start {self.python}: {exc.strerror or exc}") from None
        atexit.register(self.close)
        return process

    def _stderr_tail(self) -> str:
        if self._stderr is None:
            return ""
        self._stderr.seek(0)
        lines = [line for line in self._stderr.read().splitlines() if line.strip()]
        return lines[-1] if lines else ""

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        if self._process is None:
            self._process = self._start()
        process = self._process
        assert process.stdin is not None and process.stdout is not None
        try:
            process.stdin.write(protocol.dumps(request))
            process.stdin.flush()
            line = process.stdout.readline()
        except OSError:
            line = ""
        if not line:
            raise TargetError(f"the klaude-code worker ({self.python}) exited: {self._stderr_tail()}")
        return cast(dict[str, Any], json.loads(line))

    def close(self) -> None:
        """Stop the worker at exit; a worker that already died (a broken pipe) is simply gone."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            assert process.stdin is not None
            try:
                process.stdin.close()
                process.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                process.kill()


_PROBE = (
    "import importlib.metadata as m, importlib.util as u\n"
    "assert u.find_spec('harness.targets.klaude_bridge'), 'this harness is not installed there'\n"
    "print(m.version('klaude-code'))"
)


def probe(python: str) -> str:
    """The klaude-code version installed for ``python``; TargetError when it cannot run the worker."""
    if python == sys.executable and find_spec("klaude_code") is not None:
        return importlib.metadata.version("klaude-code")
    try:
        done = subprocess.run([python, "-c", _PROBE], capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise TargetError(f"cannot run {python}: {exc}") from None
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or ["failed"])[-1]
        if "PackageNotFoundError" in reason:
            raise TargetError(f"{INSTALL_HINT} ({python} has no klaude-code)")
        raise TargetError(f"{python} cannot run the klaude-code worker: {reason}")
    return done.stdout.strip()


class KlaudeTarget:
    """Target protocol over a klaude-code worker. ``version`` is the installed klaude-code version."""

    name = "klaude-code"
    #: klaude emits no warnings: its deliberate drops cannot be announced (see the module docstring).
    lacks = frozenset({"warnings"})

    def __init__(self, python: str, version: str) -> None:
        self._worker = _Worker(python)
        self.version = version

    def providers(self) -> Sequence[str]:
        return PROVIDERS

    def _call(self, request: dict[str, Any]) -> dict[str, Any]:
        reply = self._worker.ask(request)
        if reply.get("ok"):
            return reply
        kind = reply.get("kind")
        if kind == "unsupported":
            raise NotImplementedError(str(reply.get("error")))
        if kind == "missing":
            raise TargetError(f"{INSTALL_HINT} ({reply.get('error')})")
        raise KlaudeError(str(reply.get("error")))

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        if provider not in PROVIDERS:
            raise NotImplementedError(f"klaude-code target: unknown provider {provider!r}")
        reply = self._call(protocol.encode_render_request(provider, list(history), params))
        return protocol.decode_rendered(cast(dict[str, Any], reply["rendered"]))

    def replay(self, provider: str, exchange: Exchange, chunk_size: int | None = None) -> CallResult:
        if provider not in PROVIDERS:
            raise NotImplementedError(f"klaude-code target: unknown provider {provider!r}")
        found = route(exchange.method, exchange.uri)
        if provider == "openrouter" and found is not None and found.wire != "openai-chat":
            raise NotImplementedError(
                "klaude-code's OpenRouter client speaks Chat Completions only; this recording is "
                f"OpenRouter's {found.wire} endpoint"
            )
        request = {
            "op": "replay",
            "provider": provider,
            "exchange": protocol.encode_exchange(exchange),
            "chunk_size": chunk_size,
        }
        return protocol.decode_result(cast(dict[str, Any], self._call(request)["result"]))


def _load() -> KlaudeTarget:
    python = find_python()
    if python is None:
        raise TargetError(INSTALL_HINT)
    return KlaudeTarget(python, probe(python))


TARGET = _load()
