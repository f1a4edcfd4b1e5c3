"""One secret detector for ``harness scan``, ``check_clean`` and the recording scrubber.

The rules are data (``harness/secret_rules``): the harness's own rules for every LLM
provider, gateway and inference host plus detect-secrets' plugins, then gitleaks' default
rule set, vendored with its provenance. Each rule runs as gitleaks runs it: only when one
of its keywords occurs, on RE2 (linear time), its first non-empty capture group being the
secret, kept only above its entropy threshold and outside its allowlists. Identifiers
(OpenAI ``org-``/``proj_`` ids) are a class of their own: scrubbed, not secrets.
``decoded_texts`` yields what gzip, base64 and non-UTF-8 payloads hide, so a scanner can
look inside them too. Findings carry the kind, never the value.
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import math
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import unquote, urlsplit

from harness.secret_rules import Rule, compile_literal_set, global_allowlist, load_rules

__all__ = [
    "ACCOUNT_ID_PATTERN",
    "SecretMatch",
    "base64_pieces",
    "base64_runs",
    "bytes_text",
    "decoded_texts",
    "field_views",
    "find_secrets",
    "kinds",
    "redact",
    "secret_spans",
]

#: Organization and project ids (OpenAI ``org-``/``proj_``): not secrets, but they name the account
#: that recorded, and OpenAI quotes them in error bodies ("... in organization org-...").
ACCOUNT_ID_PATTERN = re.compile(r"(?<![A-Za-z0-9_-])(org-[A-Za-z0-9]{20,}|proj_[A-Za-z0-9]{20,})")

#: Rules that recognise a value by what names it, not by its shape: at one position a named kind wins.
_GENERIC = frozenset({"generic-api-key", "auth-header-value", "bearer-token"})

#: What the scrubber writes in place of a secret: never a secret itself (``user:REDACTED@host``).
REDACTED_MARK = "REDACTED"
_ALNUM = re.compile("[A-Za-z0-9]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


@dataclass(frozen=True)
class SecretMatch:
    kind: str
    prefix: str
    start: int
    end: int
    value: str
    cls: str = "secret"

    def masked(self) -> str:
        """A recognisable but useless form: the kind's public prefix and the length."""
        shown = self.prefix if self.prefix and self.value.startswith(self.prefix) else ""
        return f"{shown}*** ({len(self.value)} chars)"


def kinds(cls: str = "secret") -> list[str]:
    """Every kind the detector knows, rule order (``cls``: "secret" or "identifier")."""
    return list(dict.fromkeys(r.id for r in load_rules() if r.cls == cls))


def _entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(c / len(value) * math.log2(c / len(value)) for c in counts.values())


def _line(text: str, start: int, end: int) -> str:
    return text[text.rfind("\n", 0, start) + 1 : (e if (e := text.find("\n", end)) >= 0 else len(text))]


_BLOB = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-=")
#: A run of one base64 alphabet this long is an encoded blob (a Gemini thought signature, an image):
#: it is judged by what it decodes to (``decoded_texts``), not by the key shapes its letters happen to form.
_BLOB_LENGTH = 200


def _inside_blob(text: str, start: int, end: int) -> bool:
    left, right = start, end
    while left > 0 and text[left - 1] in _BLOB and start - left <= _BLOB_LENGTH:
        left -= 1
    while right < len(text) and text[right] in _BLOB and right - end <= _BLOB_LENGTH:
        right += 1
    return right - left >= _BLOB_LENGTH and (start - left) + (right - end) >= 32


def _allowed(rule: Rule, text: str, secret: str, whole: str, start: int, end: int) -> bool:
    regexes, stopwords, _ = global_allowlist()
    lower = secret.lower()
    if any(r.search(secret) for r in regexes) or any(w in lower for w in stopwords):
        return True
    for allow in rule.allowlists:
        target = {"match": whole, "line": _line(text, start, end)}.get(allow.target, secret)
        hits = [any(r.search(target) for r in allow.regexes), any(w in lower for w in allow.stopwords)]
        configured = [bool(allow.regexes), bool(allow.stopwords)]
        used = [h for h, c in zip(hits, configured, strict=True) if c]
        if used and (all(used) if allow.condition == "AND" else any(used)):
            return True
    return False


