"""Where a PDF's ink lies, as the overflow tests measure it: every glyph's tight box (pdfium's
char box: the glyph's outline, not its advance), the counters' cut squares and the tables'
column rules, per page, in points with y up from the page's foot.

A glyph must lie inside its page's box (the media box less 5 mm, or a print shop's TrimBox less
5 mm), a counter's glyph inside that counter's cut square, and a table cell's glyph between its
column's rules.  `problems` names each one that does not, with its page, text and place.
"""

import ctypes
import functools

import pypdfium2 as pdfium
from pypdfium2 import raw

MM = 72 / 25.4
EDGE = 5 * MM           # nothing within 5 mm of a trimmed page edge (docs/printing.md)
TOL = 0.05              # points: pdfium keeps glyph boxes to about a hundredth


def _rect(getter, page):
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    if not getter(page, left, bottom, right, top):
        return None
    return left.value, bottom.value, right.value, top.value


def glyphs(page):
    """[(char, size, (x0, y0, x1, y1))] of every glyph the page prints (spaces left out)."""
    text = raw.FPDFText_LoadPage(page.raw)
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    out = []
    try:
        for i in range(raw.FPDFText_CountChars(text)):
            code = raw.FPDFText_GetUnicode(text, i)
            if raw.FPDFText_IsGenerated(text, i) == 1 or code in (0, 0xFFFE, 0xFFFF) or chr(code).isspace():
                continue
            raw.FPDFText_GetCharBox(text, i, left, right, bottom, top)
            if right.value <= left.value or top.value <= bottom.value:
                continue        # no outline (a no-break space drawn as a glyph)
            out.append((chr(code), raw.FPDFText_GetFontSize(text, i),
                        (left.value, bottom.value, right.value, top.value)))
    finally:
        raw.FPDFText_ClosePage(text)
    return out


def trim_box(page):
    """The page's TrimBox where it has one (a print shop's PDF), else its media box."""
    box = _rect(raw.FPDFPage_GetTrimBox, page.raw)
    if box is None:
        w, h = page.get_size()
        return 0.0, 0.0, w, h
    return box


def _inside(box, area, tol=TOL):
    x0, y0, x1, y1 = box
    a0, b0, a1, b1 = area
    return x0 >= a0 - tol and y0 >= b0 - tol and x1 <= a1 + tol and y1 <= b1 + tol


def _centre_in(box, area):
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return area[0] <= cx <= area[2] and area[1] <= cy <= area[3]


@functools.lru_cache(maxsize=32)
def read(pdf_bytes, counter_pt=None):
    """[(trim box, cut squares, glyphs)] of each page, read once a PDF (and counter size) a process."""
    doc = pdfium.PdfDocument(pdf_bytes)
    try:
        pages = []
        for n in range(len(doc)):
            page = doc[n]
            pages.append((trim_box(page), squares(page, counter_pt) if counter_pt else [], glyphs(page)))
        return pages
    finally:
        doc.close()


def problems(pdf_bytes, *, counter_pt=None, rules=None, name=""):
    """One line per glyph outside its box: the page's 5 mm margin (within its TrimBox), and with
    `counter_pt` the cut square of the counter it prints on (the counters' fills are found as
    squares of that side, `squares(page)` below).  `rules(page_index)`, if given, yields
    (x, y_bottom, y_top) of each vertical table rule a glyph may not straddle."""
    found = []
    for n, ((t0, b0, t1, b1), cuts, chars) in enumerate(read(pdf_bytes, counter_pt)):
        margin = (t0 + EDGE, b0 + EDGE, t1 - EDGE, b1 - EDGE)
        lines = list(rules(n)) if rules else []
        for ch, size, box in chars:
            where = (f"{name} p{n + 1} {ch!r} {size:.2f} pt at ({box[0]:.1f}, {box[1]:.1f})-"
                     f"({box[2]:.1f}, {box[3]:.1f})")
            if not _inside(box, margin):
                found.append(f"{where}: outside the page's 5 mm margin {tuple(round(v, 1) for v in margin)}")
                continue
            cut = next((c for c in cuts if _centre_in(box, c)), None)
            if cut is not None and not _inside(box, cut):
                found.append(f"{where}: outside its counter's cut {tuple(round(v, 1) for v in cut)}")
            for x, low, high in lines:
                if box[0] + TOL < x < box[2] - TOL and box[1] < high and box[3] > low:
                    found.append(f"{where}: across the table rule at x = {x:.1f}")
    return found


