"""How ``--help`` names things: ``--list`` (a flag, no value), ``--provider PROVIDER``, ``HISTORY``.

Why: Typer 0.29 labels every option with its Python type (``<bool>`` on a flag,
``<list[Path]>``) and wraps required arguments in braces on the usage line
(``{history}``, ``{paths}...``), which reads like a template. The harness names
values the way Unix tools do: flags bare, values in capitals after their option,
arguments in capitals. Applied once, when the CLI module is imported; a test reads the
help of every command so a Typer change cannot bring the old labels back unnoticed.
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperArgument, TyperOption

__all__ = ["install"]


def _option_label(self: TyperOption, ctx: Any) -> str | None:
    del ctx
    if self.is_flag or self.count:
        return None
    name = self.metavar or (self.name or "value").upper()
    return f"{name}..." if self.nargs != 1 else name


def _argument_usage(self: TyperArgument) -> str:
    name = (self.metavar or self.name or "arg").upper()
    if self.nargs != 1:
        name += "..."
    return name if self.required else f"[{name}]"


def _argument_name(self: TyperArgument) -> str:
    return _argument_usage(self).strip("[]")


def _argument_label(self: TyperArgument, ctx: Any) -> str | None:
    del self, ctx
    return None


def install() -> None:
    """Patch Typer's help labels (idempotent)."""
    patched: Any = TyperOption
    patched.display_type_rich = _option_label
    arg: Any = TyperArgument
    arg._usage_display_name = _argument_usage
    arg.display_type_rich = _argument_label
    arg._rich_display_name = _argument_name
