"""The kit's pictograms as geometry: SVG path data read into outlines, scaled into a box.

The icons are game-icons.net's (CC BY 3.0), their path data copied once into pictograms.toml
beside this module with each icon's name, author and source (never fetched at build time).
Every icon is drawn on a 512-unit square, y down, as SVG draws it; read here into subpaths of
straight and cubic segments in the same units, then mapped into a box in PDF points (y up).  The
PDF renderer draws the outlines; the web aid prints the same path data inline as SVG.

A pictogram is a role ('pistol', 'rifle', 'smg', 'afv', 'wreck') made of one or more parts,
each an icon placed on the role's own 512-unit square (the wreck: the tank and a fire over it).
"""

import math
import re
import tomllib
from functools import cache
from importlib import resources

from msgspec import Struct

from generator.errors import DataError

Point = tuple[float, float]
Box = tuple[float, float, float, float]     # (x, y, w, h), y up
# A segment: ('L', (end,)) or ('C', (control 1, control 2, end)).
Segment = tuple[str, tuple[Point, ...]]
VIEW = 512.0            # game-icons.net's view box: 0 0 512 512
FILE = "pictograms.toml"


class Subpath(Struct, frozen=True):
    start: Point
    segments: tuple[Segment, ...]
    closed: bool


class Part(Struct, frozen=True):
    """One icon of a pictogram: its path data, where it sits on the role's square (turned about
    the icon's centre, then scaled and moved, in 512ths) and how far it knocks out what is under it."""
    icon: str
    author: str
    source: str
    path: str
    rotate: float = 0.0         # degrees, clockwise on the page (SVG's sense, y down)
    scale: float = 1.0
    offset: Point = (0.0, 0.0)
    knockout: float = 0.0       # the part's outline grown by this many units, in the ground colour, first


class Pictogram(Struct, frozen=True):
    role: str
    parts: tuple[Part, ...]

    def bounds(self) -> Box:
        """(x, y, w, h) of the ink on the role's square, y down, in its 512ths."""
        return _bounds(self.parts)

    @property
    def aspect(self) -> float:
        """Width over height of its ink."""
        _, _, w, h = self.bounds()
        return w / h


SOURCE = resources.files(__package__).joinpath(FILE)      # as problems name it
ROLES = ("pistol", "rifle", "smg", "afv", "wreck")        # what the faces and the web aid call for
MAX_PATH = 16 * 1024        # characters of one part's path data: the shipped icons hold under 2,000
MAX_PARTS = 8
REACH = 16 * VIEW           # no point of a placed part lies further than this from the square
# A part's placement: (key, default, lowest, highest).
_PLACING = (("rotate", 0.0, -360.0, 360.0), ("scale", 1.0, 1 / 64, 16.0), ("knockout", 0.0, 0.0, VIEW))


@cache
def pictograms() -> dict[str, Pictogram]:
    """{role: Pictogram} from pictograms.toml."""
    return read_pictograms(_text())


def _text() -> str:
    return SOURCE.read_text(encoding="utf-8")


def read_pictograms(text: str) -> dict[str, Pictogram]:
    """{role: Pictogram} from the text of pictograms.toml, every value checked: a DataError naming
    the file and the key of the first that the reader cannot take or that would draw no ink, or
    ink outside any page."""
    result = {}
    for role, parts in _roles(text).items():
        result[role] = Pictogram(role, tuple(_part(f"pictogram.{role}.part[{i}]", p) for i, p in enumerate(parts)))
        _, _, w, h = result[role].bounds()
        if not (w > 0 and h > 0):
            raise DataError(f"{SOURCE}: pictogram.{role}: its ink has no width or no height ({w:g} x {h:g})")
    return result


@cache
def part_authors() -> list[tuple[str, str]]:
    """[(key, author)] of every part of pictograms.toml, read as read_pictograms reads them but
    without their path data: what a colophon credits, for a check that draws no icon."""
    return [(f"pictogram.{role}.part[{i}]", _words(f"pictogram.{role}.part[{i}]", part, ("author",))["author"])
            for role, parts in _roles(_text()).items() for i, part in enumerate(parts)]


