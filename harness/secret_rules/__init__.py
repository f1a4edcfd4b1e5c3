"""The secret rules as data: the harness's own (``harness.toml``) then gitleaks' defaults (vendored).

``gitleaks.toml`` is gitleaks 8.30.1's default configuration, unchanged (provenance in
``gitleaks.provenance.json``, refreshed by ``tools/sync_gitleaks_rules.py``). Gitleaks
writes its rules for Go's ``regexp``, which is RE2: every one compiles with
``google-re2`` as it is, so no rule is translated, and every rule runs in linear time
(no backtracking, so no input can make a rule slow). A rule that does not compile fails
the load loudly rather than being skipped. The harness's own rules use the same schema,
and gitleaks' rule lookarounds that RE2 lacks are expressed by the ``boundary`` field.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from importlib import import_module, resources
from typing import Any, cast

__all__ = [
    "GITLEAKS_FILE",
    "HARNESS_FILE",
    "Rule",
    "compile_literal_set",
    "compile_re2",
    "global_allowlist",
    "load_rules",
]

GITLEAKS_FILE = "gitleaks.toml"
HARNESS_FILE = "harness.toml"

_re2: Any = import_module("re2")


def compile_re2(pattern: str) -> Any:
    """A linear-time RE2 pattern (google-re2); raises ``re2.error`` when RE2 cannot express it."""
    options = _re2.Options()
    options.max_mem = 64 << 20  # a few rules (private keys, generic) need more than the 8 MiB default
    return _re2.compile(pattern, options)


def compile_literal_set(literals: tuple[str, ...]) -> Any:
    """An RE2 set of literal strings: ``.Match(data)`` gives the indices of those found in ``data``
    (UTF-8 bytes) in one linear pass, or None when none is."""
    literal_set = _re2.Set.SearchSet(_re2.Options())
    for literal in literals:
        literal_set.Add(_re2.escape(literal))
    literal_set.Compile()
    return literal_set


@dataclass(frozen=True)
class Allowlist:
    """Gitleaks' per-rule allowlist: a match is dropped when a regex (on its target) or a stopword hits."""

    regexes: tuple[Any, ...]
    target: str  # "secret" (default), "match" or "line"
    stopwords: tuple[str, ...]
    condition: str  # "OR" (default) or "AND"


@dataclass(frozen=True)
class Rule:
    id: str
    origin: str  # "harness" or "gitleaks"
    pattern: Any  # a compiled RE2 pattern
    keywords: tuple[str, ...]  # lower-case; the rule runs only when one occurs in the text
    entropy: float
    secret_group: int
    prefix: str
    boundary: str  # "", "left" or "both"
    cls: str  # "secret" or "identifier"
    allowlists: tuple[Allowlist, ...]
    path: Any = None  # gitleaks' file-name condition (``.tf``, ``nuget.config``...): RE2, or None


def _text(name: str) -> str:
    return resources.files(__package__ or "harness.secret_rules").joinpath(name).read_text(encoding="utf-8")


def _allowlist(raw: dict[str, Any]) -> Allowlist:
    return Allowlist(
        tuple(compile_re2(r) for r in cast(list[str], raw.get("regexes", []))),
        str(raw.get("regexTarget", "secret")),
        tuple(s.lower() for s in cast(list[str], raw.get("stopwords", []))),
        str(raw.get("condition", "OR")),
    )


def _rules(name: str, origin: str) -> list[Rule]:
    data = tomllib.loads(_text(name))
    out: list[Rule] = []
    for raw in cast(list[dict[str, Any]], data.get("rules", [])):
        if "regex" not in raw:
            continue  # gitleaks' path-only rules (pkcs12 files) judge file names, not contents
        allow = [a for a in cast(list[dict[str, Any]], raw.get("allowlists", [])) if not a.get("paths")]
        out.append(
            Rule(
                id=str(raw["id"]),
                origin=origin,
                pattern=compile_re2(str(raw["regex"])),
                keywords=tuple(k.lower() for k in cast(list[str], raw.get("keywords", []))),
                entropy=float(raw.get("entropy", 0.0)),
                secret_group=int(raw.get("secretGroup", 0)),
                prefix=str(raw.get("prefix", "")),
                boundary=str(raw.get("boundary", "")),
                cls=str(raw.get("class", "secret")),
                allowlists=tuple(_allowlist(a) for a in allow),
                path=compile_re2(str(raw["path"])) if "path" in raw else None,
            )
        )
    return out


@functools.cache
def load_rules() -> tuple[Rule, ...]:
    """Every rule, the harness's first (they win a tie at one position), then gitleaks' in file order."""
    return (*_rules(HARNESS_FILE, "harness"), *_rules(GITLEAKS_FILE, "gitleaks"))


@functools.cache
def global_allowlist() -> tuple[tuple[Any, ...], tuple[str, ...], tuple[Any, ...]]:
    """Gitleaks' global allowlist: (secret regexes, stopwords, path regexes)."""
    raw = cast(dict[str, Any], tomllib.loads(_text(GITLEAKS_FILE)).get("allowlist", {}))
    return (
        tuple(compile_re2(r) for r in cast(list[str], raw.get("regexes", []))),
        tuple(s.lower() for s in cast(list[str], raw.get("stopwords", []))),
        tuple(compile_re2(r) for r in cast(list[str], raw.get("paths", []))),
    )
