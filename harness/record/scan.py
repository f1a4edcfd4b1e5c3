"""``harness scan``: find key-like strings (and account ids) in files before they are committed.

The last line of defence after scrubbing, run in CI over ``cassettes/``. One detector
(``harness/record/secrets.py``) shared with the scrubber and ``check_clean``. Lines are scanned
as text; YAML files are also scanned by decoded string value (YAML may fold or escape a
long string), and what gzip and base64 payloads (``!!binary`` bodies) hide is decoded and
scanned too. Every file is read through the input boundary (``harness/inputs``): an
unreadable or hostile file is reported and skipped, never a traceback. Symlinks inside
the tree are followed, each directory once (no loops; a link that loops onto itself is
one unreadable entry, ELOOP); a link out of the tree is listed, not followed, unless
``--follow-symlinks`` asks for it; ``.gitignore`` files are honoured unless asked
not to; ``--exclude`` takes glob patterns. A report never repeats the secret: only its
kind, a short prefix and its length.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import fnmatch
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from harness.inputs import InputError, Limits, gunzip, read_bytes
from harness.inputs.yaml_load import compose_yaml
from harness.record.secrets import decoded_texts, field_views, find_secrets
from harness.secret_rules import global_allowlist

__all__ = ["Finding", "ScanResult", "classify", "mask", "scan_paths", "scan_text", "views"]

_YAML_SUFFIXES = (".yaml", ".yml")
#: Gitleaks' inline marker for a line whose secret is deliberate (a test's fake key).
ALLOW_MARKER = "gitleaks:allow"
#: Recordings never honour the marker: a recorded body can hold any text the agent read.
_RECORDING_SUFFIXES = (*_YAML_SUFFIXES, ".har", ".json", ".jsonl", ".txt")
_BINARY_TAG = "tag:yaml.org,2002:binary"


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int
    kind: str
    masked: str
    cls: str = "secret"  # or "identifier": an account or project id, reported apart, not a key

    def __str__(self) -> str:
        label = self.kind if self.cls == "secret" else f"identifier {self.kind}"
        return f"{self.path}:{self.line}: {label}: {self.masked}"


@dataclass
class ScanResult:
    findings: list[Finding] = field(default_factory=lambda: [])
    #: Identifiers (OpenAI organization and project ids): scrubbed from cassettes, but not secrets.
    identifiers: list[Finding] = field(default_factory=lambda: [])
    #: Files (or parts of files) that could not be read or decoded, one ``FILE[:LINE]: field: reason`` each.
    skipped: list[str] = field(default_factory=lambda: [])
    #: Symlinks out of the scanned tree, not followed (``follow_symlinks`` False).
    not_followed: list[str] = field(default_factory=lambda: [])
    #: Findings on a source line marked ``gitleaks:allow`` (deliberate fake keys): counted, not reported.
    allowed: list[Finding] = field(default_factory=lambda: [])


def classify(secret: str) -> str:
    found = find_secrets(secret, account_ids=True)
    return found[0].kind if found else "key"


def mask(secret: str) -> str:
    """A recognisable but useless form: the kind's public prefix and the length."""
    found = find_secrets(secret, account_ids=True)
    return found[0].masked() if found else f"*** ({len(secret)} chars)"


#: A text longer than this is searched in overlapping windows: the detector's copies (lowered,
#: encoded) are a window's, never a 200 MB body's (``harness scan`` of such a body stays bounded).
_WINDOW = 4 << 20
#: What two windows share: longer than any secret the rules match (a PEM private key block is a
#: few KB), so each one is whole in some window.
_OVERLAP = 64 << 10


def _findings(text: str, path: str, line: int) -> Iterator[Finding]:
    if len(text) <= _WINDOW:
        for m in find_secrets(text, account_ids=True, path=path):
            yield Finding(path, line + text.count("\n", 0, m.start), m.kind, m.masked(), m.cls)
        return
    step = _WINDOW - _OVERLAP
    at = 0
    while at < len(text):
        window = text[at : at + _WINDOW]
        last = at + _WINDOW >= len(text)
        for m in find_secrets(window, account_ids=True, path=path):
            if last or m.start < step:  # a match in the shared tail is the next window's
                yield Finding(path, line + window.count("\n", 0, m.start), m.kind, m.masked(), m.cls)
        if last:
            break
        line += window.count("\n", 0, step)
        at += step


def _bounded_gunzip(path: str, line: int) -> object:
    def run(data: bytes) -> bytes:
        return gunzip(data, source=path, line=line, field="(gzip payload)")

    return run


