"""Write the scenario corpus as package data: the writer CLI over ``corpus/``.

Each scenario is a function in ``corpus/<topic>.py``: its name is the scenario name, its
docstring the one-line description, its decorator (``dsl.scenario``) the tags.
``python -m harness.scenarios.build`` rewrites ``data/<name>.jsonl`` and ``catalog.json``
deterministically (``--check`` only compares), and tests/test_scenarios.py fails when the
committed data differs, so every scenario is reviewable as code and as data.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from harness.codec import dumps_history
from harness.outputs import write_text
from harness.scenarios import Scenario
from harness.scenarios.corpus import scenario_builders
from harness.scenarios.corpus.real_tokens import REAL_SIGNATURES

__all__ = ["REAL_SIGNATURES", "build_scenarios", "main", "render_files"]

PACKAGE_DIR = Path(__file__).resolve().parent


# ---------------------------------------------------------------- output


def build_scenarios() -> list[Scenario]:
    """Every registered scenario, sorted by name; names are the builder function names."""
    scenarios: list[Scenario] = []
    for fn, tags in scenario_builders():
        params, history = fn()
        scenarios.append(
            Scenario(
                name=fn.__name__,
                description=" ".join((fn.__doc__ or "").split()),
                tags=tags,
                params=params,
                history=history,
            )
        )
    names = [s.name for s in scenarios]
    if len(set(names)) != len(names):
        raise ValueError("duplicate scenario names")
    return sorted(scenarios, key=lambda s: s.name)


def render_files(scenarios: Sequence[Scenario] | None = None) -> dict[str, str]:
    """Relative path -> exact file text for ``data/<name>.jsonl`` and ``catalog.json``."""
    corpus = build_scenarios() if scenarios is None else sorted(scenarios, key=lambda s: s.name)
    out: dict[str, str] = {}
    catalog: dict[str, object] = {}
    for s in corpus:
        out[f"data/{s.name}.jsonl"] = dumps_history(s.history)
        catalog[s.name] = {
            "description": s.description,
            "params": s.params.model_dump(mode="json", exclude_none=True),
            "tags": list(s.tags),
        }
    out["catalog.json"] = json.dumps(catalog, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    return out


def stale_files(root: Path, files: dict[str, str]) -> list[str]:
    """Relative paths under ``root`` that differ from ``files`` or should not exist."""
    diffs = [
        rel
        for rel, text in files.items()
        if not (root / rel).is_file() or (root / rel).read_text(encoding="utf-8") != text
    ]
    data = root / "data"
    extra = (
        [f"data/{p.name}" for p in data.glob("*.jsonl") if f"data/{p.name}" not in files]
        if data.is_dir()
        else []
    )
    return sorted(diffs + extra)


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or with --check, verify) the corpus; exit 1 on --check when anything differs."""
    parser = argparse.ArgumentParser(prog="python -m harness.scenarios.build", description=main.__doc__)
    parser.add_argument("--check", action="store_true", help="only report files that differ; write nothing")
    parser.add_argument(
        "--out", type=Path, default=PACKAGE_DIR, help="target directory (default: the package)"
    )
    args = parser.parse_args(argv)
    root: Path = args.out
    files = render_files()
    changed = stale_files(root, files)
    if args.check:
        for rel in changed:
            print(f"out of date: {rel}", file=sys.stderr)
        return 1 if changed else 0
    (root / "data").mkdir(parents=True, exist_ok=True)
    for rel in changed:
        path = root / rel
        if rel in files:
            write_text(path, files[rel])
        else:
            path.unlink()
    print(f"{len(files) - 1} scenarios; {len(changed)} file(s) updated in {root}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
