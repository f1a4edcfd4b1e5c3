"""The warning-code registry: every code has a kind and a meaning, and adapters emit only registered codes."""

from __future__ import annotations

from harness.contract.kinds import KINDS
from harness.contract.warning_codes import WARNING_CODES, Code


def test_every_code_has_one_kind_and_a_one_line_meaning() -> None:
    assert set(WARNING_CODES) == set(Code)
    for code, info in WARNING_CODES.items():
        assert info.kind in KINDS, code
        assert info.meaning and "\n" not in info.meaning, code


def test_code_values_are_unique_kebab_case() -> None:
    values = [c.value for c in Code]
    assert len(values) == len(set(values))
    assert all(v == v.lower() and " " not in v and "_" not in v for v in values)
