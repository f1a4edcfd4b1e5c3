"""The LangChain bridge, in-process: it imports LangChain, so it runs where LangChain is installed.

``harness.targets.langchain`` (the entry point) documents the conversion and runs this in a
worker when LangChain is not importable here.
"""

__all__ = ["INSTALL_HINT"]

#: What to run when LangChain's environment is missing (here: importing it needs no LangChain).
INSTALL_HINT = (
    "LangChain is not installed: run `UV_PROJECT_ENVIRONMENT=.venv-langchain uv sync --locked --extra langchain "
    "--no-dev` (langchain-google-genai pins google-genai<3 and langchain-groq groq<1, so it gets its own "
    "environment), or set HARNESS_LANGCHAIN_PYTHON to a Python that has the langchain extra and this harness installed"
)
