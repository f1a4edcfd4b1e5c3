"""Where the harness finds its bundled data, from a source checkout and from an installed wheel alike.

Scenarios (``harness/scenarios/data``) and the vendored specs (``harness/oracles/specs``)
live inside the package. The recorded cassettes live at the checkout's top level
(``cassettes/``, the folder ``harness scan cassettes`` and the docs name); the wheel
carries them as ``harness/_data/cassettes`` (hatch ``force-include`` in pyproject.toml),
so this module is the one place that knows both layouts.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["CHECKOUT", "PACKAGED", "cassettes_dir", "checkout_goldens_dir"]

_PACKAGE = Path(__file__).resolve().parent
#: The folder above the package: a checkout's root when the harness runs from source.
CHECKOUT = _PACKAGE.parent
#: Data the wheel carries that a checkout keeps at its top level.
PACKAGED = _PACKAGE / "_data"


def cassettes_dir() -> Path:
    """The bundled recorded cassettes: the wheel's copy, else the checkout's ``cassettes/``.

    When neither exists the wheel's path is returned, so whoever reads it names the
    place the data should have been (an installed wheel always has it).
    """
    packaged = PACKAGED / "cassettes"
    if packaged.is_dir():
        return packaged
    checkout = CHECKOUT / "cassettes"
    return checkout if checkout.is_dir() else packaged


def checkout_goldens_dir() -> Path:
    """The checkout's own request and replay goldens (its test suite's; not shipped in the wheel)."""
    return CHECKOUT / "goldens"
