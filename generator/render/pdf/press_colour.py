"""The design's RGB colours as a press's inks, through the shop's output profile.

The shop presets print on the FOGRA39 condition (coated offset, ISO 12647-2), so every colour
of the design goes to CMYK through the kit's FOGRA39 output profile (icc/FOGRA39L-300.icc, its
README says what it is) with littleCMS, Pillow's ImageCms, rendering intent relative
colorimetric: a colour the press can print is printed as it looks on screen (measured: within
5 ΔE76 of its proof through the same profile, tests/test_colour_profile.py); paper white stays
unprinted.  Two rules stand before the profile, because a press's registration is worth more
than a match:
- a neutral colour (r = g = b) prints on the black plate alone, K = 1 - its level, as the kit
  has always printed its greys: small type and rules in grey never spread over four plates;
- every ink is in whole percent, as shops state tints.
The proof (inks back to sRGB through the same profile and intent, no black point compensation:
the press's black is K on paper) is what `bailout check`'s greyscale contrast is measured on for
a shop (shop_pdf.cmyk_problems).
"""

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.ImageCms import ImageCmsTransform

Cmyk = tuple[float, float, float, float]
PROFILE = Path(__file__).parent / "icc" / "FOGRA39L-300.icc"
INK_STEP = 100          # inks in whole percent
INTENT = "relative colorimetric"        # as docs/printing.md states it


@lru_cache(maxsize=1)
def _transforms() -> tuple["ImageCmsTransform", "ImageCmsTransform"]:
    """(sRGB to the press's CMYK, and back): littleCMS transforms through PROFILE."""
    from PIL import ImageCms
    press = ImageCms.getOpenProfile(str(PROFILE))
    screen = ImageCms.createProfile("sRGB")
    intent = ImageCms.Intent.RELATIVE_COLORIMETRIC
    return (ImageCms.buildTransform(screen, press, "RGB", "CMYK", intent),
            ImageCms.buildTransform(press, screen, "CMYK", "RGB", intent))


def _step(v: float) -> float:
    return round(min(1.0, max(0.0, v)) * INK_STEP) / INK_STEP


@lru_cache(maxsize=4096)
def _inks(r: int, g: int, b: int) -> Cmyk:
    """8-bit sRGB as inks in whole percent, by the rules above."""
    if r == g == b:
        return 0.0, 0.0, 0.0, _step(1 - r / 255)
    from PIL import Image, ImageCms
    pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), (r, g, b)), _transforms()[0])
    assert pixel is not None        # applyTransform returns None only when asked to work in place
    c, m, y, k = pixel.getpixel((0, 0))     # type: ignore[misc]
    return _step(c / 255), _step(m / 255), _step(y / 255), _step(k / 255)


def cmyk_of_rgb(r: float, g: float, b: float) -> Cmyk:
    """(r, g, b) in 0..1 as (C, M, Y, K) in 0..1; white is (0, 0, 0, 0)."""
    return _inks(*(round(min(1.0, max(0.0, v)) * 255) for v in (r, g, b)))


def cmyk(hex_colour: str) -> Cmyk:
    """'#rrggbb' as (C, M, Y, K) in 0..1."""
    return _inks(*(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)))


@lru_cache(maxsize=4096)
def proof(inks: Cmyk) -> str:
    """How the inks print, as '#rrggbb' (sRGB) through the profile: for colour.grey_contrast."""
    from PIL import Image, ImageCms
    image = Image.new("CMYK", (1, 1), tuple(round(v * 255) for v in inks))
    pixel = ImageCms.applyTransform(image, _transforms()[1])
    assert pixel is not None
    r, g, b = pixel.getpixel((0, 0))        # type: ignore[misc]
    return f"#{r:02x}{g:02x}{b:02x}"
