"""Which counters the kit prints, per nationality, and what each face carries.

Pure: every figure comes from the kit data (FP, relative range, CCV, TEM, terrain, rule numbers,
weapon models and years), every word from the catalogue (content/words.py, keys "counter.*");
nothing here measures or draws.  A face is laid out the way wargame counters are: the
nationality emblem top left, a pictogram or the kind top right, a few words in the middle and
the factors as big numerals along the bottom.  Each piece of text keeps the data file and key it
came from, so a renderer that cannot fit it can name them.
"""

from msgspec import Struct

from generator.content.context import BuildContext
from generator.content.words import Words, catalogue_file, fill
from generator.data.file_names import entry_name
from generator.data.model import KitData, Nationality, WeaponSpan
from generator.engine import procedure as R
from generator.text import signed

KINDS = ("crew", "rifle", "smg", "marker")
RULES_FILE = "rules.toml"
NBSP = "\u00a0"          # joins a phrase so a narrow counter wraps between phrases, not inside
TIE = "~"                # a no-break space in the catalogue's counter words (a tie, as in TeX)
EN_DASH = "\u2013"

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
    """One paragraph of a face's text.  style: 'title' (bold) or 'body'.  `single`: it prints on
    one line (a weapon's model), in its `short` form from data where the whole cannot fit."""
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
    corner: str | Line      # top right: a pictogram's role ('pistol', 'wreck') or a Line
    lines: tuple[Line, ...]     # in the middle
    numerals: tuple[Numeral, ...]
    pictogram: str = ""     # a weapon pictogram across the middle, above the lines
    band: bool = False      # reversed colours (ink ground, colour text) over all but the foot
    no_smoke: bool = False  # the crossed-out S: beside the corner pictogram (between the numerals if none)
    corner_note: Line | None = None    # small words under the corner's pictogram ('RR5' under the pistol)
    foot_pictogram: str = ""    # a pictogram's role at the foot's right ('afv'), as tall as the numerals

    def reading(self, words: Words) -> list[str]:
        """What the face says, as plain text pieces in reading order (signs named in words)."""
        said = [self.corner.text] if isinstance(self.corner, Line) else []
        if self.corner_note:
            said.append(f"{words(f'counter.reading.{self.corner}')} {self.corner_note.text}")
        said += [line.text for line in self.lines] + [n.reading() for n in self.numerals]
        said += [words("counter.reading.no_smoke")] if self.no_smoke else []
        return [w.replace(NBSP, " ") for w in said]


class Counter(Struct, frozen=True):
    nationality: str        # Nationality.key
    kind: str               # one of KINDS
    front: Face
    back: Face


def nationality_file(nat: Nationality) -> str:
    return f"nationalities/{nat.key}.toml"


def short_years(span: WeaponSpan) -> str:
    """'\u201939' or '\u201942\u2013\u201945': a span as big numerals short enough for a counter."""
    first, last = f"\u2019{span.first % 100:02d}", f"\u2019{span.last % 100:02d}"
    return first if span.first == span.last else f"{first}{EN_DASH}{last}"


def pistol_only_line(kit: KitData, words: Words) -> Line:
    """871.5's second sentence on the crew's front: "A Crew Member equipped with no infantry weapon
    (other than a pistol ...) has the same CCV values as an unarmed man +1".  Under interpretation 3
    the crew's modifier at the foot applies after it ("pistol only: unarmed +1" above "-1 CCV"), or
    is already part of it ("pistol only: =unarmed +1").  Only the front: the wounded back's three
    lines (its title, rule 33, except 33.11) fill its middle on a 3/4 in counter already."""
    rules = kit.rules
    cc = rules.close_combat
    after = R.pistol_only_ccv(rules) == cc.pistol_only_vs_unarmed + cc.ccv_modifier
    key = "counter.crew.pistol_only" if after else "counter.crew.pistol_only.in_all"
    # No source: the words are the catalogue's, so a counter too small for them is the size's fault.
    return Line(tied(words, key, plus=signed(cc.pistol_only_vs_unarmed)))


def crew_counter(kit: KitData, nat: Nationality, words: Words) -> Counter:
    """Front healthy, back wounded; both keep the pistol, the CCV modifier and no Smoke.
    The pistol (871.4: "1 FP at Relative Range 5") prints as a big '1' with a small 'FP' at the
    foot and 'RR5' under the pistol pictogram: '1-5' would read as 'one to five'."""
    rules = kit.rules
    w, cc, fate = rules.weapon, rules.close_combat, rules.fate
    pistol = Numeral(f"{w.pistol_fp}", "left", ((RULES_FILE, "weapon.pistol_fp"),),
                     unit=tied(words, "counter.crew.pistol.unit"))
    reach = Line(tied(words, "counter.crew.pistol.range", range=w.pistol_relative_range), "title",
                 ((RULES_FILE, "weapon.pistol_relative_range"),))
    # Labelled: a bare "-1" beside the bailed-out AFV marker's TEM would read as one more TEM.
    ccv = Numeral(signed(cc.ccv_modifier), "right", ((RULES_FILE, "close_combat.ccv_modifier"),),
                  unit=tied(words, "counter.crew.ccv.unit"))
    no_smoke = not (w.smoke or cc.smoke)        # 871.4: crew members never have Smoke
    healthy = Face("pistol", (Line(tied(words, "counter.crew.front.title"), "title"), pistol_only_line(kit, words)),
                   (pistol, ccv), no_smoke=no_smoke, corner_note=reach)
    ref = [Line(tied(words, "counter.crew.back.rule", rule=fate.wounded_rule), "body",
                ((RULES_FILE, "fate.wounded_rule"),))]
    if fate.wounded_except:
        ref.append(Line(tied(words, "counter.crew.back.except", rule=fate.wounded_except), "body",
                        ((RULES_FILE, "fate.wounded_except"),)))
    wounded = Face("pistol", (Line(tied(words, "counter.crew.back.title"), "title"), *ref), (pistol, ccv),
                   band=True, no_smoke=no_smoke, corner_note=reach)
    return Counter(nat.key, "crew", healthy, wounded)


