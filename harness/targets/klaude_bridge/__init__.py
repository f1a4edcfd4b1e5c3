"""The klaude-code bridge: code that runs inside an environment where klaude-code is installed.

``protocol`` (no klaude imports) is shared with the ``klaude-code`` target in the
harness process; ``convert_in``, ``convert_out``, ``transport``, ``drive`` and
``worker`` import klaude-code and only ever run in the worker process. The
conversion choices are documented once, in :mod:`harness.targets.klaude`.
"""