def scan_text(text: str, path: str, skipped: list[str] | None = None) -> list[Finding]:
    """Line findings, plus findings in decoded YAML values and in gzip/base64 payloads."""
    findings = set(_findings(text, path, 1))
    try:
        for line, value in _decoded(text, path):
            findings.update(_findings(value, path, line) if "\n" not in value else _flat(value, path, line))
    except InputError as exc:
        if skipped is not None:
            skipped.append(f"{exc} (scanned as plain text only)")
    return sorted(findings)


def _flat(value: str, path: str, line: int) -> Iterator[Finding]:
    """Findings in a decoded payload, all reported at the line of the value that holds it."""
    for f in _findings(value, path, line):
        yield Finding(path, line, f.kind, f.masked, f.cls)


def views(text: str, path: str, skipped: list[str]) -> Iterator[str]:
    """``text`` and every decoded view the scanner searches (YAML values, gzip, base64, ``!!binary``).

    A part that cannot be decoded (a gzip bomb, a broken payload) is named in ``skipped``.
    """
    yield text
    try:
        for _, value in _decoded(text, path):
            yield value
    except InputError as exc:
        skipped.append(str(exc))


def _decoded(text: str, path: str) -> Iterator[tuple[int, str]]:
    """(line, text) of YAML string values and of what gzip/base64 hides in any value."""
    if path.endswith(_YAML_SUFFIXES):
        for line, value, binary in _yaml_strings(text, path):
            if binary is not None:
                yield from ((line, t) for t in decoded_texts(binary, gunzip=_bounded_gunzip(path, line)))
            else:
                yield from ((line, v) for v in field_views(value))  # the value, its JSON, percent-decoded
                yield from ((line, t) for t in decoded_texts(value, gunzip=_bounded_gunzip(path, line)))
    else:
        yield from ((1, v) for v in field_views(text) if v is not text)
        yield from ((1, t) for t in decoded_texts(text, gunzip=_bounded_gunzip(path, 1)))


def _yaml_strings(text: str, path: str) -> Iterator[tuple[int, str, bytes | None]]:
    """(line, decoded value, bytes of a ``!!binary`` value) of every scalar; nothing if not YAML."""
    try:
        root = compose_yaml(text, source=path)
    except InputError as exc:
        if exc.reason.startswith("invalid YAML"):
            return  # not YAML (or broken YAML): the line scan is all there is
        raise
    stack: list[yaml.Node] = [root] if root is not None else []
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue  # an alias: its strings were scanned at the anchor
        seen.add(id(node))
        if isinstance(node, yaml.ScalarNode):
            value = str(node.value)
            binary: bytes | None = None
            if node.tag == _BINARY_TAG:
                try:
                    binary = base64.b64decode("".join(value.split()))
                except (binascii.Error, ValueError):
                    binary = None
            yield node.start_mark.line + 1, value, binary
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            stack.extend(item for pair in node.value for item in pair)


# ---------------------------------------------------------------- walking the tree


def _ignore_patterns(directory: Path) -> list[str]:
    """Patterns of ``directory/.gitignore`` (negations are not supported and are skipped)."""
    file = directory / ".gitignore"
    try:
        text = read_bytes(file).decode("utf-8", errors="replace") if file.is_file() else ""
    except InputError:
        return []
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith(("#", "!"))]


def _ignored(rel: str, name: str, is_dir: bool, patterns: Iterable[str]) -> bool:
    for pattern in patterns:
        dir_only = pattern.endswith("/")
        p = pattern.strip("/")
        if dir_only and not is_dir:
            continue
        if "/" in pattern.rstrip("/"):
            if fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(rel, p + "/*"):
                return True
        elif fnmatch.fnmatch(name, p):
            return True
    return False


def _outside(entry: os.DirEntry[str], real_root: str) -> bool:
    """Whether a symlink ``entry`` points out of the tree (a dangling or looping link counts as inside)."""
    if not entry.is_symlink():
        return False
    real = os.path.realpath(entry.path)
    return os.path.commonpath([real, real_root]) != real_root


