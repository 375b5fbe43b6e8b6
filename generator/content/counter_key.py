"""The counter key: what each face of the counters means, in words, said once.

A face carries its symbol, its label and its factors; what they mean (the pistol's fire and an
unarmed man's CCV, the wounded man's rule, the marker's TEM and when it goes) is said here, and
printed once where the counters are explained: the aid's key (its PDF and its web page) and the
counters' manifest.  Every figure and rule number from the data, every word from the catalogue
(keys "counter.key.*"), each sentence a whole phrase.
"""

from msgspec import Struct

from generator.content.context import BuildContext
from generator.content.faces import SOFT_HYPHEN, tied
from generator.engine import procedure as R
from generator.text import signed, tie_numbers


class KeyEntry(Struct, frozen=True):
    """One line of the key: the kinds of counter it speaks of, the pictograms that show it, and
    what it says."""
    kinds: tuple[str, ...]      # 'crew', 'rifle', 'smg', 'marker'
    symbols: tuple[str, ...]    # the pictograms' roles
    text: str


def counter_key(ctx: BuildContext) -> tuple[KeyEntry, ...]:
    """The key's lines, in the order the counters print: the crew, its pistol and factors, the
    weapons, the bailed-out AFV marker."""
    words, r = ctx.words, ctx.kit.rules
    w, cc, fate, after = r.weapon, r.close_combat, r.fate, r.after
    front, back = tied(words, "counter.crew.front.title"), tied(words, "counter.crew.back.title")
    crew = words("counter.key.crew", front=front, back=back, fate=fate.rule, rule=fate.wounded_rule,
                 but=fate.wounded_except) if fate.wounded_except else \
        words("counter.key.crew.plain", front=front, back=back, fate=fate.rule, rule=fate.wounded_rule)
    # 871.5: pistol only "as an unarmed man +1"; the crew's modifier after it, or already in it (note 3)
    net = R.pistol_only_ccv(r) == cc.pistol_only_vs_unarmed + cc.ccv_modifier
    pistol = words("counter.key.pistol" if net else "counter.key.pistol.in_all",
                   reach=tied(words, "counter.crew.pistol.range", range=w.pistol_relative_range), fp=w.pistol_fp,
                   range=w.pistol_relative_range, rule=w.pistol_rule, plus=signed(cc.pistol_only_vs_unarmed),
                   ccv=signed(cc.ccv_modifier), cc_rule=cc.rule)
    no_smoke = not (w.smoke or cc.smoke)
    factors = words("counter.key.ccv.no_smoke" if no_smoke else "counter.key.ccv", ccv=signed(cc.ccv_modifier),
                    unit=words("counter.crew.ccv.unit"), rule=cc.rule, letter=words("counter.no_smoke.letter"),
                    weapon_rule=w.rule)
    # a title's soft hyphen is where a counter may break it, not a sentence: the key names it whole
    weapons = words("counter.key.weapons", rifle=tied(words, "counter.rifle.title").replace(SOFT_HYPHEN, ""),
                    smg=tied(words, "counter.smg.title").replace(SOFT_HYPHEN, ""), rule=w.rule)
    marker = words("counter.key.marker", label=tied(words, "counter.marker.title"), tem=signed(after.wreck_tem),
                   unit=words("counter.marker.unit"), terrain=after.wreck_terrain, rule=after.rule)
    entries = (KeyEntry(("crew",), (), crew), KeyEntry(("crew",), ("pistol",), pistol),
               KeyEntry(("crew",), (), factors), KeyEntry(("rifle", "smg"), ("rifle", "smg"), weapons),
               KeyEntry(("marker",), ("wreck", "afv"), marker))
    # the edition's apostrophes, and its values held to their units ("\u22121 TEM"), as the aid
    # around the key prints them
    return tuple(KeyEntry(e.kinds, e.symbols, tie_numbers(words.apostrophes(e.text))) for e in entries)


def heading(ctx: BuildContext) -> str:
    """The key's heading."""
    return ctx.words("counter.key.heading")