def _roles(text: str) -> dict[str, list[object]]:
    """{role: its [[pictogram.ROLE.part]] tables, unread} from the text of pictograms.toml."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise DataError(f"{SOURCE}: not valid TOML: {error}") from None
    table = data.get("pictogram")
    if not isinstance(table, dict):
        raise DataError(f"{SOURCE}: pictogram: must be a table of roles ({', '.join(ROLES)})")
    roles = {}
    for role in ROLES:
        entry = table.get(role)
        parts = entry.get("part") if isinstance(entry, dict) else None
        if not isinstance(parts, list) or not 1 <= len(parts) <= MAX_PARTS:
            raise DataError(f"{SOURCE}: pictogram.{role}: must hold 1 to {MAX_PARTS} [[pictogram.{role}.part]] tables")
        roles[role] = parts
    return roles


def _words(key: str, entry: object, names: tuple[str, ...]) -> dict[str, str]:
    """The text fields `names` of one part's table, each checked printable on one line."""
    if not isinstance(entry, dict):
        raise DataError(f"{SOURCE}: {key}: must be a table of icon, author, source, path")
    words = {}
    for name in names:
        value = entry.get(name)
        if not isinstance(value, str) or not value.strip() or not value.isprintable():
            raise DataError(f"{SOURCE}: {key}.{name}: must be printable text on one line")
        words[name] = value
    return words


def _part(key: str, entry: object) -> Part:
    """One [[pictogram.ROLE.part]], checked (`key` names it in a problem)."""
    words = _words(key, entry, ("icon", "author", "source", "path"))
    assert isinstance(entry, dict)      # _words refused anything else
    if len(words["path"]) > MAX_PATH:
        raise DataError(f"{SOURCE}: {key}.path: {len(words['path']):,} characters; a part's path data holds at "
                        f"most {MAX_PATH:,}")
    placing = {name: _number(f"{key}.{name}", entry.get(name, default), low, high)
               for name, default, low, high in _PLACING}
    offset = entry.get("offset", [0, 0])
    if not isinstance(offset, list) or len(offset) != 2:
        raise DataError(f"{SOURCE}: {key}.offset: must be two numbers, x and y")
    x, y = (_number(f"{key}.offset", v, -REACH, REACH) for v in offset)
    part = Part(words["icon"], words["author"], words["source"], words["path"], offset=(x, y), **placing)
    try:
        subpaths = outline(part)
    except PathError as error:
        raise DataError(f"{SOURCE}: {key}.path: {error}") from None
    points = [p for sub in subpaths for p in _points(sub)]
    if not points:
        raise DataError(f"{SOURCE}: {key}.path: draws nothing (no segment after its moveto)")
    if not all(math.isfinite(v) and abs(v) <= REACH for p in points for v in p):
        raise DataError(f"{SOURCE}: {key}.path: reaches past {REACH:g} units from the {VIEW:g}-unit square")
    return part


