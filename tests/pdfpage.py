"""A PDF's pages as pdfium reads them (the C library the kit already renders thumbnails with), in
the shapes the tests measure: rects, lines, curves, chars, words and text, as dicts with
pdfplumber's keys (x0, x1, top, bottom, width, height in points, y running down from the page's
top), read in a fraction of pdfplumber's time.  The counter sheets draw each face once as a
form XObject and place it 88 times a page, so a path's points are mapped through every enclosing
form's matrix to the page.

Paths are classed as pdfminer (pdfplumber's parser) does: a path of several subpaths is each
subpath on its own; a single segment is a line; four axis-aligned sides closed (`re`, or m l l l
with a close or a fourth line back to the start) is a rect; anything else a curve.  Colours are
what pdfium gives, RGB 0-255 after its colour conversion (`fill_rgb`, `stroke_rgb`; CMYK black
comes out (35, 31, 32), DeviceGray black (0, 0, 0)): a test that asks which colour space or
operator a page uses reads the content stream instead.  Chars are the glyphs the page prints
(pdfium's generated spaces and line breaks left out), each with its loose box (advance width by
the font's ascent and descent), size (the font size, not pdfplumber's box height for turned
text) and font name.  Paths match pdfplumber's to float precision; a glyph's x may lie up to
about 1 pt off along a long line (pdfium keeps glyph widths in whole thousandths of an em),
its y to 0.01 pt.  Words are chars joined as pdfplumber's extract_words joins them (3 pt
tolerances, split at spaces): the same words and text lines as pdfplumber's on every counter
and pre-rolled page, and on the aid's but for one word at the 3 pt edge ("8." and "The").
"""

import ctypes
import functools
import itertools

import pypdfium2 as pdfium
from pypdfium2 import raw

TOLERANCE = 3       # pdfplumber's default x and y tolerance for joining chars into words


def _mul(a, b):
    """The matrix product a x b of PDF matrices (a b c d e f): a applied first, then b."""
    a0, a1, a2, a3, a4, a5 = a
    b0, b1, b2, b3, b4, b5 = b
    return (a0 * b0 + a1 * b2, a0 * b1 + a1 * b3, a2 * b0 + a3 * b2, a2 * b1 + a3 * b3,
            a4 * b0 + a5 * b2 + b4, a4 * b1 + a5 * b3 + b5)


def _matrix(obj):
    m = raw.FS_MATRIX()
    assert raw.FPDFPageObj_GetMatrix(obj, m)
    return (m.a, m.b, m.c, m.d, m.e, m.f)


def _rgb(getter, obj):
    if not getter(obj, _R, _G, _B, _A):
        return None
    return (_R.value, _G.value, _B.value)


_X, _Y = ctypes.c_float(), ctypes.c_float()      # reused: a ctypes object made per call costs more than the call
_R, _G, _B, _A = (ctypes.c_uint() for _ in range(4))


def _subpaths(obj, m):
    """The path's subpaths, each ([(op, x, y), ...], closed) in page points (y up), op 'm', 'l'
    or 'c' (a Bezier's control points and end point each a 'c')."""
    subpaths, current, closed = [], [], False
    a, b, c, d, e, f = m
    moveto, lineto = raw.FPDF_SEGMENT_MOVETO, raw.FPDF_SEGMENT_LINETO
    for i in range(raw.FPDFPath_CountSegments(obj)):
        seg = raw.FPDFPath_GetPathSegment(obj, i)
        raw.FPDFPathSegment_GetPoint(seg, _X, _Y)
        kind = raw.FPDFPathSegment_GetType(seg)
        px, py = _X.value, _Y.value
        point = (a * px + c * py + e, b * px + d * py + f)
        if kind == moveto:
            if current:
                subpaths.append((current, closed))
            current, closed = [("m", *point)], False
        else:
            current.append(("l" if kind == lineto else "c", *point))
        closed = closed or bool(raw.FPDFPathSegment_GetClose(seg))
    if current:
        subpaths.append((current, closed))
    return subpaths


