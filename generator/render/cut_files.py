"""The cut files: each counter sheet's die line alone, as a PDF (a page a sheet), an SVG and a
DXF, on the page its counters print on, for a die-maker, a cutting plotter or a home cutting
machine.

The paths are layout/cuts.py's, placed by the same sheet plan the counters are drawn by, so
each lies on its counter's cut.  In the PDF they are strokes in the CutContour separation,
overprinted (what a plotter's software or a die-maker reads); for a home cutting machine
(--print cutter) Silhouette's registration marks, pure K, stand at the corners of the sheet,
where the counters PDF prints them: K is not the cut colour, so a cutter's software reads the
CutContour paths alone.
The PDF then takes the shop's boxes like every PDF of the profile (make/pipeline.py).  The SVG
and the DXF hold the first sheet's die line, which is every sheet's (the grid is the same on
every sheet, the first one full), in millimetres over the whole page the shop's PDF has (its
media box), so they lie over an image of that page exactly; they hold cut paths and nothing
else, since cutting software cuts round every shape it imports.  The registration marks, for
aligning by eye, are a file of their own (marks-PAPER.svg).
"""

from reportlab.lib.colors import CMYKColorSep

from generator.content.context import BuildContext
from generator.layout import cuts, sheets
from generator.layout.paper import Paper
from generator.render.pdf.canvas import INK, finish, new_canvas
from generator.units import points_to_mm

CUT_LINE = 0.25         # points: a plotter reads the path, not its width
SVG_STROKE = "#ff0000"  # what cutting software shows as a cut line


def _nicks(ctx: BuildContext) -> cuts.Nicks | None:
    prepress = ctx.options.profile.prepress
    return prepress.die_cut.nicks if prepress is not None and prepress.die_cut is not None else None


def render_pdf(ctx: BuildContext, paper: Paper, plan: sheets.SheetPlan) -> bytes:
    """cut-PAPER.pdf: a page a counter sheet, its die line alone (and the registration marks)."""
    from generator.render.pdf.shop_pdf import CUT_CONTOUR, cut_contour_inks
    grid, _, placed = plan
    page = Paper(paper.key, paper.label, grid.page_w, grid.page_h)
    words = ctx.words
    c, buffer = new_canvas(ctx, page, words("cut.title", number=ctx.kit.rules.number, title=ctx.kit.rules.title),
                           words("cut.subject", paper=paper.label))
    marks = ctx.options.profile.home_cutter
    for slots in placed:
        c.saveState()
        c.setStrokeColor(CMYKColorSep(*cut_contour_inks(), spotName=CUT_CONTOUR))
        c.setStrokeOverprint(True)
        c.setLineWidth(CUT_LINE)
        for path in cuts.sheet_cuts(grid, slots, _nicks(ctx)):
            for line in path:
                drawn = c.beginPath()
                drawn.moveTo(*line[0])
                for point in line[1:]:
                    drawn.lineTo(*point)
                c.drawPath(drawn, fill=0, stroke=1)
        c.restoreState()
        if marks:
            c.setFillColor(INK)
            for r in cuts.registration_marks(grid.page_w, grid.page_h):
                c.rect(r.x, r.y, r.w, r.h, fill=1, stroke=0)
        c.showPage()
    return finish(c, buffer)


def _media(ctx: BuildContext, grid: sheets.Grid) -> tuple[float, float, float]:
    """(width, height, margin) in points: the whole page of the profile's PDF, and the margin
    from its edge to the trim (a shop's bleed and slug; 0 for a home printer's page)."""
    prepress = ctx.options.profile.prepress
    if prepress is not None:
        from generator.render.pdf.pdfx import margin
        m = margin(prepress, ctx.options.marks)
    else:
        m = 0.0
    return grid.page_w + 2 * m, grid.page_h + 2 * m, m


def _svg(width: float, height: float, body: list[str]) -> bytes:
    size = f'width="{points_to_mm(width):.3f}mm" height="{points_to_mm(height):.3f}mm"'
    box = f"0 0 {points_to_mm(width):.3f} {points_to_mm(height):.3f}"
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" {size} viewBox="{box}">', *body, "</svg>"]
    return ("\n".join(lines) + "\n").encode()


