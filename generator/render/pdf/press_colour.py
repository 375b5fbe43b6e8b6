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
a shop (cmyk_problems, below); the ink ceiling on the inks (ink_problems).
"""

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from generator.colour import grey_contrast
from generator.data.model import KitData
from generator.profiles.print_profile import Prepress

if TYPE_CHECKING:
    from PIL.ImageCms import ImageCmsTransform

Cmyk = tuple[float, float, float, float]
PROFILE = Path(__file__).parent / "icc" / "FOGRA39L-300.icc"
INK_STEP = 100          # inks in whole percent
INTENT = "relative colorimetric"        # as docs/printing.md states it
SHOP_MIN_CONTRAST = 4.5     # the greyscale contrast `bailout check` asks of a nationality's colours


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


def cmyk_problems(kit: KitData, profile: str) -> list[str]:
    """`bailout check`-style lines: a nationality whose text stops reaching SHOP_MIN_CONTRAST
    in greyscale once its colours are inks and proofed (press_colour.py), named by file and key; `profile`: the
    --print that asks for inks."""
    problems = []
    for nat in kit.nationalities:
        ratio = grey_contrast(proof(cmyk(nat.colour)), proof(cmyk(nat.text_colour)))
        if ratio < SHOP_MIN_CONTRAST:
            inks = "/".join(f"{round(v * 100)}" for v in cmyk(nat.colour))
            problems.append(f"{kit.directory}/nationalities/{nat.key}.toml: text_colour: contrast with colour is "
                            f"{ratio:.2f}:1 in greyscale once printed in CMYK (colour as C/M/Y/K {inks}%); --print "
                            f"{profile} needs at least {SHOP_MIN_CONTRAST}:1")
    return problems


def total_ink(inks: Cmyk) -> int:
    """C + M + Y + K in whole percent: what a shop's ink ceiling limits."""
    return round(sum(inks) * 100)


def ink_problems(kit: KitData, prepress: Prepress, profile: str) -> list[str]:
    """One line for each colour of the data whose inks (press_colour.py) pass the shop's
    ink ceiling, naming its file and key; `profile`: the --print that sets the ceiling."""
    limit = prepress.ink_limit
    if limit is None:
        return []
    problems = []
    for nat in kit.nationalities:
        colours = [("colour", nat.colour), ("text_colour", nat.text_colour)]
        for i, shape in enumerate(nat.emblem):
            key = "colour" if len(shape.colours) == 1 else "colours"
            colours += [(f"emblem[{i}].{key}", c) for c in shape.colours]
        for key, hex_colour in colours:
            inks = cmyk(hex_colour)
            if total_ink(inks) > limit:
                shown = "/".join(f"{round(v * 100)}" for v in inks)
                problems.append(f"{kit.directory}/nationalities/{nat.key}.toml: {key}: {hex_colour} prints as "
                                f"C/M/Y/K {shown}%, {total_ink(inks)}% of ink; --print {profile} allows at most "
                                f"{limit}% ({prepress.shop}): choose a lighter colour")
    return problems
