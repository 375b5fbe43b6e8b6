"""Which counters the kit prints, per nationality, and what each face carries.

Pure: every figure comes from the kit data (FP, relative range, CCV, TEM, weapon models and
years), every word from the catalogue (content/words.py, keys "counter.*"); nothing here
measures or draws.  A face is laid out as published wargame counters are: the nationality
emblem top left, one big symbol (a pictogram), at most one short label, and the factors as big
numerals along the foot.  What a face means in words (pistol only: an unarmed man's CCV +1;
wounded: rule 33 but 33.11; the marker goes when the crew moves) is said once, in the counter
key of the aid and of the counters' manifest, not on every face.  Each piece of text keeps the
data file and key it came from, so a renderer that cannot fit it can name them.
"""

from collections.abc import Sequence

from msgspec import Struct

from generator.content.context import BuildContext
from generator.content.words import Words, catalogue_file, fill
from generator.data.file_names import entry_name
from generator.data.model import KitData, Nationality, WeaponSpan
from generator.text import signed

KINDS = ("crew", "rifle", "smg", "marker")
RULES_FILE = "rules.toml"
NBSP = "\u00a0"          # joins a phrase so a narrow counter wraps between phrases, not inside
TIE = "~"                # a no-break space in the catalogue's counter words (a tie, as in TeX)
SOFT_HYPHEN = "\u00ad"   # where the catalogue lets a long counter word break ("SUB\u00adFUSIL"), printed as "-"

Source = tuple[tuple[str, str], ...]    # ((data file, key), ...) a piece of text was built from


def phrase(text: str) -> str:
    return text.replace(" ", NBSP)


def tied(words: Words, key: str, **fields: object) -> str:
    """The catalogue's words for `key` on a counter: a tie (~) prints as a no-break space, and
    each value from data is one phrase (a narrow counter never wraps inside it)."""
    text = words(key).replace(TIE, NBSP)
    if not fields:
        return text
    phrased = {name: phrase(str(value)) for name, value in fields.items()}
    return fill(f"{catalogue_file(words.lang)}: {key}", text, phrased)


def kind_label(words: Words, kind: str) -> str:
    """What a kind of counter is called ('Crew', 'Bailed-out AFV')."""
    return words(f"counter.kind.{kind}")


class Line(Struct, frozen=True):
    """A piece of a face's text.  style: 'title' (bold) or 'body'.  `single`: it prints on one
    line (a weapon's model), in its `short` form where the whole cannot fit."""
    text: str
    style: str = "body"
    source: Source = ()
    short: str = ""
    single: bool = False


class Numeral(Struct, frozen=True):
    """A factor printed big and bold along the foot of the face, at a fixed place, and the
    small word after it that says what it is ('1' 'FP', '−1' 'TEM'), if any."""
    text: str
    place: str              # 'left', 'centre' or 'right'
    source: Source = ()
    unit: str = ""          # small, on the numeral's baseline, to its right

    def reading(self) -> str:
        return f"{self.text} {self.unit}" if self.unit else self.text


class Face(Struct, frozen=True):
    """One side of a counter: its big symbol, its label and factors, and where the symbol stands."""
    symbol: str             # the pictogram's role: 'pistol', 'rifle', 'smg', 'wreck', 'afv'
    label: Line             # one short label, bold ('AFV CREW', 'RIFLE')
    numerals: tuple[Numeral, ...]
    note: Line | None = None    # small words with the symbol: 'RR5' under the pistol, a weapon's model under it
    across: bool = False    # the symbol across the face under the emblem (a long gun), the label beside the emblem
    no_smoke: bool = False  # the crossed-out S (871.4: never Smoke), under the emblem
    band: bool = False      # the label reversed on a band of ink across the face: the counter's other state

    def reading(self, words: Words) -> list[str]:
        """What the face says, as plain text pieces in reading order (signs named in words)."""
        said = [self.label.text]
        symbol = words(f"counter.reading.{self.symbol}") if not self.across else ""
        if self.note is not None:
            said.append(f"{symbol} {self.note.text}" if symbol else self.note.text)
        elif symbol:
            said.append(symbol)
        said += [n.reading() for n in self.numerals]
        said += [words("counter.reading.no_smoke")] if self.no_smoke else []
        return [w.replace(NBSP, " ") for w in said]