def _kind(points, closed):
    """'line', 'rect' or 'curve', as pdfminer classes a subpath."""
    ops = "".join(p[0] for p in points)
    xy = [(p[1], p[2]) for p in points]
    if ops == "ml" and not closed:
        return "line"
    if (ops == "mlll" and closed) or (ops == "mllll" and (closed or _near(xy[4], xy[0]))):
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = xy[:4]
        if ((_near((x0, y1), (x1, y2)) and _near((x2, y3), (x3, y0)))
                or (_near((y0, x1), (y1, x2)) and _near((y2, x3), (y3, x0)))):
            return "rect"
    return "curve"


def _near(p, q):
    return abs(p[0] - q[0]) < 1e-6 and abs(p[1] - q[1]) < 1e-6


class Page:
    """One page: its objects parsed once, on first use of any of them."""

    def __init__(self, page):
        self._page = page
        self.width, self.height = page.get_size()

    @functools.cached_property
    def _paths(self):
        found = {"rect": [], "line": [], "curve": []}
        self._walk(self._page.raw, raw.FPDFPage_CountObjects, raw.FPDFPage_GetObject, (1, 0, 0, 1, 0, 0), found)
        return found

    def _walk(self, parent, count, get, outer, found):
        for i in range(count(parent)):
            obj = get(parent, i)
            kind = raw.FPDFPageObj_GetType(obj)
            if kind == raw.FPDF_PAGEOBJ_FORM:
                self._walk(obj, raw.FPDFFormObj_CountObjects, raw.FPDFFormObj_GetObject,
                           _mul(_matrix(obj), outer), found)
            elif kind == raw.FPDF_PAGEOBJ_PATH:
                self._path(obj, _mul(_matrix(obj), outer), found)

    def _path(self, obj, m, found):
        fillmode, stroke = ctypes.c_int(), ctypes.c_int()
        raw.FPDFPath_GetDrawMode(obj, fillmode, stroke)
        width = ctypes.c_float()
        raw.FPDFPageObj_GetStrokeWidth(obj, width)
        paint = {"fill": fillmode.value != 0, "stroke": bool(stroke.value),
                 "fill_rgb": _rgb(raw.FPDFPageObj_GetFillColor, obj),
                 "stroke_rgb": _rgb(raw.FPDFPageObj_GetStrokeColor, obj),
                 "linewidth": width.value * (abs(m[0] * m[3] - m[1] * m[2]) ** 0.5)}
        for points, closed in _subpaths(obj, m):
            xs, ys = [p[1] for p in points], [p[2] for p in points]
            kind = _kind(points, closed)
            found[kind].append({**paint, **self._box(min(xs), min(ys), max(xs), max(ys)), "object_type": kind,
                                "pts": [(x, self.height - y) for x, y in zip(xs, ys, strict=True)]})

    def _box(self, left, bottom, right, top):
        return {"x0": left, "x1": right, "top": self.height - top, "bottom": self.height - bottom,
                "width": right - left, "height": top - bottom}

    @property
    def rects(self):
        return self._paths["rect"]

    @property
    def lines(self):
        return self._paths["line"]

    @property
    def curves(self):
        return self._paths["curve"]

    @functools.cached_property
    def chars(self):
        text = raw.FPDFText_LoadPage(self._page.raw)
        try:
            return self._chars(text)
        finally:
            raw.FPDFText_ClosePage(text)

    def _chars(self, text):
        chars, fonts = [], {}
        rect, matrix = raw.FS_RECTF(), raw.FS_MATRIX()
        for i in range(raw.FPDFText_CountChars(text)):
            if raw.FPDFText_IsGenerated(text, i) == 1:
                continue
            code = raw.FPDFText_GetUnicode(text, i)
            if code in (0, 0xFFFE, 0xFFFF):
                continue
            raw.FPDFText_GetLooseCharBox(text, i, rect)
            raw.FPDFText_GetMatrix(text, i, matrix)
            obj = raw.FPDFText_GetTextObject(text, i)
            key = ctypes.addressof(obj.contents)
            if key not in fonts:
                fonts[key] = _font_name(obj)
            upright = matrix.a * matrix.d > 0 and matrix.b * matrix.c <= 0     # pdfminer's test
            chars.append({"text": chr(code), "size": raw.FPDFText_GetFontSize(text, i), "fontname": fonts[key],
                          "upright": upright, "matrix": (matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f),
                          "fill_rgb": _char_rgb(text, i),
                          "object_type": "char", **self._box(rect.left, rect.bottom, rect.right, rect.top)})
        return chars

    @functools.cached_property
    def words(self):
        # the English typographic apostrophe read as the straight one the catalogues type, as
        # conftest.page_texts reads it (the chars keep it)
        return [{**w, "text": w["text"].replace("\u2019", "'")} for w in words_of(self.chars)]

    @functools.cached_property
    def text(self):
        return text_of(self.words)


