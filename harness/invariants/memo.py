"""Per-request memoization: invariants ask the same question of one body many times.

A check that recomputes ``tool_turns(body)`` once per history message is quadratic in
history size. Inside ``with body_scope():`` (entered by a check after its body is
rendered), ``same_args`` functions remember results by the identity of their arguments
(held, so the identities stay valid). Outside a scope they are plain calls: a body may
still be mutated while it is being built (a test's mutant target does exactly that).
Callers must not mutate what these return.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import Any, ParamSpec, TypeVar

__all__ = ["TextIndex", "body_scope", "same_args"]

P = ParamSpec("P")
R = TypeVar("R")
_SLOTS = 8
_SCOPE: ContextVar[dict[object, list[tuple[tuple[Any, ...], Any]]] | None] = ContextVar("memo", default=None)


@contextmanager
def body_scope() -> Generator[None]:
    """Memoize ``same_args`` functions until the block ends (bodies are final inside it)."""
    token = _SCOPE.set({})
    try:
        yield
    finally:
        _SCOPE.reset(token)


def same_args(fn: Callable[P, R]) -> Callable[P, R]:
    """Inside ``body_scope``: cache ``fn`` on the identities of its positional arguments (last 8 calls)."""

    @wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        scope = _SCOPE.get()
        if kwargs or scope is None:
            return fn(*args, **kwargs)
        recent = scope.setdefault(fn, [])
        for held, result in recent:
            if len(held) == len(args) and all(a is b for a, b in zip(held, args, strict=True)):
                return result
        result = fn(*args, **kwargs)
        recent.insert(0, (tuple(args), result))
        del recent[_SLOTS:]
        return result

    return wrapper


_K = 16  # k-gram length of the sampled index


class TextIndex:
    """``needle in some string`` over many strings, for many needles, without a pass per needle.

    Exact strings are a set lookup. A needle of at least ``2K-1`` characters is looked up
    by its first K k-grams in an index of the k-grams at every K-th position of the
    joined strings (any occurrence covers one such position), so a needle that is absent
    costs K lookups, not a pass over the body. Shorter needles search the strings joined by NUL,
    from where the previous needle was found (needles mostly come in body order).
    """

    def __init__(self, strings: list[str]) -> None:
        self.strings = strings
        self.exact = set(strings)
        self.joined = "\0".join(strings)
        self.cursor = 0
        self._grams: dict[str, list[int]] | None = None

    def _sampled(self) -> dict[str, list[int]]:
        if self._grams is None:
            grams: dict[str, list[int]] = {}
            text = self.joined
            for at in range(0, len(text) - _K + 1, _K):
                grams.setdefault(text[at : at + _K], []).append(at)
            self._grams = grams
        return self._grams

    def _long(self, needle: str) -> bool | None:
        """Answer for a long needle from the sampled index; None when too ambiguous to say cheaply."""
        grams = self._sampled()
        size, text = len(needle), self.joined
        tries = 0
        # An occurrence starting at ``s`` covers the sampled position ``s + offset`` for exactly
        # one offset in [0, K): those K k-grams of the needle are all that need looking up.
        for offset in range(min(_K, size - _K + 1)):
            for at in grams.get(needle[offset : offset + _K], ()):
                start = at - offset
                if start >= 0 and text.startswith(needle, start):
                    self.cursor = start
                    return True
                tries += 1
                if tries > 64:
                    return None  # repetitive text: let the plain search decide
        return False

    def contains(self, needle: str) -> bool:
        if not needle or needle in self.exact:
            return True
        if "\0" in needle:
            return any(needle in s for s in self.strings)
        if len(needle) >= 2 * _K - 1:
            answer = self._long(needle)
            if answer is not None:
                return answer
        at = self.joined.find(needle, self.cursor)
        if at < 0:
            at = self.joined.find(needle, 0, self.cursor + len(needle))
        if at < 0:
            return False
        self.cursor = at
        return True
