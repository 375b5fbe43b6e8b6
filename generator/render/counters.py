"""Crew counters: a duplex calibration pair, then each sheet's fronts followed by its backs.

Geometry is all in layout/counters.py; this module only draws it.  Each counter's fill is one
rectangle exactly the counter's size (tests find counters that way); bleed strips, cut ticks and
bars are separate shapes of other sizes.
"""

from reportlab.lib.colors import HexColor, black, white
from reportlab.pdfbase.pdfmetrics import stringWidth

from ..counters import KINDS, KIND_LABELS, all_counters, manifest
from ..errors import RenderError
from ..layout import counters as geo
from ..layout.paper import mm
from .common import BOLD, FONT, draw_footer, finish, new_canvas, register_fonts

HAIRLINE = 0.4
SHOWN_CHARS = 40        # how much of an over-long value an error message quotes


def title(ctx):
    r = ctx.kit.rules
    return f"{r.number} {r.title} \u2013 crew counters"


def measure(text, style, size):
    return stringWidth(text, BOLD if style == "title" else FONT, size)


def render(ctx, paper):
    register_fonts()    # text is measured before the canvas exists
    kit, opts = ctx.kit, ctx.options
    grid = geo.make_grid(paper.width, paper.height, opts.counter_mm, opts.back_offset_mm)
    groups = all_counters(kit, opts.sets)
    fits = _fit_faces(groups, grid, opts.counter_mm, kit.directory)
    sheets = geo.paginate([len(counters) for _, counters in groups], grid)
    pages = geo.CALIBRATION_PAGES + 2 * len(sheets)
    c, buffer = new_canvas(paper, title(ctx), f"Double-sided counters, {paper.label}, "
                           f"{float(opts.counter_mm):.2f} mm", duplex=True)
    _calibration_front(c, ctx, paper, grid, manifest(groups), pages)
    c.showPage()
    _calibration_back(c, ctx, paper, grid, pages)
    c.showPage()
    for n, slots in enumerate(sheets, start=1):
        for side in ("front", "back"):
            page = geo.sheet_page(n, side) + 1
            key = f"counters-sheet{n}-{side}"
            c.bookmarkPage(key)
            c.addOutlineEntry(f"Sheet {n} {side}s", key, 0)
            present = sorted({s.group for s in slots})
            if side == "front":
                for g in present:
                    nat = groups[g][0]
                    c.bookmarkPage(f"{key}-{nat.key}")
                    c.addOutlineEntry(_short(nat.name, 60), f"{key}-{nat.key}", 1)
            _sheet(c, ctx, paper, grid, groups, fits, slots, side, n, len(sheets), page, pages)
            c.showPage()
    return finish(c, buffer)


def _short(text, limit):
    text = text.replace("\u00a0", " ")
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


def _fit_faces(groups, grid, counter_mm, directory):
    """{face lines: (size, placed)} for every distinct face; RenderError naming the data if any
    face cannot fit at 5 pt."""
    inset, start = grid.safe_inset(), geo.max_text_pt(grid.size)
    fits = {}
    for nat, counters in groups:
        for counter in counters:
            for lines in (counter.front, counter.back):
                if lines in fits:
                    continue
                fit = geo.fit_face(lines, grid.size, inset, measure, start)
                if fit is None:
                    raise RenderError(_no_fit(lines, grid, inset, counter_mm, nat, counter.kind, directory))
                fits[lines] = fit
    return fits


def _no_fit(lines, grid, inset, counter_mm, nat, kind, directory):
    """One message per data value too long for the counter; if every value fits alone, the
    counter itself is too small for the face."""
    size = f"{float(counter_mm):.2f} mm"
    blamed = [line for line in geo.culprits(lines, grid.size, inset, measure) if line.source]
    if not blamed:
        face = " / ".join(_short(line.text, 30) for line in lines)
        return [f"--counter-size {size}: the {_short(nat.name, SHOWN_CHARS)} {KIND_LABELS[kind].lower()} "
                f"counter ({face}) cannot fit even at {geo.MIN_TEXT_PT} pt; choose a larger --counter-size"]
    problems = []
    for line in blamed:
        files = {}
        for file, key in line.source:
            files.setdefault(file, []).append(key)
        for file, keys in files.items():
            problems.append(f"{directory}/{file}: {', '.join(keys)}: {_short(line.text, SHOWN_CHARS)!r} cannot fit on a "
                            f"{size} counter even at {geo.MIN_TEXT_PT} pt; shorten it or choose a larger "
                            "--counter-size")
    return problems