def _number(key: str, value: object, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise DataError(f"{SOURCE}: {key}: must be a number from {low:g} to {high:g}; got {value!r}")
    return float(value)


def credits() -> list[tuple[str, str, str]]:
    """[(icon, author, source), ...]: every icon the pictograms use, once, sorted by icon name."""
    seen = {(p.icon, p.author, p.source) for pic in pictograms().values() for p in pic.parts}
    return sorted(seen)


def authors() -> list[str]:
    """The icons' authors, once each, sorted: the names the licence asks to credit."""
    return sorted({author for _, author, _ in credits()})


@cache
def outline(part: Part) -> tuple[Subpath, ...]:
    """The part's subpaths on the role's square (turn, scale and offset applied), y down."""
    s, (ox, oy) = part.scale, part.offset
    cos, sin = math.cos(math.radians(part.rotate)), math.sin(math.radians(part.rotate))
    c = VIEW / 2

    def move(p: Point) -> Point:
        x, y = p[0] - c, p[1] - c
        return ox + (c + x * cos - y * sin) * s, oy + (c + x * sin + y * cos) * s
    return tuple(Subpath(move(sub.start), tuple((op, tuple(move(q) for q in pts)) for op, pts in sub.segments),
                         sub.closed) for sub in parse(part.path))


def placed(pictogram: Pictogram, box: Box) -> tuple[float, float, float]:
    """(scale, x, y) mapping the pictogram's 512ths into `box` (PDF points, y up), its ink as large
    as the box allows and centred: a point (u, v) lands at (x + u * scale, y - v * scale)."""
    bx, by, bw, bh = box
    ix, iy, iw, ih = pictogram.bounds()
    scale = min(bw / iw, bh / ih)
    left = bx + (bw - iw * scale) / 2 - ix * scale
    top = by + bh - (bh - ih * scale) / 2 + iy * scale
    return scale, left, top


def fitted(pictogram: Pictogram, part: Part, box: Box) -> list[Subpath]:
    """The part's subpaths mapped into `box` (PDF points, y up) as `placed` maps its pictogram."""
    scale, left, top = placed(pictogram, box)

    def map_point(p: Point) -> Point:
        return left + p[0] * scale, top - p[1] * scale
    return [Subpath(map_point(sub.start), tuple((op, tuple(map_point(q) for q in pts)) for op, pts in sub.segments),
                    sub.closed) for sub in outline(part)]


@cache
def _bounds(parts: tuple[Part, ...]) -> Box:
    xs: list[float] = []
    ys: list[float] = []
    for part in parts:
        for sub in outline(part):
            for x, y in _points(sub):
                xs.append(x)
                ys.append(y)
    return min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)


@cache
def _points(sub: Subpath) -> tuple[Point, ...]:
    """The subpath's end points and each curve's points furthest out along x and y: the corners
    of its ink's box, exactly (a counter's safe zone is measured on this ink).  Kept: a part's
    check and its pictogram's bounds both read them."""
    points = [sub.start]
    last = sub.start
    for op, pts in sub.segments:
        if op == "C":
            c1, c2, end = pts
            points += [_weighted(last, c1, c2, end, _bernstein(t)) for t in _extremes(last, c1, c2, end)]
        points.append(pts[-1])
        last = pts[-1]
    return tuple(points)


def _extremes(p0: Point, p1: Point, p2: Point, p3: Point) -> list[float]:
    """The t in (0, 1) where the cubic turns along x or along y: its derivative's roots."""
    found = []
    for axis in (0, 1):
        a = -p0[axis] + 3 * p1[axis] - 3 * p2[axis] + p3[axis]
        b = 2 * (p0[axis] - 2 * p1[axis] + p2[axis])
        c = p1[axis] - p0[axis]
        if abs(a) < 1e-12:
            roots = [-c / b] if abs(b) > 1e-12 else []
        else:
            disc = b * b - 4 * a * c
            roots = [] if disc < 0 else [(-b + sign * math.sqrt(disc)) / (2 * a) for sign in (1, -1)]
        found += [t for t in roots if 0 < t < 1]
    return found


def _bernstein(t: float) -> tuple[float, float, float, float]:
    u = 1 - t
    return u ** 3, 3 * u * u * t, 3 * u * t * t, t ** 3


def _weighted(p0: Point, p1: Point, p2: Point, p3: Point, weights: tuple[float, float, float, float]) -> Point:
    """The cubic's point at the t whose Bernstein weights (_bernstein) are `weights`."""
    a, b, c, d = weights
    return (a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0], a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1])


# ---- SVG path data ---------------------------------------------------------------------------