def render_svg(ctx: BuildContext, plan: sheets.SheetPlan) -> bytes:
    """cut-PAPER.svg: the die line of every sheet, in mm over the shop PDF's whole page."""
    grid, _, placed = plan
    width, height, m = _media(ctx, grid)

    def at(point: sheets.Point) -> str:
        return f"{points_to_mm(point[0] + m):.3f},{points_to_mm(height - point[1] - m):.3f}"
    lines = [f'<g id="die-line" fill="none" stroke="{SVG_STROKE}" stroke-width="{points_to_mm(CUT_LINE):.3f}">']
    for n, path in enumerate(cuts.sheet_cuts(grid, placed[0] if placed else [], _nicks(ctx)), start=1):
        d = []
        for line in path:
            closed = len(line) > 2 and line[0] == line[-1]
            d.append("M " + " L ".join(at(p) for p in (line[:-1] if closed else line)) + (" Z" if closed else ""))
        lines.append(f'<path id="counter-{n}" d="{" ".join(d)}"/>')
    lines.append("</g>")
    return _svg(width, height, lines)


def render_marks_svg(ctx: BuildContext, plan: sheets.SheetPlan) -> bytes:
    """marks-PAPER.svg: Silhouette's registration marks as the counters' fronts print them, in mm
    over the same page as the cut SVG, filled K: to line the cut up by eye, never to cut."""
    grid = plan[0]
    width, height, m = _media(ctx, grid)
    lines = ['<g id="registration-marks" fill="#000000" stroke="none">']
    for r in cuts.registration_marks(grid.page_w, grid.page_h):
        x, y = points_to_mm(r.x + m), points_to_mm(height - r.y - r.h - m)
        w, h = points_to_mm(r.w), points_to_mm(r.h)
        lines.append(f'<rect x="{x:.3f}" y="{y:.3f}" width="{w:.3f}" height="{h:.3f}"/>')
    lines.append("</g>")
    return _svg(width, height, lines)


DXF_LAYER = "CUT"       # the layer every cut path lies on
DXF_VERSION = "R2000"   # LWPOLYLINE and drawing units in mm; what Silhouette Studio and Cricut read


def render_dxf(ctx: BuildContext, plan: sheets.SheetPlan) -> bytes:
    """cut-PAPER.dxf: the SVG's die line as a DXF (ezdxf), in mm, y up from the page's lower
    left corner (the shop PDF's whole page): each counter's path one polyline or, with nicks,
    one for each corner, on the layer DXF_LAYER."""
    import ezdxf
    # ezdxf stamps the time (and a random GUID) into a drawing as it is made and as it is written
    # unless told to write fixed ones: the same inputs make the same bytes
    fixed = ezdxf.options.write_fixed_meta_data_for_testing
    ezdxf.options.write_fixed_meta_data_for_testing = True
    try:
        return _dxf(ctx, plan)
    finally:
        ezdxf.options.write_fixed_meta_data_for_testing = fixed


def _dxf(ctx: BuildContext, plan: sheets.SheetPlan) -> bytes:
    import io

    import ezdxf
    grid, _, placed = plan
    _, _, m = _media(ctx, grid)
    doc = ezdxf.new(DXF_VERSION, units=ezdxf.units.MM)
    doc.layers.add(DXF_LAYER)
    space = doc.modelspace()
    for path in cuts.sheet_cuts(grid, placed[0] if placed else [], _nicks(ctx)):
        for line in path:
            closed = len(line) > 2 and line[0] == line[-1]
            points = [(round(points_to_mm(x + m), 4), round(points_to_mm(y + m), 4))
                      for x, y in (line[:-1] if closed else line)]
            space.add_lwpolyline(points, close=closed, dxfattribs={"layer": DXF_LAYER})
    text = io.StringIO()
    doc.write(text)
    return text.getvalue().encode("ascii")
