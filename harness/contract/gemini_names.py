"""Gemini's JSON accepts proto field names in snake_case and lowerCamel alike, stated once.

The importer reads a recorded body's keys as lowerCamel (``harness.importer.gemini``), and the
registry of accepted differences accepts a recorded snake_case spelling where ours is lowerCamel
(``harness.accepted.predicates``): both use this one reading.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["camel"]


def camel(value: dict[str, Any]) -> dict[str, Any]:
    """Gemini's JSON accepts proto field names in snake_case and lowerCamel alike: read both as lowerCamel.

    The whole body is first read through the schema oracle's ``normalise_body``; this keeps
    pieces read on their own (a part, a config) in the same reading."""
    return {re.sub(r"_([a-z])", lambda m: m.group(1).upper(), k): v for k, v in value.items()}
