"""The aid's Markdown of one build: the template rendered once, with change marks when built
`--since` OLD.  Both renderers of the aid (PDF and HTML) read it here."""

from collections.abc import Callable
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
    memo = ctx.memo
    if callable(memo.get(_KEY)):        # another lane renders it (hand_over): asked for now
        memo[_KEY] = memo[_KEY]()
    if _KEY not in memo:        # made once a build: the PDF for each paper and the HTML share it
        if ctx.changes is not None:
            from generator.content.marks import marked_text  # only a --since build needs it
            memo[_KEY] = marked_text(ctx)
        else:
            # Jinja only where the text is rendered: a process handed it (make/pipeline.py) need not load it
            from generator.content.aid_text import render_text
            memo[_KEY] = render_text(ctx)
    text: str = memo[_KEY]
    return text


_KEY = "aid markdown"


def hand_over(ctx: BuildContext, text: Callable[[], str]) -> None:
    """The build's aid Markdown is what `text()` returns (another lane renders it), asked for when
    this process first needs it."""
    ctx.memo[_KEY] = text
