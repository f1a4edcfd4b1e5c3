"""pytest plugin (``pytest11`` entry point): hypothesis profiles shared by every suite using the harness.

``default`` keeps a whole run well under five minutes on two cores; ``deep`` is for
long runs: ``pytest --hypothesis-profile=deep``.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "deep",
    max_examples=5000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("default")
