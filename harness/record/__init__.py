"""Recording against live APIs: ``harness record``, ``harness scan``, ``harness diff``, and test support.

Modules, one job each: ``endpoints`` (URL, headers, key variable per provider),
``client`` (streaming POST with bounded retries), ``session`` (the agent loop),
``tools`` (scripted tool results), ``cassette_io`` (scrub, check, atomic write),
``drift`` (semantic diff), ``scan`` (secret scan), ``fakeserver`` (loopback provider
for tests), ``vcr_setup`` (vcrpy with the harness serializer; needs vcrpy),
``played`` (cassette hygiene registry), ``commands`` (the CLI).
"""

__all__ = ["RECORD_MODES"]

#: pytest-recording's ``--record-mode`` values; ``rewrite`` is vcrpy's ``all`` that also drops
#: the interactions a test no longer makes.
RECORD_MODES = ("none", "once", "new_episodes", "all", "rewrite")