# ---- counter sheets -------------------------------------------------------------------------

def _sheet(c, ctx, paper, grid, groups, fits, slots, side, n, sheets, page, pages):
    bw = ctx.options.bw
    used = {(s.col, s.row) for s in slots}
    for slot in slots:
        nat, counters = groups[slot.group]
        counter = counters[slot.item]
        x, y = grid.front(slot.col, slot.row)
        fill = white if bw else HexColor(nat.colour)
        ink = black if bw else HexColor(nat.text_colour)
        if not bw:
            c.setFillColor(fill)
            for bx, by, bwid, bh in geo.bleed(x, y, grid.size, slot.col, slot.row, grid.cols, grid.rows,
                                              lambda col, row: (col, row) in used):
                if side == "back":
                    bx, by = grid.page_w - bx - bwid + grid.offset[0], by + grid.offset[1]
                c.rect(bx, by, bwid, bh, fill=1, stroke=0)
        x, y = geo.face_origin(grid, slot, side)
        _counter(c, x, y, grid.size, fills=fill, ink=ink, bw=bw,
                 fit=fits[counter.front if side == "front" else counter.back])
    if side == "front":
        _ticks(c, grid)
    _bars(c, grid)
    _heading(c, paper, grid, groups, slots, side, n, sheets, page)
    draw_footer(c, ctx, paper, page, pages)


def _counter(c, x, y, size, fills, ink, bw, fit):
    c.saveState()
    c.setFillColor(fills)
    if bw:      # ink-saving: the outline is the cut line
        c.setStrokeColor(black)
        c.setLineWidth(HAIRLINE)
    c.rect(x, y, size, size, fill=1, stroke=1 if bw else 0)
    _, placed = fit
    for item in placed:
        if item.kind == "box":
            c.setFillColor(white)
            c.setStrokeColor(ink)
            c.setLineWidth(HAIRLINE)
            c.rect(x + item.x, y + item.y, item.w, item.h, fill=1, stroke=1)
        else:
            c.setFillColor(ink)
            c.setFont(BOLD if item.style == "title" else FONT, item.size)
            c.drawCentredString(x + item.x, y + item.y, item.text)
    c.restoreState()


def _ticks(c, grid):
    c.saveState()
    c.setStrokeColor(black)
    c.setLineWidth(HAIRLINE)
    for (x1, y1), (x2, y2) in geo.cut_ticks(grid):
        c.line(x1, y1, x2, y2)
    c.restoreState()


def _bars(c, grid):
    c.saveState()
    for bar in geo.bars(grid):
        c.setFillColor(black)
        c.rect(bar.x, bar.y, bar.length, bar.height, fill=1, stroke=0)
        c.setStrokeColor(black)
        c.setLineWidth(HAIRLINE)
        for x in bar.ticks:     # graduations stand above the bar, so its ends are plain to see
            c.line(x, bar.y + bar.height, x, bar.y + bar.height + mm(1))
        c.setFont(FONT, 6)
        c.drawCentredString(bar.x + bar.length / 2, bar.label_y + mm(1), bar.label)
    c.restoreState()


def _heading(c, paper, grid, groups, slots, side, n, sheets, page):
    c.saveState()
    c.setFillColor(black)
    top = paper.height - mm(10)
    c.setFont(BOLD, 9)
    if side == "front":
        what = f"Sheet {n} of {sheets}: fronts. Print double-sided, flip on long edge, at 100% / Actual size."
    else:
        what = f"Sheet {n} of {sheets}: backs (mirrored), for the reverse of page {page - 1}."
    c.drawCentredString(paper.width / 2, top, what)
    counts = {}
    for s in slots:
        counts.setdefault(s.group, {k: 0 for k in KINDS})[groups[s.group][1][s.item].kind] += 1
    parts = []
    for g in sorted(counts):
        listed = ", ".join(f"{counts[g][k]} {KIND_LABELS[k].lower() if k != 'smg' else 'SMG'}"
                           for k in KINDS if counts[g][k])
        parts.append(f"{_short(groups[g][0].name, 40)}: {listed}")
    width = paper.width - 2 * mm(geo.MARGIN_SIDE_MM)
    ticks_top = grid.y0 + grid.height + mm(geo.BLEED_MM + geo.TICK_GAP_MM + geo.TICK_MM)
    _block(c, "This sheet \u2013 " + "; ".join(parts), paper.width / 2, top - 10, width, ticks_top + mm(2))
    c.restoreState()


