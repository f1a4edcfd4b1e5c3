"""I10 determinism across processes: rendering the corpus is byte-identical under any hash seed."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys

from harness.contract.rendered import canonical_json
from harness.providers import PROVIDERS, get_adapter
from harness.scenarios import load_scenarios

_SCRIPT = """
import hashlib
from harness.providers import PROVIDERS, get_adapter
from harness.contract.rendered import canonical_json
from harness.scenarios import load_scenarios
h = hashlib.sha256()
for provider in PROVIDERS:
    for s in load_scenarios().values():
        r = get_adapter(provider).render(s.history, s.params_for(provider))
        h.update(canonical_json(r.body).encode())
        h.update("\\n".join(map(str, r.warnings)).encode())
print(h.hexdigest())
"""


def _digest_here() -> str:
    h = hashlib.sha256()
    for provider in PROVIDERS:
        for s in load_scenarios().values():
            r = get_adapter(provider).render(s.history, s.params_for(provider))
            h.update(canonical_json(r.body).encode())
            h.update("\n".join(map(str, r.warnings)).encode())
    return h.hexdigest()


def test_corpus_renders_identically_under_three_hash_seeds() -> None:
    expected = _digest_here()
    assert _digest_here() == expected  # a second run in the same process
    for seed in ("0", "1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out = subprocess.run(
            [sys.executable, "-c", _SCRIPT], env=env, capture_output=True, text=True, check=True
        )
        assert out.stdout.strip() == expected, f"PYTHONHASHSEED={seed} rendered different bytes"
