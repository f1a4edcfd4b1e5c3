"""The ``langchain`` target: LangChain's own chat model integrations (docstring completed below)."""

from __future__ import annotations

from harness.kit.worker import WorkerTarget

__all__ = ["INSTALL_HINT", "TARGET"]

INSTALL_HINT = (
    "LangChain is not installed: run `UV_PROJECT_ENVIRONMENT=.venv-langchain uv sync --locked --extra langchain "
    "--no-dev` (langchain-google-genai pins google-genai<3 and langchain-groq groq<1, so it gets its own "
    "environment), or set HARNESS_LANGCHAIN_PYTHON to a Python that has the langchain extra and this harness installed"
)
_IN_PROCESS = "harness.targets.langchain_bridge.target:TARGET"

TARGET = WorkerTarget.locate(
    "langchain",
    _IN_PROCESS,
    python_env_var="HARNESS_LANGCHAIN_PYTHON",
    module="langchain_google_genai",
    venv=".venv-langchain",
    install_hint=INSTALL_HINT,
)
