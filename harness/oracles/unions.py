"""One error per failed union: the variants a body's object matched none of, said once.

Why: both oracles explain a failed union branch by branch. An object whose ``type`` no
variant knows (a server-tool block newer than the vendored spec and SDK) came out as one
row per variant, 19 for one Anthropic content block, each saying "'text' was expected",
"'image' was expected", ... A reader needs one row: this value, none of these variants.

Errors on one object's discriminators (``type``, ``role``, ``name``) that only say which
literal was expected are grouped. When the object's actual ``type`` is one of the
expected types, the best-matching branch is the one of that type: only the errors on its
other discriminators are kept (a known ``type`` with a wrong ``name``). Otherwise the
group becomes one error on ``type`` listing the expected values. Other errors pass as
they are. Messages keep the wording the allowances match (spec: '"x" is not one of ...
(not valid under any ...)'; sdk: ``[literal_error]``).
"""

from __future__ import annotations

import json
import re
from typing import Any, cast

__all__ = ["collapse_unions"]

_DISCRIMINATORS = ("type", "role", "name")
#: Messages that only name the literal(s) a union branch expected.
_SPEC_LITERAL = re.compile(
    r'^(?P<value>".*?"|\S+) was expected$|is not one of |is not valid under any of the schemas'
)
_SDK_LITERAL = re.compile(r"^Input should be .* \[literal_error\]$")
_QUOTED = re.compile(r"""'([^']*)'|"([^"]*)\"""")


def _is_literal(oracle: str, message: str) -> bool:
    return (_SDK_LITERAL if oracle == "sdk" else _SPEC_LITERAL).search(message) is not None


def _expected(oracle: str, message: str) -> list[str]:
    """The literal values an error says were expected."""
    if oracle == "sdk":
        text = message.removeprefix("Input should be ").removesuffix(" [literal_error]")
    elif message.endswith(" was expected"):
        text = message.removesuffix(" was expected")
    elif " is not one of " in message:
        text = message.split(" is not one of ", 1)[1]
    else:
        return []
    return [a or b for a, b in _QUOTED.findall(text)]


def _value_at(body: Any, path: str) -> Any:
    node = body
    for part in path.split("/") if path else []:
        if isinstance(node, dict):
            node = cast(dict[str, Any], node).get(part)
        elif isinstance(node, list) and part.isdigit() and int(part) < len(cast(list[Any], node)):
            node = cast(list[Any], node)[int(part)]
        else:
            return None
    return node


def _parent(path: str) -> tuple[str, str] | None:
    """(object path, discriminator) for a path ending in a discriminator, else None."""
    head, _, last = path.rpartition("/")
    return (head, last) if last in _DISCRIMINATORS else None


def collapse_unions(oracle: str, errors: list[tuple[str, str]], body: Any) -> list[tuple[str, str]]:
    """``errors`` of one oracle with each failed union's per-variant rows said once."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for path, message in errors:
        site = _parent(path)
        if site is not None and _is_literal(oracle, message):
            groups.setdefault(site[0], []).append((path, message))
    if not groups or all(len(g) < 2 for g in groups.values()):
        return errors
    out: list[tuple[str, str]] = []
    done: set[str] = set()
    for path, message in errors:
        site = _parent(path)
        group = groups.get(site[0]) if site is not None else None
        if group is None or len(group) < 2 or (path, message) not in group:
            out.append((path, message))
            continue
        assert site is not None
        if site[0] in done:
            continue
        done.add(site[0])
        out += _one(oracle, site[0], group, body)
    return out


def _one(oracle: str, obj: str, group: list[tuple[str, str]], body: Any) -> list[tuple[str, str]]:
    """The group's single verdict: the best branch's own errors, or one error on ``type``."""
    type_path = f"{obj}/type" if obj else "type"
    expected_types = [v for p, m in group if p == type_path for v in _expected(oracle, m)]
    actual = _value_at(body, type_path)
    if isinstance(actual, str) and actual in expected_types:
        # The variant of this type is the meant one: keep what it says about the other keys.
        kept = [(p, m) for p, m in group if p != type_path]
        return list(dict.fromkeys(kept)) or [group[0]]
    names = list(dict.fromkeys(expected_types or [v for _, m in group for v in _expected(oracle, m)]))
    if not names:
        return [group[0]]
    shown = ", ".join(f"'{v}'" for v in names[:12]) + (
        f" and {len(names) - 12} more" if len(names) > 12 else ""
    )
    target = type_path if any(p == type_path for p, _ in group) else group[0][0]
    got = json.dumps(_value_at(body, target))
    if oracle == "sdk":
        return [
            (target, f"Input should be one of {len(names)} variants ({shown}); got {got} [literal_error]")
        ]
    return [(target, f"{got} is not one of {shown} (not valid under any of the {len(names)} variants)")]
