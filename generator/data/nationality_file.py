"""nationalities/*.toml -> Nationality: names, greyscale-safe colours, weapons by year."""

import re
from collections import Counter
from itertools import pairwise
from typing import Any

from msgspec.structs import fields

from generator.colour import grey_contrast
from generator.data.model import (
    BAR_DIRECTIONS,
    EMBLEM_SHAPES,
    LEADER_ROLES,
    MORALE_RANGE,
    YEAR,
    Afv,
    EmblemShape,
    Nationality,
    RosterCard,
    Rules,
    WeaponSpan,
)
from generator.data.schema import Problems, Reader, Validator, a_name, in_range, nonblank, one_of

MIN_GREY_CONTRAST = 4.5     # WCAG AA for body text, applied to the greys a mono printer makes
# Every counter draws each of its nationality's emblem shapes, so their number is bounded: a flag
# or a roundel takes a few (the kit's own at most five), a flag's stripes a dozen or so.
MAX_EMBLEM_SHAPES = 16
MAX_BARS = 16
MAX_LANGUAGES = 16      # the languages a nationality's soldiers speak


def _colour(value: str) -> str | None:
    if len(value) == 7 and value[0] == "#" and all(c in "0123456789abcdefABCDEF" for c in value[1:]):
        return None
    return f"{value!r} is not a colour like '#8a9aa6'"


def _language_code(value: str) -> str | None:
    if re.fullmatch(r"[a-z]{2,3}", value):
        return None
    return f"{value!r} is not a language code like 'ru' (ISO 639, lower case)"


def read_nationality(problems: Problems, rel: str, key: str, table: dict[str, Any], rules: Rules | None) \
        -> Nationality:
    """One nationality file's table -> Nationality; `rules` (None if rules.toml is unreadable) gives the period."""
    r = Reader(problems, rel, table)
    name = r.get("name", str, check=a_name)
    adjective = r.get("adjective", str, check=a_name)
    army = r.get("army", str, default="", check=a_name)     # optional: whose weapons the spans follow
    speaks = r.get_list("speaks", str, default=[], check_item=_language_code, most=MAX_LANGUAGES)     # optional
    colour = r.get("colour", str, check=_colour)
    text_colour = r.get("text_colour", str, check=_colour)
    if colour and text_colour:
        ratio = grey_contrast(colour, text_colour)
        if ratio < MIN_GREY_CONTRAST:
            r.report("text_colour", f"contrast with colour is {ratio:.1f}:1 in greyscale; "
                                    f"needs at least {MIN_GREY_CONTRAST}:1")
    rifles = _spans(r, "rifle", rules, need_every_year=True)
    smgs = _spans(r, "smg", rules, need_every_year=False)
    roster: list[RosterCard] = []
    for card in r.tables("roster", required=False):
        roster.append(RosterCard(card.get("card", str, check=nonblank),
                                 card.get("role", str, default="", check=one_of(("", *LEADER_ROLES))),
                                 card.get("morale", int, check=in_range(*MORALE_RANGE))))
        card.finish()
    if "roster" in r.table and not roster:
        r.report("roster", "is empty; leave the section out if the cards are unknown")
    for dup in sorted(card for card, n in Counter(c.card_id for c in roster).items() if card and n > 1):
        r.report("roster", f"card {dup!r} is listed twice")
    afvs: list[Afv] = []
    for afv in r.tables("afv", required=False):
        afvs.append(Afv(afv.get("name", str, check=a_name), afv.get("morale", int, check=in_range(*MORALE_RANGE)),
                        afv.get("open_topped", bool)))
        afv.finish()
    if "afv" in r.table and not afvs:
        r.report("afv", "is empty; leave the section out if the AFVs are unknown")
    emblem = _emblem(r)
    r.finish()
    return Nationality(key, name, adjective, colour, text_colour, tuple(rifles), tuple(smgs),
                       tuple(roster), tuple(afvs), emblem, army or "", tuple(speaks or ()))


# Bounds that keep every shape inside its square and drawable; percentages, see EmblemShape.
_EMBLEM_INTS: dict[str, Validator[int]] = {"size": in_range(5, 100), "width": in_range(5, 100),
                                           "points": in_range(3, 12), "inner": in_range(10, 95),
                                           "x": in_range(-95, 95), "y": in_range(-95, 95)}
_EMBLEM_DEFAULTS = {f.name: f.default for f in fields(EmblemShape)}     # what a shape left unsaid takes


