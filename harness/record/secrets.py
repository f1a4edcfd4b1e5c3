"""One secret detector for ``harness scan``, ``check_clean`` and the recording scrubber.

A reviewed pattern table (shapes from the providers' documentation and from
detect-secrets' detectors): LLM provider keys, cloud and SaaS tokens, private keys,
bearer tokens. A key may sit anywhere: after ``/`` or ``+`` in a URL path, in a query
value, inside a JSON string. ``decoded_texts`` yields what gzip and base64 payloads
hide, so a scanner can look inside them too. Findings carry the kind, never the value.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["ACCOUNT_ID_PATTERN", "KINDS", "SecretMatch", "decoded_texts", "find_secrets", "redact"]

# Not preceded by a letter, digit, "_" or "-": a key never starts mid-word. "/" and "+" are allowed
# (URL paths, query strings); standard base64 holds no "-", so an "sk-" inside it is impossible.
_L = r"(?<![A-Za-z0-9_-])"
_R = r"(?![A-Za-z0-9_-])"

#: (kind, public prefix shown in a masked report, pattern). Order matters: the first kind to
#: match at a position wins (``sk-ant-`` before ``sk-``).
KINDS: tuple[tuple[str, str, str], ...] = (
    ("anthropic-key", "sk-ant-", r"sk-ant-[A-Za-z0-9_-]{20,}"),
    ("openrouter-key", "sk-or-", r"sk-or-(?:v\d+-)?[A-Za-z0-9_-]{20,}"),
    ("openai-project-key", "sk-proj-", r"sk-proj-[A-Za-z0-9_-]{20,}"),
    ("openai-service-account-key", "sk-svcacct-", r"sk-svcacct-[A-Za-z0-9_-]{20,}"),
    ("openai-admin-key", "sk-admin-", r"sk-admin-[A-Za-z0-9_-]{20,}"),
    ("openai-key", "sk-", r"sk-[A-Za-z0-9_-]{20,}"),
    ("stripe-key", "sk_live_", r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,}"),
    ("google-api-key", "AIza", r"AIza[0-9A-Za-z_-]{35,}"),
    ("groq-key", "gsk_", r"gsk_[A-Za-z0-9]{20,}"),
    ("xai-key", "xai-", r"xai-[A-Za-z0-9]{20,}"),
    ("huggingface-token", "hf_", r"hf_[A-Za-z0-9]{30,}"),
    ("github-token", "gh", r"gh[pousr]_[A-Za-z0-9]{36,}"),
    ("github-fine-grained-token", "github_pat_", r"github_pat_[A-Za-z0-9_]{22,}"),
    ("slack-token", "xox", r"xox[abposr]-[A-Za-z0-9-]{10,}"),
    ("aws-access-key-id", "AKIA", r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}" + _R),
    ("jwt", "eyJ", r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
    ("bearer-token", "Bearer", r"[Bb]earer\s+[A-Za-z0-9._~+/-]{20,}=*"),
)
#: Secrets recognisable only by what names them (the value is random base64).
_NAMED: tuple[tuple[str, str, str], ...] = (
    (
        "aws-secret-access-key",
        "",
        r"(?i:aws_?secret_?access_?key|aws_?secret_?key|secret_?access_?key)[\"']?\s*[:=]\s*[\"']?"
        r"([A-Za-z0-9/+]{40})(?![A-Za-z0-9+])",
    ),
    ("azure-storage-key", "AccountKey=", r"AccountKey=([A-Za-z0-9/+]{40,}={0,2})"),
    ("private-key", "-----BEGIN", r"(-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----)"),
)
_COMPILED = [(kind, prefix, re.compile(_L + "(" + pattern + ")")) for kind, prefix, pattern in KINDS] + [
    (kind, prefix, re.compile(pattern)) for kind, prefix, pattern in _NAMED
]

#: Organization and project ids (OpenAI ``org-``/``proj_``): not secrets, but they name the account
#: that recorded, and OpenAI quotes them in error bodies ("... in organization org-...").
ACCOUNT_ID_PATTERN = re.compile(r"(?<![A-Za-z0-9_-])(org-[A-Za-z0-9]{20,}|proj_[A-Za-z0-9]{20,})")


@dataclass(frozen=True)
class SecretMatch:
    kind: str
    prefix: str
    start: int
    end: int
    value: str

    def masked(self) -> str:
        """A recognisable but useless form: the kind's public prefix and the length."""
        shown = self.prefix if self.prefix and self.value.startswith(self.prefix) else ""
        return f"{shown}*** ({len(self.value)} chars)"


def find_secrets(text: str, *, account_ids: bool = False) -> list[SecretMatch]:
    """Every secret in ``text`` (and org/project ids when asked), left to right, no overlaps."""
    found: list[tuple[int, int, SecretMatch]] = []
    for rank, (kind, prefix, pattern) in enumerate(_COMPILED):
        for m in pattern.finditer(text):
            found.append((m.start(1), rank, SecretMatch(kind, prefix, m.start(1), m.end(1), m.group(1))))
    if account_ids:
        for m in ACCOUNT_ID_PATTERN.finditer(text):
            kind = "openai-organization-id" if m.group(1).startswith("org-") else "openai-project-id"
            found.append(
                (
                    m.start(1),
                    len(_COMPILED),
                    SecretMatch(
                        kind,
                        "org-" if kind.endswith("organization-id") else "proj_",
                        m.start(1),
                        m.end(1),
                        m.group(1),
                    ),
                )
            )
    out: list[SecretMatch] = []
    end = -1
    for _, _, match in sorted(found, key=lambda f: (f[0], f[1])):
        if match.start >= end:
            out.append(match)
            end = match.end
    return out


def redact(text: str, replacement: str = "REDACTED") -> str:
    """``text`` with every secret and account id replaced."""
    matches = find_secrets(text, account_ids=True)
    if not matches:
        return text
    pieces: list[str] = []
    at = 0
    for m in matches:
        pieces += [text[at : m.start], replacement]
        at = m.end
    pieces.append(text[at:])
    return "".join(pieces)


_BASE64_RUN = re.compile(r"[A-Za-z0-9+/]{20,}={0,2}|[A-Za-z0-9_-]{20,}={0,2}")


def _as_text(data: bytes) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def decoded_texts(data: bytes | str, *, depth: int = 2, gunzip: object = None) -> Iterator[str]:
    """Texts hidden in ``data``: a gzip payload decompressed, base64 runs decoded (to text or gzip).

    ``gunzip`` is the bounded decompressor (``bytes -> bytes``, raising on bombs); without
    one, gzip payloads are not opened.
    """
    if depth <= 0:
        return
    if isinstance(data, bytes):
        if data[:2] == b"\x1f\x8b" and callable(gunzip):
            inner = gunzip(data)
            if isinstance(inner, bytes):
                text = _as_text(inner)
                if text is not None:
                    yield text
                    yield from decoded_texts(text, depth=depth - 1, gunzip=gunzip)
            return
        text = _as_text(data)
        if text is None:
            return
        data = text
    for m in _BASE64_RUN.finditer(data):
        run = m.group()
        try:
            raw = base64.b64decode(
                run + "=" * (-len(run) % 4), altchars=b"-_" if "-" in run or "_" in run else None
            )
        except (binascii.Error, ValueError):
            continue
        if raw[:2] == b"\x1f\x8b":
            yield from decoded_texts(raw, depth=depth - 1, gunzip=gunzip)
            continue
        text = _as_text(raw)
        if text is not None and text.replace("\n", "").replace("\r", "").replace("\t", "").isprintable():
            yield text
            yield from decoded_texts(text, depth=depth - 1, gunzip=gunzip)