class Counter(Struct, frozen=True):
    nationality: str        # Nationality.key
    kind: str               # one of KINDS
    front: Face
    back: Face


def nationality_file(nat: Nationality) -> str:
    return f"nationalities/{nat.key}.toml"


def short_years(span: WeaponSpan, words: Words) -> str:
    """A span as big numerals short enough for a counter, written as the edition writes years
    ('\u201939\u2013\u201941' in English, '1939\u201341' in Russian): the catalogue's whole phrase,
    given each year whole and as its last two digits (labels, not quantities: no grouping)."""
    if span.first == span.last:
        return words("counter.years.one", year=f"{span.first}", year_short=f"{span.first % 100:02d}")
    return words("counter.years.span", first=f"{span.first}", last=f"{span.last}",
                 first_short=f"{span.first % 100:02d}", last_short=f"{span.last % 100:02d}")


def crew_counter(kit: KitData, nat: Nationality, words: Words) -> Counter:
    """Front healthy, back wounded (871.3): the same face but for its label, which the wounded
    side carries reversed on a band.  Both keep the pistol (871.4: "1 FP at Relative Range 5"),
    printed as a big '1' with a small 'FP' at the foot and 'RR5' under the pistol ('1-5' would
    read as 'one to five'), the crew's CCV modifier (871.5), labelled so a bare "-1" never reads
    as the marker's TEM, and the no-Smoke sign."""
    rules = kit.rules
    w, cc = rules.weapon, rules.close_combat
    pistol = Numeral(f"{w.pistol_fp}", "left", ((RULES_FILE, "weapon.pistol_fp"),),
                     unit=tied(words, "counter.crew.pistol.unit"))
    reach = Line(tied(words, "counter.crew.pistol.range", range=w.pistol_relative_range), "title",
                 ((RULES_FILE, "weapon.pistol_relative_range"),))
    ccv = Numeral(signed(cc.ccv_modifier), "right", ((RULES_FILE, "close_combat.ccv_modifier"),),
                  unit=tied(words, "counter.crew.ccv.unit"))
    no_smoke = not (w.smoke or cc.smoke)        # 871.4: crew members never have Smoke
    healthy = Face("pistol", Line(tied(words, "counter.crew.front.title"), "title"), (pistol, ccv), reach,
                   no_smoke=no_smoke)
    wounded = Face("pistol", Line(tied(words, "counter.crew.back.title"), "title"), (pistol, ccv), reach,
                   no_smoke=no_smoke, band=True)
    return Counter(nat.key, "crew", healthy, wounded)


def model_line(nat: Nationality, kind: str, i: int, span: WeaponSpan) -> Line:
    """A weapon's model as its counter prints it: by the one naming rule (docs/editing.md), the
    name the aid's table prints, whole on one line where it fits the face at its floor size,
    else the data's short form."""
    nat_file = nationality_file(nat)
    source = ((nat_file, f"{kind}[{i}].model"),) + (((nat_file, f"{kind}[{i}].short"),) if span.short else ())
    return Line(span.model, "body", source, short=span.short, single=True)


def weapon_counters(nat: Nationality, words: Words) -> list[Counter]:
    nat_file = nationality_file(nat)
    result = []
    for kind, spans in (("rifle", nat.rifles), ("smg", nat.smgs)):
        for i, span in enumerate(spans):
            face = Face(kind, Line(tied(words, f"counter.{kind}.title"), "title"),
                        (Numeral(short_years(span, words), "centre", ((nat_file, f"{kind}[{i}].years"),)),),
                        model_line(nat, kind, i, span), across=True)
            # Both faces alike: the marker reads whichever way up it lands on the card.
            result.append(Counter(nat.key, kind, face, face))
    return result


