"""Cohere v2 Chat (provider id ``cohere``): request, stream, profile; see DECISIONS.md."""
