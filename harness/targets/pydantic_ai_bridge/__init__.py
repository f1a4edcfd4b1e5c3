"""The pydantic-ai bridge, in-process: it imports pydantic-ai, so it runs where pydantic-ai is installed.

``harness.targets.pydantic_ai`` (the entry point) documents the conversion and runs this in
a worker when pydantic-ai is not importable here.
"""
