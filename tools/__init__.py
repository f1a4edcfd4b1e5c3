"""Repo-only tools: run from a checkout (``python tools/<name>.py``), never shipped in the wheel."""