def squares(page, side):
    """(x0, y0, x1, y1) of every filled rectangle `side` points square on the page, forms' contents
    included: the counters' cut squares (each counter's fill is one such rectangle)."""
    return _squares(page.raw, side)


def _squares(raw_page, side):
    found = []

    def walk(parent, count, get, matrix):
        for i in range(count(parent)):
            obj = get(parent, i)
            kind = raw.FPDFPageObj_GetType(obj)
            m = raw.FS_MATRIX()
            raw.FPDFPageObj_GetMatrix(obj, m)
            inner = _mul((m.a, m.b, m.c, m.d, m.e, m.f), matrix)
            if kind == raw.FPDF_PAGEOBJ_FORM:
                walk(obj, raw.FPDFFormObj_CountObjects, raw.FPDFFormObj_GetObject, inner)
            elif kind == raw.FPDF_PAGEOBJ_PATH and raw.FPDFPath_CountSegments(obj) in (4, 5):
                box = _bounds(obj, inner)
                if box and abs(box[2] - box[0] - side) < 0.01 and abs(box[3] - box[1] - side) < 0.01:
                    found.append(box)
    walk(raw_page, raw.FPDFPage_CountObjects, raw.FPDFPage_GetObject, (1, 0, 0, 1, 0, 0))
    return sorted(set(found))


def _mul(a, b):
    a0, a1, a2, a3, a4, a5 = a
    b0, b1, b2, b3, b4, b5 = b
    return (a0 * b0 + a1 * b2, a0 * b1 + a1 * b3, a2 * b0 + a3 * b2, a2 * b1 + a3 * b3,
            a4 * b0 + a5 * b2 + b4, a4 * b1 + a5 * b3 + b5)


def _bounds(obj, m):
    """The path's ink box in page points: its end points, and each curve where it turns along x
    or y (not its control points, which stand off the ink)."""
    x, y = ctypes.c_float(), ctypes.c_float()
    points, curve = [], []
    for i in range(raw.FPDFPath_CountSegments(obj)):
        seg = raw.FPDFPath_GetPathSegment(obj, i)
        raw.FPDFPathSegment_GetPoint(seg, x, y)
        point = (m[0] * x.value + m[2] * y.value + m[4], m[1] * x.value + m[3] * y.value + m[5])
        if raw.FPDFPathSegment_GetType(seg) == raw.FPDF_SEGMENT_BEZIERTO:
            curve.append(point)
            if len(curve) == 3:
                points += _turns(points[-1], *curve)
                curve = []
            continue
        points.append(point)
    if not points:
        return None
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return round(min(xs), 3), round(min(ys), 3), round(max(xs), 3), round(max(ys), 3)


def _turns(p0, p1, p2, p3):
    """A cubic's end point and its points where it turns along x or y."""
    found = [p3]
    for axis in (0, 1):
        a = -p0[axis] + 3 * p1[axis] - 3 * p2[axis] + p3[axis]
        b = 2 * (p0[axis] - 2 * p1[axis] + p2[axis])
        c = p1[axis] - p0[axis]
        roots = ([-c / b] if abs(b) > 1e-12 else []) if abs(a) < 1e-12 else \
            [(-b + k * (b * b - 4 * a * c) ** 0.5) / (2 * a) for k in (1, -1)] if b * b >= 4 * a * c else []
        for t in (t for t in roots if 0 < t < 1):
            u = 1 - t
            w = (u ** 3, 3 * u * u * t, 3 * u * t * t, t ** 3)
            found.append(tuple(w[0] * p0[k] + w[1] * p1[k] + w[2] * p2[k] + w[3] * p3[k] for k in (0, 1)))
    return found


def sizes(pdf_bytes, counter_pt):
    """[(size, char)] of every glyph printed on a counter (inside one of its cut squares), on
    every page: the fronts and the reversed backs alike."""
    return [(size, ch) for _, cuts, chars in read(pdf_bytes, counter_pt) for ch, size, box in chars
            if any(_centre_in(box, c) for c in cuts)]


# ---- a counter's art and words against its safe area -------------------------------------------

def _colour(getter, obj):
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    return (r.value, g.value, b.value) if getter(obj, r, g, b, a) else None


def _drawn(obj):
    """(filled, stroked) of a path object."""
    mode, stroke = ctypes.c_int(), ctypes.c_int()
    raw.FPDFPath_GetDrawMode(obj, mode, stroke)
    return mode.value != 0, bool(stroke.value)


