"""YAML through PyYAML's safe loader, bounded before a single Python object is built.

Composition (nodes only, aliases shared) is linear in the text; what blows up is a
consumer walking the aliases expanded (a 359-byte "billion laughs" is 10^9 strings).
So the composed graph is measured first: nesting depth, nodes counted with aliases
expanded, recursive aliases, lone surrogates from ``"\\ud83d"`` escapes.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Generator
from contextlib import contextmanager
from typing import Any, cast

import yaml

from harness.inputs.errors import InputError
from harness.inputs.json_load import _SURROGATE  # pyright: ignore[reportPrivateUsage]
from harness.inputs.limits import ENV, Limits, current

__all__ = ["compose_yaml", "load_yaml", "read_once"]


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [item for pair in node.value for item in pair]
    return []


def _check_graph(root: yaml.Node, source: str, lim: Limits) -> None:
    """Expanded size, depth and Unicode of a composed graph; each distinct node visited once."""
    size: dict[int, int] = {}
    height: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            kids = _children(node)
            size[key] = 1 + sum(size[id(k)] for k in kids)
            height[key] = 1 + max((height[id(k)] for k in kids), default=0)
            on_path.discard(key)
            if size[key] > lim.max_yaml_nodes:
                raise InputError(
                    source,
                    _line(node),
                    "(yaml)",
                    f"more than {lim.max_yaml_nodes} nodes with aliases expanded "
                    f"(an alias bomb? raise {ENV['max_yaml_nodes']})",
                )
            if height[key] > lim.max_depth:
                raise InputError(
                    source,
                    _line(node),
                    "(yaml)",
                    f"nested deeper than {lim.max_depth} (raise {ENV['max_depth']})",
                )
            continue
        if key in size:
            continue
        if key in on_path:
            raise InputError(source, _line(node), "(yaml)", "recursive alias (a node that contains itself)")
        if isinstance(node, yaml.ScalarNode):
            value = str(node.value)
            if not value.isascii() and _SURROGATE.search(value):
                raise InputError(source, _line(node), "(yaml)", "lone UTF-16 surrogate (not valid Unicode)")
            size[key], height[key] = 1, 1
            continue
        on_path.add(key)
        stack.append((node, True))
        stack.extend((k, False) for k in _children(node) if id(k) not in size)


#: libyaml's safe loader when PyYAML was built with it (about ten times faster), else the pure one.
#: Both only construct the standard YAML tags; the node graph is checked before anything is built.
_BASE_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

#: Tags of plain scalars already resolved, by text (bounded): a corpus repeats its keys and
#: values ("role", "content", "type"...) and each resolution tries a list of regexes.
_RESOLVED: dict[str, str] = {}


_BASE_RESOLVE: Callable[..., Any] = cast(Any, _BASE_LOADER).resolve
_STR, _SEQ, _MAP = "tag:yaml.org,2002:str", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"
#: The tag of a node that no implicit resolver names (``BaseResolver.resolve`` without path resolvers).
_DEFAULT_TAG: dict[type[yaml.Node], str] = {
    yaml.ScalarNode: _STR,
    yaml.SequenceNode: _SEQ,
    yaml.MappingNode: _MAP,
}


class _SafeLoader(_BASE_LOADER):  # pyright: ignore[reportGeneralTypeIssues,reportUntypedBaseClass]
    """The safe loader, with plain scalars' implicit tags remembered (the same tags: a plain
    scalar's tag depends on its text alone when no path resolver is set, as on this loader).

    The composer calls ``resolve`` once per node (most of a cassette's load), so the common
    answers are given here without the base method's lookups: a plain scalar's remembered tag,
    and the default tag of every other node, as ``BaseResolver.resolve`` gives them."""

    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        if self.yaml_path_resolvers:
            return _BASE_RESOLVE(self, kind, value, implicit)
        if kind is yaml.ScalarNode and implicit[0]:
            tag: str | None = _RESOLVED.get(value)
            if tag is None:
                tag = cast(str, _BASE_RESOLVE(self, kind, value, implicit))
                if len(value) <= 64:
                    if len(_RESOLVED) >= 100_000:
                        _RESOLVED.clear()
                    _RESOLVED[value] = tag
            return tag
        return _DEFAULT_TAG[kind]


_SAFE_LOADER: type[yaml.SafeLoader] = _SafeLoader


def _loader(text: str, source: str) -> yaml.SafeLoader:
    try:
        return _SAFE_LOADER(text)  # the reader checks every character up front
    except yaml.YAMLError as exc:
        raise InputError(
            source, None, "(yaml)", f"invalid YAML: {getattr(exc, 'reason', None) or exc}"
        ) from None


def _invalid(exc: yaml.YAMLError, source: str) -> InputError:
    """A PyYAML error as the one-line report, with the line where the parser stopped."""
    mark = getattr(exc, "problem_mark", None)
    line = mark.line + 1 if mark is not None else None
    return InputError(source, line, "(yaml)", f"invalid YAML: {getattr(exc, 'problem', None) or exc}")


def _compose(loader: yaml.SafeLoader, source: str) -> yaml.Node | None:
    try:
        return loader.get_single_node()
    except yaml.YAMLError as exc:
        raise _invalid(exc, source) from None
    except RecursionError:
        raise InputError(source, None, "(yaml)", "nested too deep to parse") from None


def compose_yaml(text: str, *, source: str, limits: Limits | None = None) -> yaml.Node | None:
    """The checked node graph (for scanners that want marks), or None for an empty document."""
    lim = current(limits)
    loader = _loader(text, source)
    try:
        node = _compose(loader, source)
        if node is not None:
            _check_graph(node, source, lim)
        return node
    finally:
        cast(Any, loader).dispose()


#: Documents already built, by (source, limits, digest of the text): one process often reads the same
#: recordings again (calibrate, import-check and replay over one corpus; the test suite reads the
#: bundled traffic a few thousand times). Each caller gets its own deep copy (a tenth of a build).
_BUILT: dict[tuple[str, Limits, bytes], Any] = {}
_BUILT_CHARS = [0]
#: Characters of text whose documents are kept; past it the memo starts again (a bounded memory).
_BUILT_LIMIT = 64 * 1024 * 1024
#: A text longer than this is built every time and never kept: a big recording read once (``replay``
#: of a long session) must not pay a second copy in memory (replay stays within ~10x its input).
_BUILT_TEXT_LIMIT = 1024 * 1024


#: Whether ``load_yaml`` keeps what it builds (``read_once``).
_KEEP = [True]


@contextmanager
def read_once() -> Generator[None]:
    """Inside, documents are not kept for a second read (outside, they are).

    A command that reads each recording once (``audit-traffic``, ``calibrate`` over a corpus)
    runs in it: the kept documents, several times the size of their text, were most of the
    memory such a run grew by with the corpus."""
    was = _KEEP[0]
    _KEEP[0] = False
    try:
        yield
    finally:
        _KEEP[0] = was


def load_yaml(text: str, *, source: str, limits: Limits | None = None) -> Any:
    """``yaml.safe_load`` (no tag ever executes) within the limits; errors are ``InputError``."""
    lim = current(limits)
    if len(text) > _BUILT_TEXT_LIMIT or not _KEEP[0]:
        return _load_yaml(text, source, lim)
    key = (source, lim, hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest())
    if key not in _BUILT:
        document = _load_yaml(text, source, lim)  # an error is raised each time, never kept
        if _BUILT_CHARS[0] + len(text) > _BUILT_LIMIT:
            _BUILT.clear()
            _BUILT_CHARS[0] = 0
        _BUILT[key] = document
        _BUILT_CHARS[0] += len(text)
    try:
        return copy.deepcopy(_BUILT[key])
    except RecursionError:  # nested deeper than a copy can recurse: build it again
        return _load_yaml(text, source, lim)


class _Slow(Exception):
    """The document needs the checked, general path (an alias, a tag beyond the plain ones, a limit)."""


_NOT_PLAIN_KEYS = ("tag:yaml.org,2002:merge", "tag:yaml.org,2002:value")


def _build_tree(loader: yaml.SafeLoader, root: yaml.Node, lim: Limits, anchors: bool = True) -> Any:
    """The document of a graph that is a plain tree, built and checked in one pass; ``_Slow`` otherwise.

    Why: a recorded cassette is a tree of maps, lists and scalars, and the general path walks it
    three times in Python (the limits, then PyYAML's constructor with its bookkeeping for aliases
    and recursive objects), most of ``audit-traffic``'s time. Here each node is visited once:
    scalars through the loader's own constructor for their tag (the same values), maps and lists
    built as ``SafeConstructor`` builds them. Anything else (an alias: a node met twice; a merge
    key; a non-scalar key; a set, omap or unknown tag; a lone surrogate; past a limit) raises
    ``_Slow`` and the document is built the general way, which also reports the errors."""
    constructors = cast(dict[str, Any], loader.yaml_constructors)
    # An alias is a node met twice; no anchor (``&``) in the text, no alias: nothing to remember.
    seen: set[int] | None = set() if anchors else None
    max_depth = lim.max_depth
    scalar_node, sequence_node, mapping_node = yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode
    count = 0

    def build(node: yaml.Node, depth: int) -> Any:
        nonlocal count
        if depth > max_depth:
            raise _Slow
        if seen is not None:
            key = id(node)
            if key in seen:
                raise _Slow
            seen.add(key)
        count += 1
        kind = type(node)
        tag = node.tag
        if kind is scalar_node:
            value = node.value
            if not value.isascii() and _SURROGATE.search(value):
                raise _Slow
            if tag == _STR:
                return value
            ctor = constructors.get(tag)
            if ctor is None:
                raise _Slow
            return ctor(loader, node)
        if kind is sequence_node and tag == _SEQ:
            return [build(child, depth + 1) for child in node.value]
        if kind is mapping_node and tag == _MAP:
            out: dict[Any, Any] = {}
            plain = seen is None and depth < max_depth  # a child's own checks pass: inline the common one
            for key_node, value_node in node.value:
                if type(key_node) is not scalar_node or key_node.tag in _NOT_PLAIN_KEYS:
                    raise _Slow
                if plain and key_node.tag == _STR and key_node.value.isascii():
                    count += 1
                    k = key_node.value  # a plain string key, as ``build`` gives it
                else:
                    k = build(key_node, depth + 1)
                out[k] = build(value_node, depth + 1)
            return out
        raise _Slow

    document = build(root, 1)
    if count > lim.max_yaml_nodes:
        raise _Slow
    return document


def _load_yaml(text: str, source: str, lim: Limits) -> Any:
    loader = _loader(text, source)
    try:
        node = _compose(loader, source)
        if node is None:
            return None
        try:
            return _build_tree(loader, node, lim, anchors="&" in text)
        except _Slow:
            pass
        except (yaml.YAMLError, RecursionError, ValueError, TypeError):
            pass  # the general path below reports it, as it always did
        _check_graph(node, source, lim)
        try:
            return cast(Any, loader).construct_document(node)
        except yaml.YAMLError as exc:
            raise _invalid(exc, source) from None
        except (RecursionError, ValueError, TypeError) as exc:
            raise InputError(
                source, None, "(yaml)", f"cannot build the document: {type(exc).__name__}"
            ) from None
    finally:
        cast(Any, loader).dispose()