def _emblem(r: Reader) -> tuple[EmblemShape, ...]:
    """[[emblem]] tables -> EmblemShapes: the counters draw them, in order, as the nationality's
    emblem.  Keys a shape does not take are named, not silently ignored."""
    shapes: list[EmblemShape] = []
    for s in r.tables("emblem", most=MAX_EMBLEM_SHAPES):
        shape = _emblem_shape(s)
        if shape is not None:
            shapes.append(shape)
    return tuple(shapes)


def _emblem_shape(s: Reader) -> EmblemShape | None:
    """One [[emblem]] table, or None when it has a problem (reported)."""
    shape = s.get("shape", str, check=one_of(tuple(EMBLEM_SHAPES)))
    if shape is None:
        s.names()       # the shape is already reported; its other keys would only add noise
        return None
    takes = EMBLEM_SHAPES[shape]
    extras = sorted(set(s.table) - set(takes) - {"shape"}, key=str)
    for extra in extras:
        s.report(extra, f"a {shape} does not take {extra!r}; it takes {', '.join(takes)}")
    if extras:
        s.names()       # reported above; not again as unknown keys
    colours = _emblem_colours(s, takes)
    numbers: dict[str, int] = {k: s.get(k, int, default=_EMBLEM_DEFAULTS[k], check=check)
                               for k, check in _EMBLEM_INTS.items() if k in takes}
    direction = "vertical"
    if "direction" in takes:
        direction = s.get("direction", str, default=direction, check=one_of(BAR_DIRECTIONS))
    s.finish()
    if colours is None or None in numbers.values():
        return None
    return EmblemShape(shape, colours, direction=direction, **numbers)


def _emblem_colours(s: Reader, takes: tuple[str, ...]) -> tuple[str, ...] | None:
    """A shape's colour, or a bars shape's colours (two at least); None when reported."""
    if "colours" not in takes:
        colour = s.get("colour", str, check=_colour)
        return (colour,) if colour else None
    colours = s.get_list("colours", str, check_item=_colour, most=MAX_BARS)
    if colours is not None and len(colours) < 2:
        s.report("colours", "needs at least two colours, one per bar")
        return None
    return tuple(colours) if colours is not None else None


def _spans(r: Reader, name: str, rules: Rules | None, need_every_year: bool) -> list[WeaponSpan]:
    spans = [span for s in r.tables(name, required=need_every_year) if (span := _span(s, rules)) is not None]
    ordered = sorted(spans, key=lambda span: span.first)     # spans keep file order: keys stay [i]
    for a, b in pairwise(ordered):
        if b.first <= a.last:
            r.report(name, f"spans {a.first}-{a.last} and {b.first}-{b.last} overlap")
    if need_every_year and rules and rules.first_year and rules.last_year and spans:
        covered: set[int] = set()     # years are 1900..2100, so this stays small however many spans
        for span in spans:
            covered.update(range(max(span.first, rules.first_year), min(span.last, rules.last_year) + 1))
        for year in range(rules.first_year, rules.last_year + 1):
            if year not in covered:
                r.report(name, f"no {name} for {year}")
    return spans


def _span(s: Reader, rules: Rules | None) -> WeaponSpan | None:
    """One [[rifle]] or [[smg]] table; None where its years are missing or out of order."""
    years = s.get_list("years", int, check_item=YEAR)
    model = s.get("model", str, check=nonblank)
    source = s.get("source", str, check=nonblank)
    short = s.get("short", str, default="", check=nonblank)
    s.finish()
    if years is None:
        return None
    if len(years) != 2 or years[0] > years[1]:
        s.report("years", "expected [first, last] with first <= last")
        return None
    outside = _outside_period(years[0], years[1], rules)
    if outside:     # its counter would print years the kit does not cover; kept, so no cascade of "no rifle for"
        s.report("years", outside)
    return WeaponSpan(years[0], years[1], model, source, short or "")


def _outside_period(first: int, last: int, rules: Rules | None) -> str | None:
    """Why a weapon span [first, last] lies outside rules.toml's [period], or None if inside
    (or the period is unknown): the counters print a span's years, so they must be the kit's."""
    if rules is None or not rules.first_year or not rules.last_year:
        return None
    if first >= rules.first_year and last <= rules.last_year:
        return None
    return (f"[{first}, {last}] reaches outside the kit's period, rules.toml [period] "
            f"{rules.first_year}-{rules.last_year}")