def _art(raw_page):
    """[(bounds, fill colour, stroke colour, stroke half-width or 0)] of every path the page draws,
    forms' contents included, in page points.  A form placed many times (a face) is read once:
    each path's box in its own space, then mapped by where the form is placed."""
    found = []
    own = {}        # a path object's (box in its own space, fill, stroke, half-width)

    def read(obj):
        box = _bounds(obj, (1, 0, 0, 1, 0, 0))
        if box is None:
            return None
        filled, stroked = _drawn(obj)
        width = ctypes.c_float()
        half = width.value / 2 if stroked and raw.FPDFPageObj_GetStrokeWidth(obj, width) else 0.0
        return (box, _colour(raw.FPDFPageObj_GetFillColor, obj) if filled else None,
                _colour(raw.FPDFPageObj_GetStrokeColor, obj) if stroked else None, half)

    def walk(parent, count, get, matrix):
        for i in range(count(parent)):
            obj = get(parent, i)
            m = raw.FS_MATRIX()
            raw.FPDFPageObj_GetMatrix(obj, m)
            inner = _mul((m.a, m.b, m.c, m.d, m.e, m.f), matrix)
            kind = raw.FPDFPageObj_GetType(obj)
            if kind == raw.FPDF_PAGEOBJ_FORM:
                walk(obj, raw.FPDFFormObj_CountObjects, raw.FPDFFormObj_GetObject, inner)
            elif kind == raw.FPDF_PAGEOBJ_PATH:
                key = ctypes.cast(obj, ctypes.c_void_p).value
                if key not in own:
                    own[key] = read(obj)
                if own[key] is None:
                    continue
                (x0, y0, x1, y1), fill, stroke, half = own[key]
                corners = [(inner[0] * x + inner[2] * y + inner[4], inner[1] * x + inner[3] * y + inner[5])
                           for x in (x0, x1) for y in (y0, y1)]
                xs, ys = [c[0] for c in corners], [c[1] for c in corners]
                scale = abs(inner[0] * inner[3] - inner[1] * inner[2]) ** 0.5
                found.append(((round(min(xs), 3), round(min(ys), 3), round(max(xs), 3), round(max(ys), 3)), fill,
                              stroke, half * scale))
    walk(raw_page, raw.FPDFPage_CountObjects, raw.FPDFPage_GetObject, (1, 0, 0, 1, 0, 0))
    return found


def _locator(cuts):
    """A function from a box to the cut square its centre lies in (None if none): the squares
    found by their columns and rows, not one by one."""
    import bisect
    xs = sorted({c[0] for c in cuts})
    by_place = {(c[0], c[1]): c for c in cuts}
    ys = sorted({c[1] for c in cuts})

    def find(box):
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        i, j = bisect.bisect_right(xs, cx) - 1, bisect.bisect_right(ys, cy) - 1
        if i < 0 or j < 0:
            return None
        cut = by_place.get((xs[i], ys[j]))
        return cut if cut is not None and _centre_in(box, cut) else None
    return find


def outside_safe_area(pdf_bytes, side, safe, name=""):
    """One line per glyph or shape of art on a counter whose ink leaves the counter's safe area
    (its cut square less `safe` points on every side).  Art is every path but the counter's ground,
    its bleed and a band across it (each as wide as the counter or wider); a stroke in the ground's
    own colour (a pictogram's knockout) lays no ink of its own, so only its outline counts."""
    return _on_counter_pages(pdf_bytes, side, name, lambda page, cuts: _page_outside(page, cuts, side, safe))


def _on_counter_pages(pdf_bytes, side, name, measure):
    """`measure(page, cut squares)`'s problems on every page that holds counters of `side`, each
    named by `name` and its page."""
    found = []
    doc = pdfium.PdfDocument(pdf_bytes)
    try:
        for n in range(len(doc)):
            page = doc[n]
            cuts = squares(page, side)
            if cuts:
                found += [f"{name} p{n + 1} {problem}" for problem in measure(page, cuts)]
    finally:
        doc.close()
    return found