def marker_counter(kit: KitData, nat: Nationality, words: Words) -> Counter:
    """The bailed-out AFV marker: the wreck side for an AFV destroyed, the AFV side for one whose
    crew left it by choice (Immobilized, Bogged Down, its main Ordnance malfunctioned for good).
    Either way (871) the AFV "remains in play and provides the members of the crew a -1 TEM" as
    a Wall until they move to another range chit: the counter key says so.  Neither side speaks
    of the crew's pinning: that is the men's state, not the AFV's."""
    after = kit.rules.after
    tem = Numeral(signed(after.wreck_tem), "left", ((RULES_FILE, "after.wreck_tem"),),
                  unit=tied(words, "counter.marker.unit"))
    label = Line(tied(words, "counter.marker.title"), "title")
    return Counter(nat.key, "marker", Face("wreck", label, (tem,)), Face("afv", label, (tem,)))


def counters_for(kit: KitData, nat: Nationality, sets: int, words: Words, extra_crew: int = 0,
                 extra_markers: int = 0) -> tuple[Counter, ...]:
    """Every counter of one nationality, in print order: crew, rifles, SMGs, markers."""
    crew = [crew_counter(kit, nat, words)] * (sets * kit.rules.crew.size + extra_crew)
    markers = [marker_counter(kit, nat, words)] * (sets + extra_markers)    # one per AFV the sets cover
    return tuple(crew + weapon_counters(nat, words) + markers)


def extra_sets(kit: KitData, more: int) -> tuple[int, int]:
    """(extra crew, extra markers) making up `more` counters of one nationality: whole sets (a
    crew and its marker), the last one cut short to its crew where it does not fit."""
    size = kit.rules.crew.size
    sets, rest = divmod(more, size + 1)
    return sets * size + rest, sets


Groups = tuple[tuple[Nationality, tuple[Counter, ...]], ...]   # counters by nationality, in print order

# A kind's part of a face image's file name: names, not printed words, so they stay the same
# whatever the catalogue calls the kinds (the release's faces/*.png keep their names).
FILE_KINDS = {"crew": "crew", "rifle": "rifle", "smg": "smg", "marker": "bailed-out-afv"}


def face_names(groups: Groups) -> dict[Counter, str]:
    """{Counter: 'german-rifle-1939-45'}: nationality key, kind, and the years where a kind has
    several counters (taken from the nationality's spans when they match one to one)."""
    names = {}
    for nat, counters in groups:
        by_kind: dict[str, list[Counter]] = {}
        for counter in dict.fromkeys(counters):
            by_kind.setdefault(counter.kind, []).append(counter)
        for kind, distinct in by_kind.items():
            spans = {"rifle": nat.rifles, "smg": nat.smgs}.get(kind, ())
            for i, counter in enumerate(distinct):
                parts = [nat.key, FILE_KINDS[kind]]     # 'german-bailed-out-afv'
                if len(distinct) > 1:
                    if len(spans) == len(distinct):
                        span = spans[i]
                        parts.append(f"{span.first}" + (f"-{str(span.last)[2:]}" if span.last != span.first else ""))
                    else:
                        parts.append(f"{i + 1}")
                names[counter] = entry_name(*parts)
    return names


def all_counters(kit: KitData, sets: int, words: Words, more: Sequence[int] = ()) -> Groups:
    """((nationality, counters), ...) for every nationality, sorted as the data is; `more[i]`:
    counters more for the i-th, as extra sets (see `extra_sets`)."""
    extra = list(more) + [0] * (len(kit.nationalities) - len(more))
    return tuple((nat, counters_for(kit, nat, sets, words, *extra_sets(kit, n)))
                 for nat, n in zip(kit.nationalities, extra, strict=True))


def build_counters(ctx: BuildContext, more: Sequence[int] = ()) -> Groups:
    """all_counters for the build's edition and sets."""
    return all_counters(ctx.kit, ctx.options.sets, ctx.words, more)


def tally(groups: Groups) -> tuple[tuple[Nationality, dict[str, int]], ...]:
    """((nationality, {kind: count}), ...) from `all_counters` output; every kind present."""
    rows = []
    for nat, counters in groups:
        counts = dict.fromkeys(KINDS, 0)
        for counter in counters:
            counts[counter.kind] += 1
        rows.append((nat, counts))
    return tuple(rows)
