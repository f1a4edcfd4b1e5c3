"""A format-valid sample for every rule the detector knows, generated from the rule's own regex.

Gitleaks' rules carry no samples, so each is derived: literals as written, character
classes drawn at random (seeded by the rule id, so the same sample every run; random
so that entropy thresholds are met), the shortest repeat that a rule accepts (at least
24 characters for an open-ended secret), the first alternative, context quantifiers
(``{0,n}``) empty. A sample counts only if the detector finds its own rule's secret in
it, so a rule whose generated sample fails is reported, not silently dropped.
"""

from __future__ import annotations

import functools
import random
import re
import string
import tomllib
from importlib import import_module, resources
from typing import Any

from harness.secret_rules import GITLEAKS_FILE, HARNESS_FILE, load_rules

#: The tail of every canary key: 40 characters, enough for any key rule's length.
TAIL = "0123456789abcdefghijABCDEFGHIJ0123456789"

#: One synthetic canary per key kind the shared detector knows (harness/record/secrets.py), built from
#: pieces so this file itself holds no key-shaped string.
EVERY_KIND = {
    "anthropic": "sk-" + "ant-api03-" + TAIL,
    "openai": "sk-" + TAIL,
    "openai-project": "sk-" + "proj-" + TAIL,
    "openrouter": "sk-" + "or-v1-" + TAIL,
    "google": "AI" + "za" + TAIL[:35],
    "groq": "gs" + "k_" + TAIL,
    "xai": "xa" + "i-" + TAIL,
    "aws-access-key-id": "AK" + "IA" + "CANARY0123456789",
    "github": "gh" + "p_" + TAIL,
    "github-fine-grained": "github" + "_pat_" + TAIL,
    "slack": "xo" + "xb-" + "123456789012-" + TAIL,
    "jwt": "ey" + "JhbGciOiJIUzI1NiJ9." + "ey" + "JzdWIiOiJjYW5hcnkifQ." + TAIL,
    "stripe": "sk" + "_live_" + TAIL,
    "huggingface": "h" + "f_" + TAIL,
}

#: Python's own regex parser (``re._parser``): the syntax tree a sample is drawn from.
_sre_parse: Any = import_module("re._parser")
_PRINTABLE = [chr(c) for c in range(32, 127)]
_PREFERRED = string.ascii_letters + string.digits


def _python_regex(pattern: str) -> str:
    """RE2 syntax Python's parser rejects: inline ``(?i)`` past the start, ``\\z``, POSIX classes."""
    return pattern.replace("(?i)", "").replace("\\z", "$").replace("[:alnum:]", "A-Za-z0-9")


def _class_chars(items: list[tuple[Any, Any]]) -> list[str]:
    negate = False
    chars: set[str] = set()
    for op, av in items:
        name = str(op)
        if name == "NEGATE":
            negate = True
        elif name == "LITERAL":
            chars.add(chr(av))
        elif name == "RANGE":
            chars.update(chr(c) for c in range(av[0], min(av[1], 126) + 1))
        elif name == "CATEGORY":
            chars.update(c for c in _PRINTABLE if re.fullmatch(_CATEGORIES.get(str(av), "."), c))
    if negate:  # a boundary ("not a key character"): a space, as text around a key has
        rest = [c for c in _PRINTABLE if c not in chars]
        return [" "] if " " in rest else rest
    return sorted(chars)


_CATEGORIES = {
    "CATEGORY_DIGIT": r"\d",
    "CATEGORY_NOT_DIGIT": r"\D",
    "CATEGORY_SPACE": r" ",
    "CATEGORY_NOT_SPACE": r"\S",
    "CATEGORY_WORD": r"\w",
    "CATEGORY_NOT_WORD": r"\W",
}


def _pick(pool: list[str], rng: random.Random) -> str:
    best = [c for c in pool if c in _PREFERRED] or [c for c in pool if c in " ="] or pool or ["a"]
    return rng.choice(best)


def _emit(items: Any, rng: random.Random) -> str:
    out: list[str] = []
    for op, av in items:
        name = str(op)
        if name == "LITERAL":
            out.append(chr(av))
        elif name == "NOT_LITERAL":
            out.append(_pick([c for c in _PREFERRED if ord(c) != av], rng))
        elif name == "ANY":
            out.append(rng.choice(".a"))  # often an unescaped dot in a host name
        elif name == "IN":
            out.append(_pick(_class_chars(av), rng))
        elif name == "CATEGORY":
            out.append(_pick(_class_chars([(op, av)]), rng))
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            lo, hi, sub = av
            count = lo if lo == 0 or lo >= 20 or hi == lo else min(hi, max(lo, 24))
            out += [_emit(sub, rng) for _ in range(count)]
        elif name == "SUBPATTERN":
            out.append(_emit(av[-1], rng))
        elif name == "BRANCH":
            out.append(_emit(av[1][0], rng))
        elif name in ("ATOMIC_GROUP",):
            out.append(_emit(av, rng))
    return "".join(out)


def generate(pattern: str, seed: str) -> str:
    return _emit(_sre_parse.parse(_python_regex(pattern)), random.Random(seed))


def _raw_rules() -> list[dict[str, Any]]:
    files = resources.files("harness.secret_rules")
    out: list[dict[str, Any]] = []
    for name in (HARNESS_FILE, GITLEAKS_FILE):
        out += [r for r in tomllib.loads(files.joinpath(name).read_text("utf-8"))["rules"] if "regex" in r]
    return out


@functools.cache
def samples() -> dict[str, tuple[str, str]]:
    """rule id -> (sample text, the secret in it), for every secret rule whose sample its own rule finds."""
    from harness.record.secrets import secret_spans

    secret_ids = {r.id for r in load_rules() if r.cls == "secret"}
    out: dict[str, tuple[str, str]] = {}
    for raw in _raw_rules():
        rule_id = str(raw["id"])
        if rule_id not in secret_ids or rule_id in out:
            continue
        for attempt in range(20):
            text = generate(str(raw["regex"]), f"{rule_id}/{attempt}")
            own = [m for m in secret_spans(text) if m.kind == rule_id]
            if own:
                out[rule_id] = (text, own[0].value)
                break
    return out


def failures() -> list[str]:
    """Secret rules for which no sample could be generated."""
    return sorted({r.id for r in load_rules() if r.cls == "secret"} - set(samples()))
