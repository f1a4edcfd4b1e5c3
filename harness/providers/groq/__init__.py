"""Groq: request adapter, stream parser, model profile and decisions (DECISIONS.md)."""
