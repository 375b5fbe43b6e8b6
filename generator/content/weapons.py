"""Weapons by nationality and year, as the aid's table and the diff list them."""

from collections.abc import Callable, Iterable
from typing import TypedDict, TypeVar

from generator.data.model import Nationality, Rules
from generator.engine import procedure as R
from generator.text import year_span

T = TypeVar("T")
SmgModel = tuple[str | None, str | None]    # (the model, or None and what a man takes instead)


class WeaponRows(TypedDict):
    """One nationality's row of the aid's weapons table."""
    name: str
    army: str               # whose weapons the row follows ('' if the data does not say)
    rifle: list[tuple[str, str | None]]     # (years, model)
    smg: list[tuple[str, SmgModel]]         # (years, (model or None, what a man takes instead))


def weapon_rows(nationality: Nationality, rules: Rules) -> WeaponRows:
    """{name, rifle: [(years, model)], smg: [(years, (model or None, what a man takes instead))]}.

    In a year with no SMG in service, interpretation 6 says what a man who draws one carries.
    """
    def smg(year: int) -> SmgModel:
        model = nationality.smg_in(year)
        return model, None if model else R.weapon_model(rules, nationality, year, "smg")
    return {"name": nationality.name, "army": nationality.army,
            "rifle": _runs(nationality.rifle_in, rules.years()),
            "smg": _runs(smg, rules.years())}


def _runs(model_in: Callable[[int], T], years: Iterable[int]) -> list[tuple[str, T]]:
    """Consecutive years carrying the same model, as ('1939-41', model); None where there is none."""
    runs: list[tuple[int, int, T]] = []
    for year in years:
        model = model_in(year)
        if runs and runs[-1][2] == model and runs[-1][1] == year - 1:
            runs[-1] = (runs[-1][0], year, model)
        else:
            runs.append((year, year, model))
    return [(year_span(a, b), m) for a, b, m in runs]