def _char_rgb(text, i):
    return (_R.value, _G.value, _B.value) if raw.FPDFText_GetFillColor(text, i, _R, _G, _B, _A) else None


def _font_name(obj):
    font = raw.FPDFTextObj_GetFont(obj)
    size = raw.FPDFFont_GetBaseFontName(font, None, 0)
    buffer = ctypes.create_string_buffer(size)
    raw.FPDFFont_GetBaseFontName(font, buffer, size)
    return buffer.value.decode("utf-8", "replace")


def _lines(objs, tolerance=TOLERANCE, upright=True):
    """Objects clustered into lines as pdfplumber clusters them: sorted by top (by x0 for text
    turned a quarter), a line running on while each is within `tolerance` of the one before;
    each line in reading order, left to right (top to bottom)."""
    across, along = ("top", "x0") if upright else ("x0", "top")
    lines, last = [], None
    for obj in sorted(objs, key=lambda o: o[across]):
        if last is None or obj[across] > last + tolerance:
            lines.append([])
        lines[-1].append(obj)
        last = obj[across]
    return [sorted(line, key=lambda o: o[along]) for line in lines]


def words_of(chars, x_tolerance=TOLERANCE, y_tolerance=TOLERANCE, keep_blank_chars=False, extra_attrs=()):
    """Chars joined into words as pdfplumber's extract_words joins them: each run of upright (or
    of turned) chars in the page's order on its own (and with extra_attrs, each run of chars
    alike in those keys, as "fontname"); a line's chars in reading order, a word ending at a blank
    (unless kept), a gap wider than x_tolerance, a char starting before the one before, or one
    more than y_tolerance off its line."""
    words = []
    for (upright, *_), run in itertools.groupby(chars, key=lambda c: (c["upright"], *(c[a] for a in extra_attrs))):
        start, end, across = ("x0", "x1", "top") if upright else ("top", "bottom", "x0")
        for line in _lines(list(run), y_tolerance, upright):
            word = []
            for ch in line:
                if ch["text"].isspace() and not keep_blank_chars:
                    if word:
                        words.append(_word(word))
                    word = []
                    continue
                if word and (ch[start] < word[-1][start] or ch[start] > word[-1][end] + x_tolerance
                             or abs(ch[across] - word[-1][across]) > y_tolerance):
                    words.append(_word(word))
                    word = []
                word.append(ch)
            if word:
                words.append(_word(word))
    return words


def text_of(words):
    """The words line by line, top to bottom, a space between words (pdfplumber's extract_text
    without layout).  words_of(chars) of some of a page's chars gives the text of those alone."""
    return "\n".join(" ".join(w["text"] for w in line) for line in _lines(words))


def _word(chars):
    first = chars[0]
    return {"text": "".join(c["text"] for c in chars), "x0": min(c["x0"] for c in chars),
            "x1": max(c["x1"] for c in chars), "top": min(c["top"] for c in chars),
            "bottom": max(c["bottom"] for c in chars), "fontname": first["fontname"], "size": first["size"],
            "fill_rgb": first["fill_rgb"], "chars": chars}


class Document:
    """The PDF's pages, each a Page parsed when first read.  Keeps the document open."""

    def __init__(self, pdf_bytes):
        self._doc = pdfium.PdfDocument(pdf_bytes)
        self.pages = tuple(Page(self._doc[i]) for i in range(len(self._doc)))

@functools.lru_cache(maxsize=32)
def pages_of(pdf_bytes):
    """The PDF's pages, each parsed once, when a test first reads it (cached per process by the
    bytes, so every test of a session that reads the same PDF shares one parse)."""
    return Document(pdf_bytes).pages