def _matches(rule: Rule, text: str, data: bytes) -> Iterator[SecretMatch]:
    """Matches of ``rule``, run on ``data`` (``text`` in UTF-8, encoded once for every rule)."""
    for m in rule.pattern.finditer(data):
        group = rule.secret_group or next((g for g in range(1, m.re.groups + 1) if m.group(g)), 0)
        start, end = m.span(group)
        if len(data) != len(text):  # not ASCII: byte offsets to character offsets
            start = len(data[:start].decode("utf-8", errors="replace"))
            end = start + len(data[m.span(group)[0] : m.span(group)[1]].decode("utf-8", errors="replace"))
        value = text[start:end]
        if not value or not _ALNUM.search(value.replace(REDACTED_MARK, "")):
            continue  # nothing left once the scrubber's own marker is taken out
        if rule.boundary and start > 0 and text[start - 1] in _WORD:
            continue
        if rule.boundary == "both" and end < len(text) and text[end] in _WORD:
            continue
        if rule.entropy and _entropy(value) < rule.entropy:
            continue
        if _inside_blob(text, start, end):
            continue
        whole = bytes(m.group(0)).decode("utf-8", errors="replace")
        if _allowed(rule, text, value, whole, start, end):
            continue
        yield SecretMatch(rule.id, rule.prefix, start, end, value, rule.cls)


