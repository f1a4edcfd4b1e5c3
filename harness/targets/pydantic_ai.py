"""The ``pydantic-ai`` target: pydantic-ai's own model classes (pydantic-ai-slim 2.68.0, from PyPI).

The bridge (``harness.targets.pydantic_ai_bridge``) hands the canonical history to pydantic-ai's
own model class for each provider, offline, and reimplements nothing of pydantic-ai's. It runs in
a worker process: pydantic-ai's ``google`` extra pins ``google-genai<3``, the SDK oracles ``>=3.4``.
Where the worker's environment is found and every conversion choice the bridge makes:
docs/audits/pydantic-ai-bridge.md.
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
