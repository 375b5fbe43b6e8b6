"""The aid's Markdown of one build: the template rendered, with change marks when built
`--since` OLD.  Both renderers of the aid (PDF and HTML) print it; a build makes it once
(generator/make/products.py)."""

from pathlib import Path

from generator.content.aid_files import TEMPLATE
from generator.content.context import BuildContext


def template_file(ctx: BuildContext) -> Path:
    """The aid's template this build reads."""
    return ctx.templates / TEMPLATE


def markdown_text(ctx: BuildContext) -> str:
    """The aid's Markdown, the same for every paper and the web edition (the PDF's footer names
    the paper).  A template that will not render is a RenderError naming the template file and line.

    Built `--since` OLD (ctx.changes set), it carries the "Changes since" box and a change mark
    on every changed line (content/marks.py).
    """
    if ctx.changes is not None:
        from generator.content.marks import marked_text  # only a --since build needs it
        return marked_text(ctx)
    from generator.content.aid_text import render_text
    return render_text(ctx)
