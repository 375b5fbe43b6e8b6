"""`bailout odds` as a plain-text table: each chance as a fraction and a percentage."""

from .odds import man_code, percent


def odds_lines(kit, odds):
    r = kit.rules
    lines = [f"Rule {r.number} {r.title}: exact odds over a deck of {odds.deck_size} cards "
             f"({'transcribed' if kit.deck_cards else 'ideal'}), data {kit.short_hash}", ""]
    row = lambda label, p: lines.append(f"  {label:34} {str(p):>11} {percent(p):>7}")
    lines.append("Bail-out check")
    row(f"closed top ({r.closed.rule}, column {r.closed.column})", odds.bail_out_closed)
    row(f"open top ({r.open.rule}, column {r.open.column})", odds.bail_out_open)
    lines.append(f"Each man's fate ({r.fate.rule}, column {r.fate.table.column})")
    for k, p in odds.fate.items():
        row(k, p)
    lines.append(f"Each survivor's weapon ({r.weapon.rule}, columns {r.weapon.armed_column} then "
                 f"{r.weapon.types.column} of the same card)")
    for k, p in odds.weapon.items():
        row(k + (" only" if k == "pistol" else ""), p)
    lines.append("One man, fate and weapon together")
    for (fate, weapon), p in odds.man.items():
        row(f"{man_code(fate, weapon)}  {fate}{', ' + weapon if weapon else ''}", p)
    for title, table in (("Survivors", odds.survivors), ("Armed survivors (rifle or SMG)", odds.armed)):
        for size in sorted(table, reverse=True):
            for hero in (False, True):
                dist = table[size][hero]
                lines.append(f"{title}, crew of {size}{', Hero card' if hero else ''}")
                for k, p in dist.items():
                    row(f"{k}", p)
    lines.append("Expected survivors")
    for size in sorted(odds.expected_survivors, reverse=True):
        for hero in (False, True):
            e = odds.expected_survivors[size][hero]
            label = f"crew of {size}{', Hero card' if hero else ''}"
            lines.append(f"  {label:34} {str(e):>11} {float(e):7.3f}")
    return lines
