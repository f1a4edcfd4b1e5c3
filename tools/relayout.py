"""Move modules to the package-per-concern layout and rewrite every reference to them.

Run from the checkout's root, as often as you like:

    python tools/relayout.py            # move what is still at an old path, rewrite stale names
    python tools/relayout.py --check    # change nothing; exit 1 and list what would change
    python tools/relayout.py --resolve ours   # in a conflicted merge: see below

Why a script and not a one-off commit: branches written against the old layout keep
arriving. After merging one, run this again: a file still at its old path is moved with
``git mv`` (its history follows), and every stale import, entry point, ``importlib``
string and doc path in the tree is rewritten. A file already moved is left alone; a file
present at both paths is reported (merge the two by hand, then run again).

Merging this branch into a tree that has old-layout edits (or the other way round) conflicts
where both sides changed the same lines, mostly import lines this script rewrote. Resolve
with ``--resolve ours|theirs`` naming the old-layout side: every conflicted file this branch
changed only by script takes that side, then the relayout runs again over it; the files in
``HAND_EDITED`` that conflict are listed for a hand merge.

``MOVES`` is the one table of the relayout: old path -> new path. Module names follow from
the paths (``harness/replay.py`` is ``harness.replay``). Two old modules became packages of
the same name (``FACADES``): ``harness.testing`` (its ``__init__`` is the adopter's facade) and
``harness.cli`` (``harness.cli.main`` holds the app). A dotted name or ``from P import X`` is
rewritten only when ``X`` is neither a module of the new package nor a name it offers.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Old path -> new path, repo-relative. The one mapping of the relayout.
MOVES: dict[str, str] = {
    # import-check: the check, its allowlist, its open entries and the shapes it compares
    "harness/import_check.py": "harness/importcheck/check.py",
    "harness/import_allowlist.py": "harness/importcheck/allowlist.py",
    "harness/import_shapes.py": "harness/importcheck/shapes.py",
    # the closed loop and the JSON diff it (and import-check) compares with
    "harness/closed_loop.py": "harness/loop/closed_loop.py",
    "harness/jsondiff.py": "harness/loop/jsondiff.py",
    # the command line: the app (every command registered there), its style, its inputs
    "harness/cli.py": "harness/cli/main.py",
    "harness/cli_style.py": "harness/cli/style.py",
    "harness/params_io.py": "harness/cli/params_io.py",
    "harness/conformance.py": "harness/cli/conformance.py",
    "harness/import_request_command.py": "harness/cli/import_request.py",
    # replay drives the registry's parsers over a recorded file: beside the registry
    "harness/replay.py": "harness/providers/replay.py",
    # recording: scrubbing, the secret patterns and the cassette file format
    "harness/scrub.py": "harness/record/scrub.py",
    "harness/secrets.py": "harness/record/secrets.py",
    "harness/cassette_format.py": "harness/record/cassette_format.py",
    # what an adopter's and our own test suite load
    "harness/testing.py": "harness/testing/suite.py",
    "harness/pytest_plugin.py": "harness/testing/pytest_plugin.py",
    "harness/goldens.py": "harness/testing/goldens.py",
    # repo-only tools: they need the checkout (tests/data, docs/, Chromium), not the wheel
    "harness/cli_docs.py": "tools/cli_docs.py",
    "harness/accepted_docs.py": "tools/accepted_docs.py",
    "harness/screenshots.py": "tools/screenshots.py",
    "harness/import_realstreams.py": "tools/import_realstreams.py",
    # tests by provider
    **{
        f"tests/test_{kind}_{folder}.py": f"tests/providers/{folder}/test_{kind}_{folder}.py"
        for folder in ("anthropic", "gemini", "openai_chat", "openai_responses", "openrouter")
        for kind in ("adapter", "stream")
    },  # tests named after the package or module they test (tests/README.md); helpers in tests/support/
    "tests/test_adapter_common.py": "tests/test_mapping.py",
    "tests/providers/kimi/test_adapter_kimi.py": "tests/test_mapping_dialects.py",
    "tests/test_bedrock.py": "tests/providers/bedrock/test_bedrock.py",
    "tests/test_bedrock_runs.py": "tests/providers/bedrock/test_stream_bedrock.py",
    "tests/test_check_cli.py": "tests/test_cli_check.py",
    "tests/test_closed_loop.py": "tests/test_loop.py",
    "tests/test_compare.py": "tests/test_audit_compare.py",
    "tests/test_report_browser.py": "tests/test_audit_report_browser.py",
    "tests/test_drift.py": "tests/test_record_drift.py",
    "tests/test_eventstream.py": "tests/test_stream_eventstream.py",
    "tests/test_harness_testing.py": "tests/test_testing_suite.py",
    "tests/test_plugin_guest.py": "tests/test_testing_plugin_guest.py",
    "tests/test_import_check.py": "tests/test_importcheck.py",
    "tests/test_input_documents.py": "tests/test_inputs_documents.py",
    "tests/test_invented_usage.py": "tests/test_contract_usage.py",
    "tests/test_offline.py": "tests/test_kit_netguard.py",
    "tests/test_oracle_unions.py": "tests/test_oracles_unions.py",
    "tests/test_routing.py": "tests/test_contract_routing.py",
    "tests/test_scan.py": "tests/test_record_scan.py",
    "tests/test_scrub.py": "tests/test_record_scrub.py",
    "tests/test_secret_canary.py": "tests/test_record_secret_canary.py",
    "tests/test_sse.py": "tests/test_stream_sse.py",
    "tests/test_stream_cuts.py": "tests/test_invariants_cuts.py",
    "tests/test_target_klaude.py": "tests/test_targets_klaude.py",
    "tests/test_target_pydantic_ai.py": "tests/test_targets_pydantic_ai.py",
    "tests/test_target_pydantic_ai_dialects.py": "tests/test_targets_pydantic_ai_dialects.py",
    "tests/test_text_table.py": "tests/test_outputs_text_table.py",
    "tests/test_atomic_writes.py": "tests/test_outputs_atomic_writes.py",
    "tests/test_calibration.py": "tests/test_traffic_calibrate.py",
    "tests/test_vcr_cassette.py": "tests/test_record_vcr.py",
    "tests/test_warning_codes.py": "tests/test_contract_warning_codes.py",
    "tests/test_refusal.py": "tests/test_contract_refusal.py",
    "tests/cassette_cases.py": "tests/support/cassettes.py",
    "tests/invariant_cases.py": "tests/support/invariants.py",
    "tests/record_support.py": "tests/support/record.py",
    "tests/bedrock_bodies.py": "tests/support/bodies.py",
    "tests/secret_samples.py": "tests/support/secret_samples.py",
    "tests/traffic_runs.py": "tests/support/traffic.py",
    "tests/worker_target_support.py": "tests/support/worker_targets.py",
}

#: Old path -> the module its content was merged into (no file of its own any more). A branch
#: that still has the old file gets a message: move its entries into the new one by hand.
MERGED: dict[str, str] = {
    # PENDING sat in its own module, importing the allowlist that imported it back (a cycle)
    "harness/import_pending.py": "harness/importcheck/allowlist.py",
}

#: Old modules that became a package of the same name, with the names that package itself
#: offers (beside its own modules): ``from harness.testing import TargetConformance`` is current,
#: ``from harness.testing import judge`` is stale (-> ``harness.testing.suite``).
FACADES: dict[str, frozenset[str]] = {
    "harness.testing": frozenset({"TargetConformance", "register_profiles"}),
    "harness.cli": frozenset(),
}

_TESTING_FACADE = '''"""Conformance tests for your own target: ``from harness.testing import TargetConformance``.

