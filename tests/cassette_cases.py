"""The bundled cassettes as test cases: (provider, cassette path), and their model-call exchanges."""

from __future__ import annotations

from pathlib import Path

from harness.replay import Exchange, load_exchanges

CASSETTES = Path(__file__).resolve().parent.parent / "cassettes"


def cassette_cases() -> list[tuple[str, Path]]:
    return [(p.parent.name, p) for p in sorted(CASSETTES.glob("*/*.yaml"))]


def case_id(case: tuple[str, Path]) -> str:
    return f"{case[0]}-{case[1].stem}"


def model_calls(provider: str, path: Path) -> list[Exchange]:
    return [e for e in load_exchanges(path, provider) if e.is_model_call]
