"""prerolled.csv: the pre-rolled rows for digital play."""

import io

from generator.content.context import BuildContext
from generator.content.rows import csv_chunks, table_for
from generator.layout.paper import Paper


def render(ctx: BuildContext, paper: Paper | None = None) -> bytes:
    """The same rows as the PDFs (one file for every paper)."""
    out = io.BytesIO()
    for chunk in csv_chunks(table_for(ctx), ctx.words):
        out.write(chunk.encode("utf-8"))
    return out.getvalue()
