"""How the kit's own PDF writers spell a number (pdf_stream.py, ink_stream.py, pdfx.py), so a page
drawn by one and rewritten by another reads the same."""


def number(v: float) -> str:
    """A number as the page prints it: at most four decimals (as reportlab's), no trailing zeros."""
    text = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text
