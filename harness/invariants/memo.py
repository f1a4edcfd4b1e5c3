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


class TextIndex:
    """``needle in some string`` over many strings, for many needles, without a pass per needle.

    Exact strings are a set lookup; otherwise one search in the strings joined by NUL,
    from where the previous needle was found (needles mostly come in body order), then
    from the start. Linear in total for in-order needles.
    """

    def __init__(self, strings: list[str]) -> None:
        self.strings = strings
        self.exact = set(strings)
        self.joined = "\0".join(strings)
        self.cursor = 0

    def contains(self, needle: str) -> bool:
        if not needle or needle in self.exact:
            return True
        if "\0" in needle:
            return any(needle in s for s in self.strings)
        at = self.joined.find(needle, self.cursor)
        if at < 0:
            at = self.joined.find(needle, 0, self.cursor + len(needle))
        if at < 0:
            return False
        self.cursor = at
        return True
