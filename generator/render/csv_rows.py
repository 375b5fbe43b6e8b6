"""prerolled.csv: the pre-rolled rows for digital play, as a spreadsheet reads them.

UTF-8 with a byte order mark (Excel reads the catalogue's letters right only with one), CRLF line
ends and every field quoted (RFC 4180), so a word from a catalogue holding a comma, a quote or a
line break stays one cell.  A field a spreadsheet would read as a formula (content/rows.py
FORMULA_STARTS) is written with an apostrophe before it, which shows it as the text it is.
"""

import csv
import io
from collections.abc import Callable

from generator.content.context import BuildContext
from generator.content.rows import Table, csv_records, formula_start

BOM = "\ufeff"


def write(ctx: BuildContext, table: Table, sink: Callable[[bytes], object]) -> None:
    """The same rows as the PDFs (one file for every paper) into `sink`, a piece at a time as they
    are made (a million rows are some 50 MB): the cells a player reads, a killed man's weapon
    empty where the PDF prints a dash."""
    text = io.StringIO()
    writer = csv.writer(text, quoting=csv.QUOTE_ALL, lineterminator="\r\n")
    text.write(BOM)
    for records in csv_records(table, ctx.words):
        writer.writerows([inert(field) for field in record] for record in records)
        sink(text.getvalue().encode("utf-8"))
        text.seek(0)
        text.truncate()


def render(ctx: BuildContext, table: Table) -> bytes:
    """The whole file's bytes (write's)."""
    out = io.BytesIO()
    write(ctx, table, out.write)
    return out.getvalue()


def inert(field: str) -> str:
    """`field` as a spreadsheet shows it as text: an apostrophe before a formula's first character."""
    return f"'{field}" if formula_start(field) is not None else field