def _walk(
    root: Path,
    excludes: list[str],
    gitignore: bool,
    visited: set[tuple[int, int]],
    result: ScanResult | None = None,
    follow: bool = True,
) -> Iterator[Path]:
    """Files under ``root`` in sorted order; directory symlinks followed, each directory once.

    With ``follow`` False a symlink out of the tree is listed in ``result.not_followed``.
    """
    real_root = os.path.realpath(root)
    stack: list[tuple[Path, list[tuple[Path, list[str]]]]] = [(root, [])]
    while stack:
        directory, rules = stack.pop()
        try:
            st = directory.stat()
        except OSError:
            continue
        if (st.st_dev, st.st_ino) in visited:
            continue  # a symlink loop, or a directory reached twice
        visited.add((st.st_dev, st.st_ino))
        if gitignore:
            own = _ignore_patterns(directory)
            rules = [*rules, (directory, own)] if own else rules
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            continue
        subdirs: list[Path] = []
        for entry in entries:
            path = Path(entry.path)
            try:
                is_dir = entry.is_dir(follow_symlinks=True)
            except OSError:  # ELOOP: a link onto itself; reading it reports the one line
                is_dir = False
            if entry.name == ".git" or _excluded(path, root, entry.name, excludes):
                continue
            if not follow and _outside(entry, real_root):
                if result is not None:
                    result.not_followed.append(f"{path}: a symbolic link out of the tree, not followed")
                continue
            if any(
                _ignored(path.relative_to(base).as_posix(), entry.name, is_dir, pats) for base, pats in rules
            ):
                continue
            if is_dir:
                subdirs.append(path)
            else:
                yield path
        stack.extend((d, rules) for d in reversed(subdirs))


def _excluded(path: Path, root: Path, name: str, excludes: list[str]) -> bool:
    rel = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.as_posix()
    return any(
        fnmatch.fnmatch(name, pattern)
        or fnmatch.fnmatch(rel, pattern)
        or fnmatch.fnmatch(path.as_posix(), pattern)
        for pattern in excludes
    )


def _files(
    paths: Iterable[Path], excludes: list[str], gitignore: bool, result: ScanResult, follow: bool
) -> Iterator[Path]:
    visited: set[tuple[int, int]] = set()
    for path in paths:
        if path.is_dir():
            yield from _walk(path, excludes, gitignore, visited, result, follow)
        else:
            yield path


def scan_paths(
    paths: Iterable[Path],
    *,
    excludes: Iterable[str] = (),
    gitignore: bool = True,
    follow_symlinks: bool = False,
) -> ScanResult:
    """Findings in every file under ``paths``; unreadable files are listed in ``skipped``.

    Symlinks out of a scanned folder are followed only with ``follow_symlinks`` (else listed
    in ``not_followed``): a link into ``/usr`` would scan the system, not the repository.
    """
    result = ScanResult()
    limits = Limits.from_env()
    for file in _files(paths, list(excludes), gitignore, result, follow_symlinks):
        if _allowlisted(file):
            continue
        try:
            data = read_bytes(file, limits)
        except InputError as exc:
            result.skipped.append(str(exc))
            continue
        if data[:2] == b"\x1f\x8b":
            try:
                data = gunzip(data, source=str(file), field="(file)", limits=limits)
            except InputError as exc:
                result.skipped.append(str(exc))
                continue
        text = _text(data)
        del data  # a big file is held once, as its text
        marked = _marked_lines(text, file)
        for finding in scan_text(text, str(file), result.skipped):
            if finding.line in marked:
                result.allowed.append(finding)
            else:
                (result.findings if finding.cls == "secret" else result.identifiers).append(finding)
    return result


#: Byte order marks and the text encodings they announce (UTF-32 before UTF-16: its LE mark starts so).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def _text(data: bytes) -> str:
    """A file's text: in the encoding its byte order mark announces (a key in a UTF-16 file is a
    key, not letters between NUL bytes), else UTF-8, each other byte kept as a lone surrogate
    (a key between binary bytes is still found)."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(encoding)
            except UnicodeDecodeError:
                break  # not that encoding after all: read as bytes
    return data.decode("utf-8", errors="surrogateescape")


def _marked_lines(text: str, file: Path) -> set[int]:
    """Line numbers carrying gitleaks' ``gitleaks:allow`` marker, in source files only."""
    if ALLOW_MARKER not in text or file.name.endswith(_RECORDING_SUFFIXES):
        return set()
    return {n for n, line in enumerate(text.split("\n"), 1) if ALLOW_MARKER in line}


def _allowlisted(path: Path) -> bool:
    """Gitleaks' global path allowlist (lock files, images, fonts, its own rule file...)."""
    posix = path.as_posix()
    return any(p.search(posix) for p in global_allowlist()[2])
