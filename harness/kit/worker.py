"""A target whose code runs in another interpreter: for code under audit that cannot share ours.

The harness's SDK oracles pin provider SDKs (anthropic>=2, google-genai>=3.4); a library
under audit may pin others (klaude-code: anthropic<2; pydantic-ai: google-genai<3). Then
the in-process target (any object with the Target methods) runs in a worker process of an
environment that has the library and this harness installed, and ``WorkerTarget`` is what
the entry point names: it forwards ``render``/``replay`` over JSON lines
(``harness.kit.protocol``) to ``python -m harness.kit.serve MODULE:ATTR``.

The worker gets a temporary ``HOME`` and working directory and no variables with the given
prefixes, so no user configuration can change a request. It starts on first use and stops
at exit. ``find_python`` says where the environment is: ``$<ENV_VAR>``; this interpreter,
if it can import the library; ``<checkout>/<venv>/bin/python``.
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import IO, Any, cast

from harness.contract.chunking import Chunking
from harness.contract.exchange import Exchange
from harness.contract.rendered import Rendered
from harness.contract.results import CallResult
from harness.contract.target import TargetError, TargetNotInstalled, TargetRefusal
from harness.kit import protocol
from harness.model import HistoryEvent
from harness.params import CallParams

__all__ = ["BridgeError", "WorkerTarget", "find_python"]

_CHECKOUT = Path(__file__).resolve().parents[2]


class BridgeError(RuntimeError):
    """The code under audit raised (or sent no request) for one call; the message is its error."""


def find_python(env_var: str, module: str, venv: str) -> str | None:
    """The interpreter that has ``module``: ``$env_var``, this one, or ``<checkout>/<venv>``; else None."""
    explicit = os.environ.get(env_var)
    if explicit:
        return explicit
    if find_spec(module) is not None:
        return sys.executable
    candidate = _CHECKOUT / venv / "bin" / "python"
    return str(candidate) if candidate.exists() else None


class _Process:
    """The worker process, started on first use and stopped at exit."""

    def __init__(self, python: str, ref: str, hidden_env_prefixes: Sequence[str]) -> None:
        self.python, self.ref, self.hidden = python, ref, tuple(hidden_env_prefixes)
        self._process: subprocess.Popen[str] | None = None
        self._stderr: IO[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        home = tempfile.mkdtemp(prefix="harness-worker-home-")
        env = {k: v for k, v in os.environ.items() if not k.startswith(self.hidden)}  # () hides nothing
        env["HOME"] = home
        self._stderr = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115  (lives as long as the worker)
        try:
            process = subprocess.Popen(
                [self.python, "-m", "harness.kit.serve", self.ref],
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
            raise TargetError(
                f"the worker ({self.python} -m harness.kit.serve {self.ref}) exited: {self._stderr_tail()}"
            )
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


class WorkerTarget:
    """The Target protocol over a worker process running the in-process target ``ref`` (``MODULE:ATTR``).

    Construction starts the worker and asks it for its version and providers, so a broken
    environment is a one-line TargetError (with ``install_hint``) when the target loads.
    """

    def __init__(
        self,
        name: str,
        ref: str,
        python: str,
        *,
        install_hint: str,
        lacks: frozenset[str] = frozenset(),
        hidden_env_prefixes: Sequence[str] = (),
    ) -> None:
        self.name, self.lacks, self._hint = name, lacks, install_hint
        self._process = _Process(python, ref, hidden_env_prefixes)
        hello = self._call({"op": "hello"})
        self.version: str | None = None if hello.get("version") is None else str(hello["version"])
        self._providers = tuple(str(p) for p in cast(list[Any], hello.get("providers", [])))
        #: The channels the in-process target declares (its worker listens on them: harness.contract.channels).
        channels = hello.get("warning_channels")
        self.warning_channels: frozenset[str] = (
            frozenset(str(c) for c in cast(list[Any], channels))
            if isinstance(channels, list)
            else (frozenset() if "warnings" in lacks else frozenset({"returned"}))
        )

    @classmethod
    def locate(
        cls,
        name: str,
        ref: str,
        *,
        python_env_var: str,
        module: str,
        venv: str,
        install_hint: str,
        lacks: frozenset[str] = frozenset(),
        hidden_env_prefixes: Sequence[str] = (),
    ) -> WorkerTarget:
        """The worker target in the interpreter ``find_python(python_env_var, module, venv)`` finds.

        TargetError(``install_hint``) when there is none, so every worker target's entry point
        fails the same way when its environment is missing.
        """
        python = find_python(python_env_var, module, venv)
        if python is None:
            raise TargetNotInstalled(install_hint)
        return cls(
            name, ref, python, install_hint=install_hint, lacks=lacks, hidden_env_prefixes=hidden_env_prefixes
        )

    def providers(self) -> Sequence[str]:
        return self._providers

    def _call(self, request: dict[str, Any]) -> dict[str, Any]:
        reply = self._process.ask(request)
        if reply.get("ok"):
            return reply
        kind = reply.get("kind")
        if kind == "unsupported":
            raise NotImplementedError(str(reply.get("error")))
        if kind == "missing":
            raise TargetNotInstalled(f"{self._hint} ({reply.get('error')})")
        if kind == "refused":
            cited = reply.get("provider_error")
            raise TargetRefusal(str(reply.get("error")), provider_error=None if cited is None else str(cited))
        raise BridgeError(str(reply.get("error")))

    def render(self, provider: str, history: Sequence[HistoryEvent], params: CallParams) -> Rendered:
        if provider not in self._providers:
            raise NotImplementedError(f"{self.name} target: unsupported provider {provider!r}")
        reply = self._call(protocol.encode_render_request(provider, list(history), params))
        return protocol.decode_rendered(cast(dict[str, Any], reply["rendered"]))

    def replay(self, provider: str, exchange: Exchange, chunk_size: Chunking = None) -> CallResult:
        if provider not in self._providers:
            raise NotImplementedError(f"{self.name} target: unsupported provider {provider!r}")
        request = {
            "op": "replay",
            "provider": provider,
            "exchange": protocol.encode_exchange(exchange),
            "chunk_size": chunk_size,
        }
        return protocol.decode_result(cast(dict[str, Any], self._call(request)["result"]))
