"""prerolled.csv: the pre-rolled rows for digital play."""

import io

from generator.content.context import BuildContext
from generator.content.rows import Table, csv_chunks


def render(ctx: BuildContext, table: Table) -> bytes:
    """The same rows as the PDFs (one file for every paper)."""
    out = io.BytesIO()
    for chunk in csv_chunks(table, ctx.words):
        out.write(chunk.encode("utf-8"))
    return out.getvalue()
