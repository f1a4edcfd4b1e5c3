"""The LangChain bridge, in-process: it imports LangChain, so it runs where LangChain is installed.

``harness.targets.langchain`` (the entry point) documents the conversion and runs this in a
worker when LangChain is not importable here.
"""
