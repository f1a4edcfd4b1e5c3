"""import-check's open entries: differences decided as our adapter's to fix, never allowed.

Each ``Pending`` entry has the five facts of an allowance (id, provider, where, why,
evidence) and the anchor of its decision in docs/import-check-decisions.md (the rule, the
intended adapter change and its golden impact). A request whose only differences beyond
``ALLOWLIST`` are these is reported as open: adapter change pending.
"""

from __future__ import annotations

from harness.importcheck.allowlist import Pending

__all__ = ["PENDING"]


#: Differences decided as "our adapter is wrong" (docs/import-check-decisions.md): open, never allowed.
#: Empty: every such decision so far is fixed in the adapter; a new one adds its entry here until then.
PENDING: tuple[Pending, ...] = ()
