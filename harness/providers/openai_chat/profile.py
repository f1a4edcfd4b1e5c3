"""OpenAI Chat Completions: the model facts the mapping depends on, kept apart from the mapping code."""

from __future__ import annotations

__all__ = ["DEFAULT_MODEL"]

#: The model a request names when ``params.model`` is None.
DEFAULT_MODEL = "gpt-4.1-mini"
