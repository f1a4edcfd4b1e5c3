"""The klaude-code bridge: code that runs inside an environment where klaude-code is installed.

``convert_in``, ``convert_out``, ``transport`` and ``drive`` import klaude-code and only ever
run in the worker process (``harness.kit.serve harness.targets.klaude_bridge.drive:TARGET``).
The conversion choices are documented once, in :mod:`harness.targets.klaude`.
"""
