"""The cut files: each counter sheet's die line alone, as a PDF (a page a sheet) and an SVG, on
the page its counters print on, for a die-maker, a cutting plotter or a home cutting machine.

The paths are layout/cuts.py's, placed by the same sheet plan the counters are drawn by, so
each lies on its counter's cut.  In the PDF they are strokes in the CutContour separation,
overprinted (what a plotter's software or a die-maker reads); for a home cutting machine
(--print cutter) Silhouette's registration marks, pure K, stand at the corners of the sheet,
where the counters PDF prints them.
The PDF then takes the shop's boxes like every PDF of the profile (make/pipeline.py).  The SVG
holds the first sheet's die line, which is every sheet's (the grid is the same on every sheet,
the first one full), in millimetres over the whole page the shop's PDF has (its media box), so
it lies over an image of that page exactly.
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


def render_svg(ctx: BuildContext, plan: sheets.SheetPlan) -> bytes:
    """cut-PAPER.svg: the die line of every sheet, in mm over the shop PDF's whole page."""
    grid, _, placed = plan
    prepress = ctx.options.profile.prepress
    if prepress is not None:
        from generator.render.pdf.shop_pdf import margin
        m = margin(prepress, ctx.options.marks)
    else:
        m = 0.0
    width, height = grid.page_w + 2 * m, grid.page_h + 2 * m
    size = f'width="{points_to_mm(width):.3f}mm" height="{points_to_mm(height):.3f}mm"'
    box = f"0 0 {points_to_mm(width):.3f} {points_to_mm(height):.3f}"

    def at(point: sheets.Point) -> str:
        return f"{points_to_mm(point[0] + m):.3f},{points_to_mm(height - point[1] - m):.3f}"
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" {size} viewBox="{box}">',
             f'<g id="die-line" fill="none" stroke="{SVG_STROKE}" stroke-width="{points_to_mm(CUT_LINE):.3f}">']
    for n, path in enumerate(cuts.sheet_cuts(grid, placed[0] if placed else [], _nicks(ctx)), start=1):
        d = []
        for line in path:
            closed = len(line) > 2 and line[0] == line[-1]
            d.append("M " + " L ".join(at(p) for p in (line[:-1] if closed else line)) + (" Z" if closed else ""))
        lines.append(f'<path id="counter-{n}" d="{" ".join(d)}"/>')
    lines.append("</g>")
    if ctx.options.profile.home_cutter:
        lines.append('<g id="registration-marks" fill="#000000" stroke="none">')
        for r in cuts.registration_marks(grid.page_w, grid.page_h):
            x, y = at((r.x, r.y + r.h)).split(",")
            lines.append(f'<rect x="{x}" y="{y}" width="{points_to_mm(r.w):.3f}" height="{points_to_mm(r.h):.3f}"/>')
        lines.append("</g>")
    lines.append("</svg>")
    return ("\n".join(lines) + "\n").encode()
