"""``harness scan``: find key-like strings (and account ids) in files before they are committed.

The last line of defence after scrubbing, run in CI over ``cassettes/``. Lines are
scanned as text; YAML files are also scanned by decoded string value, because YAML
may fold a long string across lines or escape it, which would hide a key from a line
scan. A report never repeats the secret: only its kind, a short prefix and its length.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import yaml

from harness.scrub import ACCOUNT_ID_PATTERN, KEY_PATTERN

__all__ = ["Finding", "classify", "mask", "scan_paths", "scan_text"]

_KINDS = (
    ("sk-ant-", "anthropic-key"),
    ("sk-or-v1-", "openrouter-key"),
    ("sk-proj-", "openai-project-key"),
    ("sk-svcacct-", "openai-service-account-key"),
    ("sk-admin-", "openai-admin-key"),
    ("sk-", "openai-key"),
    ("AIza", "google-api-key"),
    ("gsk_", "groq-key"),
    ("xai-", "xai-key"),
    ("org-", "openai-organization-id"),
    ("proj_", "openai-project-id"),
)
_YAML_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int
    kind: str
    masked: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.kind}: {self.masked}"


def classify(secret: str) -> str:
    if secret.lower().startswith("bearer"):
        return "bearer-token"
    return next((kind for prefix, kind in _KINDS if secret.startswith(prefix)), "key")


def mask(secret: str) -> str:
    """A recognisable but useless form: the kind's public prefix and the length."""
    prefix = next(
        (p for p, _ in _KINDS if secret.startswith(p)),
        secret[:6] if secret.lower().startswith("bearer") else "",
    )
    return f"{prefix}*** ({len(secret)} chars)"


def _matches(text: str) -> Iterator[str]:
    for pattern in (KEY_PATTERN, ACCOUNT_ID_PATTERN):
        for m in pattern.finditer(text):
            yield m.group(1)


def scan_text(text: str, path: str) -> list[Finding]:
    """Line findings, plus findings in decoded YAML string values that no line showed."""
    findings = [
        Finding(path, number, classify(s), mask(s))
        for number, line in enumerate(text.splitlines(), start=1)
        for s in _matches(line)
    ]
    if path.endswith(_YAML_SUFFIXES):
        seen = {(f.line, f.masked) for f in findings}
        for line, value in _yaml_strings(text):
            for s in _matches(value):
                finding = Finding(path, line, classify(s), mask(s))
                if (line, finding.masked) not in seen:
                    findings.append(finding)
    return sorted(set(findings))


def _yaml_strings(text: str) -> Iterator[tuple[int, str]]:
    """(1-based start line, decoded value) of every scalar in a YAML document; nothing if it does not parse."""
    try:
        root = cast("yaml.Node | None", yaml.compose(text, Loader=yaml.SafeLoader))  # pyright: ignore[reportUnknownMemberType]
    except yaml.YAMLError:
        return
    stack: list[Any] = [root] if root is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.ScalarNode):
            yield node.start_mark.line + 1, str(node.value)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            stack.extend(item for pair in node.value for item in pair)


def _files(paths: Iterable[Path]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.is_file())
        else:
            yield path


def scan_paths(paths: Iterable[Path]) -> list[Finding]:
    """Findings in every file under ``paths`` (binary content is read as UTF-8 with replacement)."""
    findings: list[Finding] = []
    for file in _files(paths):
        text = file.read_bytes().decode("utf-8", errors="replace")
        findings += scan_text(text, str(file))
    return findings
