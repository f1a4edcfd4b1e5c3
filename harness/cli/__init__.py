"""The ``harness`` command line: ``harness.cli.main`` registers every command (``app``)."""