The suite lives in ``harness.testing.suite``; this facade loads it on first use (PEP 562), so
the pytest plugin beside it (``harness.testing.pytest_plugin``, loaded by every pytest run
through the ``pytest11`` entry point) does not import the audit, syrupy or hypothesis's
strategies with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harness.testing.suite import TargetConformance

__all__ = ["TargetConformance"]


def __getattr__(name: str) -> Any:
    if name == "TargetConformance":
        from harness.testing.suite import TargetConformance

        return TargetConformance
    raise AttributeError(f"module 'harness.testing' has no attribute {name!r}")
'''

#: Package files the new layout needs: created when missing, never overwritten.
INIT_FILES: dict[str, str] = {
    "harness/importcheck/__init__.py": '"""import-check: import recorded requests and compare them with the reference\'s render."""\n',
    "harness/loop/__init__.py": '"""The closed loop (history -> request -> import -> history) and the JSON diff it compares with."""\n',
    "harness/cli/__init__.py": '"""The ``harness`` command line: ``harness.cli.main`` registers every command (``app``)."""\n',
    "harness/testing/__init__.py": _TESTING_FACADE,
    "tools/__init__.py": '"""Repo-only tools: run from a checkout (``python tools/<name>.py``), never shipped in the wheel."""\n',
    "tests/providers/__init__.py": "",
    **{
        f"tests/providers/{folder}/__init__.py": ""
        for folder in ("anthropic", "gemini", "openai_chat", "openai_responses", "openrouter")
    },
}

#: Files this branch changed by hand after the moves (not only by this script): a merge conflict
#: in one of them is resolved by hand; in any other file, ``--resolve`` takes the other side.
HAND_EDITED = frozenset(
    {
        "README.md",
        "docs/accepted.md",  # generated: python -m tools.accepted_docs > docs/accepted.md
        "docs/architecture.md",
        "docs/audits/import-check.md",
        "docs/cli.md",  # generated: python -m tools.cli_docs > docs/cli.md
        "docs/import-check-decisions.md",
        "harness/__init__.py",
        "harness/accepted.py",
        "harness/contract/accepted.py",
        "harness/importcheck/allowlist.py",
        "harness/importcheck/check.py",
        "harness/loop/allowlist.py",
        "harness/loop/closed_loop.py",
        "pyproject.toml",
        "tests/test_accepted.py",
        "tests/test_closed_loop.py",
        "tests/test_import_check.py",
        "tests/test_layers.py",
        "tests/test_public_api.py",
        "tests/test_relayout.py",
        "tools/accepted_docs.py",
        "tools/relayout.py",
    }
)

#: Where references are rewritten (repo-relative globs).
SCAN = (
    "harness/**/*.py",
    "harness/**/*.md",
    "tests/**/*.py",
    "tests/**/*.md",
    "examples/**/*.py",
    "examples/**/*.md",
    "examples/**/*.toml",
    "benchmarks/**/*.py",
    "benchmarks/**/*.md",
    "tools/**/*.py",
    "docs/**/*.md",
    "conftest.py",
    "pyproject.toml",
    "README.md",
    "CHANGELOG.md",
    "traffic/**/*.md",
    ".ci/*",
)
#: Never rewritten: this file (it names the old paths on purpose) and recorded data.
SKIP = ("tools/relayout.py", "tests/test_relayout.py")


def module_name(path: str) -> str:
    """``harness/cli/main.py`` -> ``harness.cli.main``; a package's ``__init__`` is the package."""
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


RENAMES: dict[str, str] = {module_name(old): module_name(new) for old, new in {**MOVES, **MERGED}.items()}


def submodules(package: str) -> frozenset[str]:
    """The modules and packages directly inside ``package`` in the new layout (and on disk)."""
    names = {
        module_name(new).split(".")[-1]
        for new in [*MOVES.values(), *INIT_FILES]
        if module_name(new).rsplit(".", 1)[0] == package and module_name(new) != package
    }
    folder = ROOT / package.replace(".", "/")
    if folder.is_dir():
        names |= {p.stem for p in folder.glob("*.py") if p.stem != "__init__"}
        names |= {p.name for p in folder.iterdir() if (p / "__init__.py").is_file()}
    return frozenset(names)


#: Old names that are packages in the new layout: their own modules and names are not stale.
_PACKAGES = {old: submodules(old) | offered for old, offered in FACADES.items()}

_DOTTED = re.compile(r"(?<![\w.])((?:harness|tools|tests)(?:\.\w+)+)")
_FROM_PARENT = re.compile(r"^([ \t]*)from (harness|tests) import ([\w, ]+?)([ \t]*(?:#.*)?)$", re.MULTILINE)


def rename_dotted(dotted: str) -> str:
    """The new spelling of a dotted name (module, or module plus attribute); unchanged when current."""
    parts = dotted.split(".")
    for cut in range(len(parts), 1, -1):
        head = ".".join(parts[:cut])
        if head not in RENAMES:
            continue
        rest = parts[cut:]
        if rest and rest[0] in _PACKAGES.get(head, frozenset()):
            return dotted  # a module of the new package of that name: already current
        return ".".join([RENAMES[head], *rest])
    return dotted


def _from_parent(match: re.Match[str]) -> str:
    """``from harness import import_shapes as shapes`` -> ``from harness.importcheck import shapes``."""
    indent, parent, names, tail = match.groups()
    kept: list[str] = []
    lines: list[str] = []
    for item in (n.strip() for n in names.split(",")):
        if not item:
            continue
        name, _, alias = (p.strip() for p in item.partition(" as "))
        old = f"{parent}.{name}"
        if old not in RENAMES:
            kept.append(item)
            continue
        new_parent, _, new_name = RENAMES[old].rpartition(".")
        local = alias or name
        spelled = new_name if local == new_name else f"{new_name} as {local}"
        lines.append(f"{indent}from {new_parent} import {spelled}")
    if not lines:
        return match.group(0)
    if kept:
        lines.insert(0, f"{indent}from {parent} import {', '.join(kept)}")
    lines[0] += tail
    return "\n".join(lines)


def rewrite(text: str) -> str:
    """Every stale reference in one file's text, rewritten to the new layout."""
    text = _FROM_PARENT.sub(_from_parent, text)
    # ``import harness.cli`` then ``harness.cli.X`` or ``harness.cli`` alone: the old module throughout
    old_module = {
        name
        for name, offered in FACADES.items()
        if not offered and re.search(rf"^\s*import {re.escape(name)}\s*(#.*)?$", text, re.MULTILINE)
    }

    def dotted(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in _PACKAGES or name in old_module:
            return rename_dotted(name)
        line_start = text.rfind("\n", 0, match.start()) + 1
        line_end = text.find("\n", match.end())
        before = text[line_start : match.start()]
        after = text[match.end() : line_end if line_end >= 0 else len(text)]
        imported = re.match(r"\s+import ([\w, ]+)", after) if before.rstrip().endswith("from") else None
        if imported:  # from harness.cli import X: stale unless X is the package's own module or name
            names = [n.split(" as ")[0].strip() for n in imported.group(1).split(",") if n.strip()]
            return name if all(n in _PACKAGES[name] for n in names) else rename_dotted(name)
        if re.match(r":[A-Za-z_]", after):  # an entry point, "harness.cli:app"
            return rename_dotted(name)
        if not FACADES[name] and re.search(r"\bimport\s+$", before):
            return rename_dotted(name)  # import harness.cli: the old module (the package offers nothing)
        return name  # the package itself (``harness.testing`` in prose), or one of its modules

    text = _DOTTED.sub(dotted, text)
    for old, new in {**MOVES, **MERGED}.items():
        if old in text:  # the regex only refines a plain match: skip it on the (usual) file without one
            text = re.sub(rf"(?<![\w/.]){re.escape(old)}(?![\w])", new, text)
    return text


def tracked(pattern: str) -> Iterator[Path]:
    for path in sorted(ROOT.glob(pattern)):
        rel = path.relative_to(ROOT).as_posix()
        if path.is_file() and rel not in SKIP and "/.venv/" not in f"/{rel}":
            yield path


def git(*args: str) -> None:
    subprocess.run(["git", *args], cwd=ROOT, check=True)


def run(check: bool, say: Callable[[str], None]) -> int:
    changes = 0
    for old, new in MOVES.items():
        src, dst = ROOT / old, ROOT / new
        if src.exists() and dst.exists():
            say(f"both exist: {old} and {new}; merge the old into the new by hand, delete the old, run again")
            changes += 1
        elif src.exists():
            say(f"move {old} -> {new}")
            changes += 1
            if not check:
                dst.parent.mkdir(parents=True, exist_ok=True)
                git("mv", old, new)
    for old, new in MERGED.items():
        if (ROOT / old).exists():
            say(f"merged: {old} is now part of {new}; move its entries there by hand, delete it, run again")
            changes += 1
    for path, content in INIT_FILES.items():
        target = ROOT / path
        if not target.exists():
            say(f"create {path}")
            changes += 1
            if not check:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(content, encoding="utf-8")
                git("add", path)
    seen: set[Path] = set()
    rewritten: list[str] = []
    for pattern in SCAN:
        for path in tracked(pattern):
            if path in seen:
                continue
            seen.add(path)
            text = path.read_text(encoding="utf-8")
            new_text = rewrite(text)
            if new_text != text:
                say(f"rewrite {path.relative_to(ROOT).as_posix()}")
                changes += 1
                if not check:
                    path.write_text(new_text, encoding="utf-8")
                    rewritten.append(path.relative_to(ROOT).as_posix())
    python = [
        p
        for p in rewritten
        if p.endswith(".py") and "\n<<<<<<< " not in (ROOT / p).read_text(encoding="utf-8")
    ]
    if python:  # a renamed import can fall out of order or past the line length
        tidy(python)
    return changes


def tidy(paths: list[str]) -> None:
    """Sort the imports and format the rewritten files (ruff, as the project's own lint does)."""
    for args in (["check", "--select", "I", "--fix", "--quiet"], ["format", "--quiet"]):
        done = subprocess.run([sys.executable, "-m", "ruff", *args, *paths], cwd=ROOT, check=False)
        if done.returncode != 0:
            print(
                f"ruff {args[0]} did not finish cleanly: run it yourself (uv run ruff {' '.join(args)} ...)"
            )


def resolve(side: str, say: Callable[[str], None]) -> list[str]:
    """In a conflicted merge, take ``side`` (the branch written against the old layout) for every
    conflicted file this branch changed only by script; return the conflicted hand-edited ones."""
    listed = subprocess.run(
        ["git", "diff", "--name-only", "--diff-filter=U"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    by_hand: list[str] = []
    for path in listed:
        if path in HAND_EDITED:
            by_hand.append(path)
            continue
        say(f"take {side}: {path}")
        git("checkout", f"--{side}", "--", path)
        git("add", "--", path)
    return by_hand


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 when something would")
    parser.add_argument(
        "--resolve",
        choices=("ours", "theirs"),
        help="during a conflicted merge with an old-layout branch: take that branch's side (ours or "
        "theirs) of every conflicted file not in HAND_EDITED, then relayout; list the rest",
    )
    args = parser.parse_args(argv)
    if args.resolve:
        by_hand = resolve(args.resolve, print)
        run(False, print)
        for path in by_hand:
            print(f"resolve by hand: {path}")
        return 1 if by_hand else 0
    changes = run(args.check, print)
    if args.check:
        return 1 if changes else 0
    print(f"{changes} change(s)" if changes else "nothing to do: the tree is in the new layout")
    return 0


if __name__ == "__main__":
    sys.exit(main())