_TOKEN = re.compile(r"[MmLlHhVvCcSsQqTtAaZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ARGS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


class PathError(ValueError):
    """Path data this reader cannot read."""


def _tokens(d: str) -> list[str]:
    """Commands and numbers; an arc's flags may run together with what follows ('0 01.5')."""
    out: list[str] = []
    pos = 0
    arc_index = -1      # position within an arc's seven numbers, -1 outside an arc
    command = ""
    while pos < len(d):
        ch = d[pos]
        if ch in " ,\t\r\n":
            pos += 1
            continue
        if command in "Aa" and arc_index in (3, 4) and ch in "01":
            out.append(ch)      # a flag is one character
            pos += 1
            arc_index += 1
            continue
        match = _TOKEN.match(d, pos)
        if not match:
            raise PathError(f"unreadable path data at {pos}: {d[pos:pos + 12]!r}")
        token = match.group()
        pos = match.end()
        out.append(token)
        if token.isalpha():
            command, arc_index = token, 0
        elif command in "Aa":
            arc_index = (arc_index + 1) % 7
    return out


def parse(d: str) -> tuple[Subpath, ...]:
    """SVG path data (every command, absolute and relative) as subpaths of 'L' and 'C' segments,
    in the data's own units (y down)."""
    reader = _Reader()
    tokens = _tokens(d)
    i, command = 0, ""
    while i < len(tokens):
        if tokens[i].isalpha():
            command = tokens[i]
            i += 1
            if command in "Zz":
                reader.close()
                continue
        if not command:
            raise PathError("path data must begin with a command")
        n = _ARGS[command.upper()]
        if len(tokens[i:i + n]) < n or any(t.isalpha() for t in tokens[i:i + n]):
            raise PathError(f"command {command} needs {n} numbers")
        args = [float(t) for t in tokens[i:i + n]]
        if not all(math.isfinite(a) for a in args):
            raise PathError(f"command {command} has a number past any float: {' '.join(tokens[i:i + n])[:40]}")
        if command in "Aa" and not {args[3], args[4]} <= {0.0, 1.0}:
            raise PathError(f"an arc's flags are 0 or 1, got {tokens[i + 3]} and {tokens[i + 4]}")
        i += n
        reader.step(command, args)
        if command in "Mm":         # numbers after a moveto are linetos
            command = "l" if command == "m" else "L"
    return reader.finish()


class _Reader:
    """The state of a path being read: the current point, the subpath's start, the last control
    point (for S and T), and the subpaths so far."""

    def __init__(self) -> None:
        self.subpaths: list[Subpath] = []
        self.segments: list[Segment] = []
        self.start: Point = (0.0, 0.0)
        self.point: Point = (0.0, 0.0)
        self.cubic: Point | None = None       # the last C or S's second control point
        self.quad: Point | None = None        # the last Q or T's control point
        self.open = False

    def _end(self, closed: bool) -> None:
        if self.open and self.segments:
            self.subpaths.append(Subpath(self.start, tuple(self.segments), closed))
        self.segments, self.open = [], False

    def close(self) -> None:
        self._end(True)
        self.point = self.start
        self.cubic = self.quad = None

    def finish(self) -> tuple[Subpath, ...]:
        self._end(False)
        return tuple(self.subpaths)

    def step(self, command: str, a: list[float]) -> None:
        rel = command.islower()
        x0, y0 = self.point
        op = command.upper()

        def at(dx: float, dy: float) -> Point:
            return (x0 + dx, y0 + dy) if rel else (dx, dy)
        cubic, quad = None, None
        if op == "M":
            self._end(False)
            self.start = self.point = at(a[0], a[1])
            self.open = True
        elif op in "LHV":
            end = at(a[0], a[1]) if op == "L" else (
                (x0 + a[0] if rel else a[0], y0) if op == "H" else (x0, y0 + a[0] if rel else a[0]))
            self._line(end)
        elif op in "CS":
            c1 = at(a[0], a[1]) if op == "C" else _reflect(self.cubic, self.point)
            c2, end = (at(a[2], a[3]), at(a[4], a[5])) if op == "C" else (at(a[0], a[1]), at(a[2], a[3]))
            self._curve(c1, c2, end)
            cubic = c2
        elif op in "QT":
            q = at(a[0], a[1]) if op == "Q" else _reflect(self.quad, self.point)
            end = at(a[2], a[3]) if op == "Q" else at(a[0], a[1])
            self._quad(q, end)
            quad = q
        else:       # A
            self._arc(a[0], a[1], a[2], bool(a[3]), bool(a[4]), at(a[5], a[6]))
        self.cubic, self.quad = cubic, quad

    def _begin(self) -> None:
        if not self.open:       # drawing on after a closepath starts a new subpath at its start
            self.start, self.open = self.point, True

    def _line(self, end: Point) -> None:
        self._begin()
        self.segments.append(("L", (end,)))
        self.point = end

    def _curve(self, c1: Point, c2: Point, end: Point) -> None:
        self._begin()
        self.segments.append(("C", (c1, c2, end)))
        self.point = end

    def _quad(self, q: Point, end: Point) -> None:
        (x0, y0), (qx, qy), (x3, y3) = self.point, q, end     # a quadratic is a cubic of its controls at 2/3
        self._curve((x0 + 2 / 3 * (qx - x0), y0 + 2 / 3 * (qy - y0)), (x3 + 2 / 3 * (qx - x3), y3 + 2 / 3 * (qy - y3)),
                    end)

    def _arc(self, rx: float, ry: float, angle: float, large: bool, sweep: bool, end: Point) -> None:
        for c1, c2, p in arc_curves(self.point, rx, ry, angle, large, sweep, end):
            self._curve(c1, c2, p)
        if self.point != end:       # a degenerate arc (a zero radius) is a straight line
            self._line(end)


def _reflect(control: Point | None, point: Point) -> Point:
    """S and T's first control point: the last one mirrored about the current point (or the point)."""
    if control is None:
        return point
    return 2 * point[0] - control[0], 2 * point[1] - control[1]


def arc_curves(start: Point, rx: float, ry: float, angle: float, large: bool, sweep: bool,
               end: Point) -> list[tuple[Point, Point, Point]]:
    """An SVG elliptical arc as cubic Beziers, each spanning at most a quarter turn (SVG 1.1's
    implementation notes F.6.5 and F.6.6: from end points to centre, radii scaled up if too small)."""
    (x1, y1), (x2, y2) = start, end
    if (x1, y1) == (x2, y2) or rx == 0 or ry == 0:
        return []
    rx, ry = abs(rx), abs(ry)
    phi = math.radians(angle % 360)
    cos, sin = math.cos(phi), math.sin(phi)
    dx, dy = (x1 - x2) / 2, (y1 - y2) / 2
    x1p, y1p = cos * dx + sin * dy, -sin * dx + cos * dy
    grow = (x1p / rx) ** 2 + (y1p / ry) ** 2
    if grow > 1:
        rx, ry = rx * math.sqrt(grow), ry * math.sqrt(grow)
    num = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p
    den = rx * rx * y1p * y1p + ry * ry * x1p * x1p
    k = math.sqrt(max(0.0, num / den)) * (-1 if large == sweep else 1)
    cxp, cyp = k * rx * y1p / ry, -k * ry * x1p / rx
    cx, cy = cos * cxp - sin * cyp + (x1 + x2) / 2, sin * cxp + cos * cyp + (y1 + y2) / 2
    theta = math.atan2((y1p - cyp) / ry, (x1p - cxp) / rx)
    delta = math.atan2((-y1p - cyp) / ry, (-x1p - cxp) / rx) - theta
    if sweep and delta < 0:
        delta += 2 * math.pi
    elif not sweep and delta > 0:
        delta -= 2 * math.pi
    pieces = max(1, math.ceil(abs(delta) / (math.pi / 2) - 1e-9))
    step = delta / pieces
    alpha = 4 / 3 * math.tan(step / 4)

    def on(t: float) -> Point:
        ex, ey = rx * math.cos(t), ry * math.sin(t)
        return cx + cos * ex - sin * ey, cy + sin * ex + cos * ey

    def tangent(t: float) -> Point:
        ex, ey = -rx * math.sin(t), ry * math.cos(t)
        return cos * ex - sin * ey, sin * ex + cos * ey
    curves = []
    t = theta
    for n in range(pieces):
        p0, p3 = on(t), (on(t + step) if n < pieces - 1 else end)
        d0, d3 = tangent(t), tangent(t + step)
        curves.append(((p0[0] + alpha * d0[0], p0[1] + alpha * d0[1]),
                       (p3[0] - alpha * d3[0], p3[1] - alpha * d3[1]), p3))
        t += step
    return curves