def weapon_counters(nat: Nationality, words: Words) -> list[Counter]:
    nat_file = nationality_file(nat)
    result = []
    for kind, spans in (("rifle", nat.rifles), ("smg", nat.smgs)):
        for i, span in enumerate(spans):
            source = ((nat_file, f"{kind}[{i}].model"),) + (((nat_file, f"{kind}[{i}].short"),) if span.short else ())
            face = Face(Line(tied(words, f"counter.{kind}.title"), "title"),
                        (Line(span.model, "body", source, short=span.short, single=True),),
                        (Numeral(short_years(span), "centre", ((nat_file, f"{kind}[{i}].years"),)),),
                        pictogram=kind)
            # Both faces alike: the marker reads whichever way up it lands on the card.
            result.append(Counter(nat.key, kind, face, face))
    return result


def marker_counter(kit: KitData, nat: Nationality, words: Words) -> Counter:
    """The bailed-out AFV marker: fits a destroyed AFV and one left Immobilized, Bogged Down or
    with its main Ordnance malfunctioned permanently alike.  871: the AFV "remains in play and
    provides the members of the crew a -1 TEM" as a Wall; "once the Crew Members move to another
    range chit the AFV is removed from play".  The front names the marker; the back (reversed, the
    AFV pictogram at its foot) says when it goes; the front shows the wreck.  Neither speaks of the crew's pinning: that
    is the men's state, not the AFV's, and a Hero card may end it for one of them (871.4)."""
    after = kit.rules.after
    source = ((RULES_FILE, "after.wreck_tem"), (RULES_FILE, "after.wreck_terrain"))
    front = Face("wreck", (Line(tied(words, "counter.marker.front.title"), "title"),
                         Line(tied(words, "counter.marker.front.tem", terrain=after.wreck_terrain), "body",
                              source[1:])),
                 (Numeral(signed(after.wreck_tem), "left", source[:1]),))
    back = Face(Line(tied(words, "counter.marker.back.title"), "title"),
                (Line(tied(words, "counter.marker.back.when")),),
                (Numeral(signed(after.wreck_tem), "left", source[:1], unit=tied(words, "counter.marker.back.unit")),),
                band=True, foot_pictogram="afv")
    return Counter(nat.key, "marker", front, back)


def counters_for(kit: KitData, nat: Nationality, sets: int, words: Words, extra_crew: int = 0,
                 extra_markers: int = 0) -> tuple[Counter, ...]:
    """Every counter of one nationality, in print order: crew, rifles, SMGs, markers."""
    crew = [crew_counter(kit, nat, words)] * (sets * kit.rules.crew.size + extra_crew)
    markers = [marker_counter(kit, nat, words)] * (sets + extra_markers)    # one per AFV the sets cover
    return tuple(crew + weapon_counters(nat, words) + markers)


def extras(kit: KitData, spare: int) -> dict[str, tuple[int, int]]:
    """{nationality key: (extra crew, extra markers)} filling `spare` cells: a set (a crew and
    its marker) per nationality in turn, in nationality order; the last set as far as it fits."""
    nats = kit.nationalities
    added = {nat.key: [0, 0] for nat in nats}
    size = kit.rules.crew.size
    turn = 0
    while spare > 0 and nats:
        counts = added[nats[turn % len(nats)].key]
        crew = min(size, spare)
        counts[0] += crew
        spare -= crew
        if spare:
            counts[1] += 1
            spare -= 1
        turn += 1
    return {key: (v[0], v[1]) for key, v in added.items()}


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


def all_counters(kit: KitData, sets: int, words: Words, spare: int = 0) -> Groups:
    """((nationality, counters), ...) for every nationality, sorted as the data is; `spare`
    cells are filled with extra crews and markers (see `extras`)."""
    more = extras(kit, spare)
    return tuple((nat, counters_for(kit, nat, sets, words, *more[nat.key])) for nat in kit.nationalities)


def build_counters(ctx: BuildContext, spare: int = 0) -> Groups:
    """all_counters for the build's edition and sets."""
    return all_counters(ctx.kit, ctx.options.sets, ctx.words, spare)


def tally(groups: Groups) -> tuple[tuple[Nationality, dict[str, int]], ...]:
    """((nationality, {kind: count}), ...) from `all_counters` output; every kind present."""
    rows = []
    for nat, counters in groups:
        counts = dict.fromkeys(KINDS, 0)
        for counter in counters:
            counts[counter.kind] += 1
        rows.append((nat, counts))
    return tuple(rows)