@functools.cache
def _keyword_index() -> tuple[Any, tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Every rule's keywords in one RE2 set, the rules (by index) each keyword of the set lets
    run, and the rules that have no keyword (they always run).

    One pass over a text tells which keywords occur in it, and so which rules run: a
    substring test per keyword of every rule (hundreds per text) was most of a scan's, and
    a recording's, time.
    """
    rules = load_rules()
    keywords = tuple(sorted({k for rule in rules for k in rule.keywords}))
    using = tuple(tuple(n for n, rule in enumerate(rules) if k in rule.keywords) for k in keywords)
    always = tuple(n for n, rule in enumerate(rules) if not rule.keywords)
    return compile_literal_set(keywords), using, always


def _candidates(lower: str) -> list[Rule]:
    """The rules that run on ``lower``: those with a keyword in it (one linear pass, on UTF-8 as
    RE2 reads it), and those with none, in rule order."""
    keyword_set, using, always = _keyword_index()
    chosen = set(always)
    found: list[int] = keyword_set.Match(lower.encode("utf-8")) or []
    for i in found:
        chosen.update(using[i])
    rules = load_rules()
    return [rules[n] for n in sorted(chosen)]


def secret_spans(text: str, *, identifiers: bool = True, path: str | None = None) -> list[SecretMatch]:
    """Every match of every rule, overlaps included (what a scrubber must remove).

    ``path`` names the file ``text`` comes from: a rule that gitleaks limits to some files
    (a password field in ``.tf`` files) then runs only on those. Without a path (a recorded
    body about to be written) every rule runs: the scrubber errs towards removing.
    """
    if not text.isascii():
        text = _SURROGATE.sub("\ufffd", text)  # RE2 takes UTF-8: a lone surrogate (a non-UTF-8 byte) is
    lower = text.lower()  # one replacement character, so every position stays where it was
    data = text.encode("utf-8")
    found: list[SecretMatch] = []
    for rule in _candidates(lower):
        if rule.cls == "identifier" and not identifiers:
            continue
        if path is not None and rule.path is not None and not rule.path.search(path):
            continue
        found += _matches(rule, text, data)
    return found


def find_secrets(text: str, *, account_ids: bool = False, path: str | None = None) -> list[SecretMatch]:
    """Every secret in ``text`` (and identifiers when asked), left to right, no overlaps.

    At one position the first rule wins (the harness's named kinds before gitleaks' generic ones).
    """
    rank = {r.id: (r.id in _GENERIC, i) for i, r in enumerate(load_rules())}
    spans = secret_spans(text, identifiers=account_ids, path=path)
    out: list[SecretMatch] = []
    end = -1
    for match in sorted(spans, key=lambda m: (m.start, rank[m.kind], -m.end)):
        if match.start >= end:
            out.append(match)
            end = match.end
    return out


def redact(text: str, replacement: str = "REDACTED") -> str:
    """``text`` with every secret and identifier replaced (overlapping matches merged)."""
    spans = sorted((m.start, m.end) for m in secret_spans(text))
    if not spans:
        return text
    pieces: list[str] = []
    at = 0
    for start, end in spans:
        if end <= at:
            continue
        pieces += [text[at : max(at, start)], replacement] if start >= at else [replacement]
        at = end
    pieces.append(text[at:])
    return "".join(pieces)


def _json_strings(value: Any) -> Iterator[str]:
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, list):
            stack.extend(cast(list[Any], item))
        elif isinstance(item, dict):
            for k, v in cast(dict[str, Any], item).items():
                stack += [k, v]


def field_views(text: str) -> Iterator[str]:
    """``text`` and its decoded views: JSON string values (whole body or SSE ``data:`` lines), percent-decoded."""
    yield text
    docs = [text] if text.lstrip()[:1] in ("{", "[") else []
    if "data:" in text:  # no split of a big body into lines unless it holds a data line at all
        docs += [m.group(1) for m in _DATA_LINE.finditer(text)]
    for doc in docs:
        try:
            yield from _json_strings(json.loads(doc))
        except (ValueError, RecursionError):
            continue
    if "%" in text:
        yield unquote(text)
    if _URL.fullmatch(text):  # each path segment is a field of its own: a key there stands alone,
        yield from (unquote(seg) for seg in urlsplit(text).path.split("/") if seg)  # not in a base64 run


_URL = re.compile(r"https?://\S+")
_DATA_LINE = re.compile(r"^data:(.*)$", re.MULTILINE)
#: A base64 run longer than this is decoded in overlapping pieces (``base64_pieces``): a 200 MB
#: payload is never one 150 MB decode and one 600 MB text of its bytes at once.
_PIECE = 4 << 20
#: Encoded characters two pieces share (a multiple of 4): longer than any key, so a key that
#: straddles a piece boundary is whole in one of the two (the other may report its cut head too).
_PIECE_OVERLAP = 16 << 10
_BASE64_RUN = re.compile(r"[A-Za-z0-9+/]{20,}={0,2}|[A-Za-z0-9_-]{20,}={0,2}")


def base64_runs(text: str) -> Iterator[tuple[int, int, bytes]]:
    """(start, end, decoded bytes) of every run of text that decodes as base64 (standard or URL-safe)."""
    for m in _BASE64_RUN.finditer(text):
        run = m.group()
        try:
            raw = base64.b64decode(
                run + "=" * (-len(run) % 4), altchars=b"-_" if "-" in run or "_" in run else None
            )
        except (binascii.Error, ValueError):
            continue
        yield m.start(), m.end(), raw


def base64_pieces(text: str) -> Iterator[bytes]:
    """What every base64 run of ``text`` decodes to, a run longer than ``_PIECE`` in overlapping
    pieces (each decoded from a multiple of 4 characters into the run, so each is a decode of
    its own), for a scanner's bounded memory. A run that holds a gzip payload is decoded whole:
    only the whole payload decompresses (the decompressor is bounded on its own)."""
    for m in _BASE64_RUN.finditer(text):
        start, end = m.span()
        if end - start <= _PIECE or text[start : start + 4] == "H4sI":  # "H4sI": base64 of gzip's magic
            found = _decoded_run(text[start:end])
            if found is not None:
                yield found
            continue
        step = _PIECE - _PIECE_OVERLAP
        for at in range(start, end, step):
            found = _decoded_run(text[at : min(at + _PIECE, end)])
            if found is not None:
                yield found
            if at + _PIECE >= end:
                break


def _decoded_run(run: str) -> bytes | None:
    try:
        return base64.b64decode(
            run + "=" * (-len(run) % 4), altchars=b"-_" if "-" in run or "_" in run else None
        )
    except (binascii.Error, ValueError):
        return None


def bytes_text(data: bytes) -> str:
    """Bytes as text for searching: UTF-8 where it is, each other byte kept as a lone surrogate."""
    return data.decode("utf-8", errors="surrogateescape")


def decoded_texts(data: bytes | str, *, depth: int = 2, gunzip: object = None) -> Iterator[str]:
    """Texts hidden in ``data``: a gzip payload decompressed, base64 runs decoded, bytes as text.

    ``gunzip`` is the bounded decompressor (``bytes -> bytes``, raising on bombs); without
    one, gzip payloads are not opened. Bytes that are not UTF-8 are still searched (an ASCII
    key between binary bytes is found).
    """
    if depth <= 0:
        return
    if isinstance(data, bytes):
        if data[:2] == b"\x1f\x8b" and callable(gunzip):
            inner = gunzip(data)
            if isinstance(inner, bytes):
                text = bytes_text(inner)
                yield text
                yield from decoded_texts(text, depth=depth - 1, gunzip=gunzip)
            return
        data = bytes_text(data)
        yield data
    for raw in base64_pieces(data):
        if raw[:2] == b"\x1f\x8b":
            yield from decoded_texts(raw, depth=depth - 1, gunzip=gunzip)
            continue
        text = bytes_text(raw)
        yield text
        yield from decoded_texts(text, depth=depth - 1, gunzip=gunzip)
