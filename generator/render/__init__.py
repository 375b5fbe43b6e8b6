"""reportlab rendering: one module per output, sharing fonts, metadata and the footer."""