def _page_outside(page, cuts, side, safe):
    """outside_safe_area's problems on one page whose counters' cut squares are `cuts`."""
    grounds, art = {}, []
    for box, fill, stroke, half in _art(page.raw):
        if box[2] - box[0] < side - 0.01:
            art.append((box, stroke, half))
        elif fill is not None and abs(box[2] - box[0] - side) < 0.01 and abs(box[3] - box[1] - side) < 0.01:
            grounds[box] = fill
    find = _locator(cuts)

    def area_of(cut):
        return cut[0] + safe, cut[1] + safe, cut[2] - safe, cut[3] - safe
    found = []
    for box, stroke, half in art:
        cut = find(box)
        grow = half if cut is not None and stroke is not None and stroke != grounds.get(cut) else 0.0
        inked = (box[0] - grow, box[1] - grow, box[2] + grow, box[3] + grow)
        if cut is not None and not _inside(inked, area_of(cut)):
            found.append(f"art at {tuple(round(v, 2) for v in inked)}: outside the safe area "
                         f"{tuple(round(v, 2) for v in area_of(cut))} of its counter")
    for ch, size, box in glyphs(page):
        cut = find(box)
        if cut is not None and not _inside(box, area_of(cut)):
            found.append(f"{ch!r} {size:.2f} pt at {tuple(round(v, 2) for v in box)}: outside the safe area "
                         f"{tuple(round(v, 2) for v in area_of(cut))} of its counter")
    return found


# ---- a counter's parts apart from each other ----------------------------------------------------

def _glyphs_on_lines(page):
    """[(char, size, box, baseline y)] of every glyph the page prints: glyphs of one line share
    their size and baseline (their origins' y), where a kerned pair may touch."""
    text = raw.FPDFText_LoadPage(page.raw)
    x, y = ctypes.c_double(), ctypes.c_double()
    out = []
    try:
        index = [i for i in range(raw.FPDFText_CountChars(text)) if raw.FPDFText_IsGenerated(text, i) != 1]
        boxes = iter(glyphs(page))
        for i in index:
            code = raw.FPDFText_GetUnicode(text, i)
            if code in (0, 0xFFFE, 0xFFFF) or chr(code).isspace() or not _has_box(text, i):
                continue
            ch, size, box = next(boxes)
            raw.FPDFText_GetCharOrigin(text, i, x, y)
            out.append((ch, round(size, 2), box, round(y.value, 2)))
    finally:
        raw.FPDFText_ClosePage(text)
    return out


def _has_box(text, i):
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    raw.FPDFText_GetCharBox(text, i, left, right, bottom, top)
    return right.value > left.value and top.value > bottom.value


def _overlap(a, b):
    return a[0] < b[2] - TOL and b[0] < a[2] - TOL and a[1] < b[3] - TOL and b[1] < a[3] - TOL


def overlapping_parts(pdf_bytes, side, name=""):
    """One line per two parts of a counter's face whose ink boxes overlap: a glyph over a glyph of
    another line, over a shape of art (a pictogram, the emblem, the no-Smoke ring: a glyph wholly
    inside a shape, the ring's letter, is that shape's own), or across the wounded band (the band's
    own label lies wholly in it), and a shape of art across the band.  The band is a fill as wide
    as the counter or wider and under half its height; the ground and its bleed are not parts."""
    return _on_counter_pages(pdf_bytes, side, name, lambda page, cuts: _page_overlaps(page, cuts, side))


def _page_overlaps(page, cuts, side):
    """overlapping_parts' problems on one page, each counter's parts against each other."""
    find = _locator(cuts)
    art = _art(page.raw)
    bands = [box for box, fill, _, _ in art if fill is not None and box[2] - box[0] >= side - 0.01
             and box[3] - box[1] < side / 2]
    parts = {}      # cut square -> (its glyphs, its shapes)
    for glyph in _glyphs_on_lines(page):
        parts.setdefault(find(glyph[2]), ([], []))[0].append(glyph)
    for box, _, _, _ in art:
        if box[2] - box[0] < side - 0.01:
            parts.setdefault(find(box), ([], []))[1].append(box)
    parts.pop(None, None)       # what lies on no counter
    found = []
    for chars, shapes in parts.values():
        found += _counter_overlaps(chars, shapes, bands)
    return found


def _counter_overlaps(chars, shapes, bands):
    found = []
    for i, (ch, size, box, base) in enumerate(chars):
        found += [f"{ch!r} {size} pt at {_at(box)} over {other!r} {other_size} pt of another line"
                  for other, other_size, other_box, other_base in chars[i + 1:]
                  if (size, base) != (other_size, other_base) and _overlap(box, other_box)]
        found += [f"{ch!r} {size} pt at {_at(box)} over the art at {_at(shape)}" for shape in shapes
                  if _overlap(box, shape) and not _inside(box, shape)]
        found += [f"{ch!r} {size} pt at {_at(box)} across the band at {_at(band)}" for band in bands
                  if _overlap(box, band) and not _inside(box, band)]
    found += [f"art at {_at(shape)} across the band at {_at(band)}" for shape in shapes for band in bands
              if _overlap(shape, band) and not _inside(shape, band)]
    return found


def _at(box):
    return tuple(round(v, 2) for v in box)