def _block(c, text, x_centre, baseline, width, floor):
    """Centred wrapped text from `baseline` down, kept above `floor`: shrink from 7 pt to 5 pt,
    then cut the last line that fits with an ellipsis (many nationalities make a long list)."""
    for size in (7, 6.5, 6, 5.5, 5):
        lead = size * 1.2
        lines = geo.wrap(text, width, measure, "body", size) or [text]
        room = max(1, int((baseline - floor) // lead) + 1)
        if len(lines) <= room:
            break
    if len(lines) > room:
        lines = lines[:room]
        lines[-1] = _ellipsise(lines[-1] + " \u2026", FONT, size, width)
    c.setFont(FONT, size)
    for i, line in enumerate(lines):
        c.drawCentredString(x_centre, baseline - i * lead, _ellipsise(line, FONT, size, width))


# ---- calibration pair -----------------------------------------------------------------------

def _cross(c, point, cal, numbers):
    """A cross through `point` with a mm scale along both arms, labelled every 5 mm."""
    x, y = point
    c.saveState()
    c.setStrokeColor(black)
    c.setLineWidth(0.3)
    reach = cal.scale + mm(4)
    c.line(x - reach, y, x + reach, y)
    c.line(x, y - reach, x, y + reach)
    c.setFont(FONT, 5.5)
    c.setFillColor(black)
    for i in range(-geo.CAL_SCALE_MM, geo.CAL_SCALE_MM + 1):
        if i == 0:
            continue
        d = i * cal.step
        t = mm(2) if i % 5 == 0 else mm(1)
        c.line(x + d, y - t / 2, x + d, y + t / 2)
        c.line(x - t / 2, y + d, x + t / 2, y + d)
        if numbers and i % 5 == 0:
            label = f"{i:+d}".replace("-", "\u2212")
            # x labels above the axis, y labels left of it: the two sets never meet
            c.drawCentredString(x + d, y + mm(1.5), label)
            c.drawRightString(x - mm(1.5), y + d - 2, label)
    if numbers:
        c.drawString(x + reach + mm(1), y - 2, "mm, right +")
        c.drawCentredString(x, y + reach + mm(1), "mm, up +")
    c.circle(x, y, mm(1), stroke=1, fill=0)
    c.restoreState()


def _paragraphs(c, x, y, width, texts, size=8.5, leading=11):
    c.setFont(FONT, size)
    for text in texts:
        for line in geo.wrap(text, width, measure, "body", size) or [text]:
            c.drawString(x, y, line)
            y -= leading
        y -= leading / 3
    return y


def _calibration_front(c, ctx, paper, grid, rows, pages):
    c.bookmarkPage("counters-calibration")
    c.addOutlineEntry("Duplex calibration and manifest", "counters-calibration", 0)
    cal = geo.calibration(grid)
    ox, oy = (float(v) for v in ctx.options.back_offset_mm)
    left = mm(geo.MARGIN_SIDE_MM + 6)
    width = paper.width - 2 * left
    c.setFillColor(black)
    c.setFont(BOLD, 13)
    c.drawString(left, paper.height - mm(22), title(ctx))
    c.setFont(BOLD, 10)
    c.drawString(left, paper.height - mm(29), "Duplex calibration \u2013 print pages 1 and 2 first")
    _paragraphs(c, left, paper.height - mm(36), width, [
        "1. Print pages 1\u20132 double-sided, flipped on the LONG edge, at 100% / Actual size "
        "(never \u201cfit to page\u201d). The bars at the foot must measure 100 mm and 4 in.",
    ])
    _cross(c, cal.front, cal, numbers=False)
    x_text = cal.front[0] + cal.scale + mm(10)
    text_end = _paragraphs(c, x_text, cal.front[1] + cal.scale + mm(2), paper.width - x_text - left, [
        "2. Hold the sheet to a light with page 2 facing you. This cross shows through.",
        "3. On page 2's scale, read where this cross's centre falls, in mm: right and up are "
        "positive.",
        f"4. Rebuild with --back-offset X,Y: X = {ox:g} + the right reading, Y = {oy:g} + the up "
        "reading. Example: the cross falls 1.5 mm right and 0.5 mm down: pass "
        f"--back-offset {ox + 1.5:g},{oy - 0.5:g}.",
        "5. Cross nowhere near the scale? The printer flipped on the short edge: choose "
        "long-edge binding.",
    ])
    bars_top = max(bar.label_y for bar in geo.bars(grid)) + mm(4)
    below = min(text_end, cal.front[1] - cal.scale - mm(4))    # under the cross and the steps
    _manifest(c, ctx, left, below - mm(8), width, rows, bars_top)
    _bars(c, grid)
    draw_footer(c, ctx, paper, 1, pages)


def _calibration_back(c, ctx, paper, grid, pages):
    c.bookmarkPage("counters-calibration-back")
    c.addOutlineEntry("Duplex calibration, back", "counters-calibration-back", 1)
    cal = geo.calibration(grid)
    _cross(c, cal.back, cal, numbers=True)
    c.setFillColor(black)
    left = mm(geo.MARGIN_SIDE_MM + 6)
    c.setFont(BOLD, 10)
    c.drawString(left, paper.height - mm(22), "Duplex calibration, back: read the offset here")
    ox, oy = (float(v) for v in ctx.options.back_offset_mm)
    _paragraphs(c, left, paper.height - mm(29), paper.width - 2 * left, [
        "Hold this side towards you against a light. Read where the front's cross centre falls on "
        "this scale (mm; right and up positive) and pass --back-offset X,Y with "
        f"X = {ox:g} + right reading, Y = {oy:g} + up reading.",
        f"This build's backs are shifted by {ox:g} mm right and {oy:g} mm up.",
    ])
    _bars(c, grid)
    draw_footer(c, ctx, paper, 2, pages)


def _manifest(c, ctx, left, top, width, rows, floor):
    c.setFillColor(black)
    c.setFont(BOLD, 10)
    c.drawString(left, top, "Manifest")
    sets, size = ctx.options.sets, ctx.kit.rules.crew.size
    y = _paragraphs(c, left, top - 13, width, [
        f"Crew markers: {sets} set(s) of {size} per nationality (--sets); front healthy, back "
        "wounded. Weapon markers: one per span of years in which the model differs, alike on "
        "both faces. Wreck markers: one per set; back \u201cBailed out\u201d with a box for the "
        "group ID.",
    ], size=8, leading=10)
    headers = ["Nationality"] + [KIND_LABELS[k] for k in KINDS] + ["Total"]
    col_w = mm(18)
    name_w = width - col_w * (len(headers) - 1)
    totals = {k: sum(counts[k] for _, counts in rows) for k in KINDS}
    # Rows shrink (8 pt down to 5 pt) to stay above the bars; past that, the rest are summed up.
    size = 8
    while size > 5 and (len(rows) + 2) * size * 1.25 > y - 4 - floor:
        size -= 0.5
    pitch = size * 1.25
    room = max(0, int((y - 4 - floor) // pitch) - 2)
    shown = rows if len(rows) <= room else rows[:max(0, room - 1)]
    y -= 4
    _row(c, left, y, name_w, col_w, headers, BOLD, size)
    for nat, counts in shown:
        y -= pitch
        _row(c, left, y, name_w, col_w, [nat.name] + [counts[k] for k in KINDS] + [sum(counts.values())],
             FONT, size)
    if len(shown) < len(rows):
        y -= pitch
        _row(c, left, y, name_w, col_w, [f"\u2026 {len(rows) - len(shown)} more: see each sheet's heading"],
             FONT, size)
    y -= pitch
    _row(c, left, y, name_w, col_w, ["All"] + [totals[k] for k in KINDS] + [sum(totals.values())], BOLD, size)


def _row(c, x, y, name_w, col_w, cells, font, size):
    c.setFont(font, size)
    c.drawString(x, y, _ellipsise(str(cells[0]), font, size, name_w - 4))
    for i, cell in enumerate(cells[1:], start=1):
        c.drawRightString(x + name_w + i * col_w, y, str(cell))


def _ellipsise(text, font, size, width):
    """`text` cut (by bisection: names may be 10,000 characters) to fit `width`, with an ellipsis."""
    text = " ".join(text.split())
    if stringWidth(text, font, size) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if stringWidth(text[:mid] + "\u2026", font, size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + "\u2026"
