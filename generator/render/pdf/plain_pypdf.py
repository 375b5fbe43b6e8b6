"""pypdf as the kit uses it (on PDFs of its own: merged, checked, converted for a print shop),
imported from this one module, so the library the kit reads and writes PDFs with is named once."""

from pypdf import PdfReader, PdfWriter

__all__ = ["PdfReader", "PdfWriter"]
