"""Colour arithmetic for print: how a colour pair reads once a printer turns it grey."""


def rgb(hex_colour: str) -> tuple[float, float, float]:
    """'#rrggbb' -> (r, g, b) in 0..1."""
    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return r, g, b


def luma(hex_colour: str) -> float:
    """The lightness (0 black .. 1 white) a monochrome printer makes of a colour (Rec. 601
    luma, as most drivers use)."""
    r, g, b = rgb(hex_colour)
    return 0.299 * r + 0.587 * g + 0.114 * b


def grey_contrast(a: str, b: str) -> float:
    """Contrast ratio (WCAG form, 1..21) between the greys of two colours."""
    hi, lo = sorted((_linear(luma(a)), _linear(luma(b))), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _linear(v: float) -> float:
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
