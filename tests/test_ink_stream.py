"""A content stream's colours as a shop's inks (render/pdf/ink_stream.py), stream by stream.

The expected streams follow shop_pdf.py's stated rule: a grey (DeviceGray, or RGB with equal
parts) prints as K alone, K = 1 - the grey level; grey text in 100% K; a tinted line at least
half a point.  What the rewrite must not touch (strings, names, comments, hex strings, inline
image data) holds the very bytes an operator would be.
"""

import pytest

from generator.render.pdf.ink_stream import in_inks


@pytest.mark.parametrize(("stream", "shop"), [
    (b"0.25 g 0.5 G", b"0 0 0 0.75 k 0 0 0 0.5 K"),
    (b".4 .4 .4 rg\n0 0 m", b"0 0 0 0.6 k\n0 0 m"),
    (b"1 g 0 G", b"0 0 0 0 k 0 0 0 1 K"),
    (b"0 0 0 1 k 0 1 0 0 K", b"0 0 0 1 k 0 1 0 0 K"),       # CMYK already: as it was
    (b"1 0 0 1 0 0 cm .5 g", b"1 0 0 1 0 0 cm 0 0 0 0.5 k"),   # the numbers before are another operator's
])
def test_greys_become_black_ink(stream, shop):
    assert in_inks(stream) == shop


@pytest.mark.parametrize("stream", [
    b"BT /G1 9 Tf (0.5 g and 1 0 0 rg) Tj ET",            # a name and a string that read as operators
    b"BT (a (0.5 g) b) Tj ET",                            # a string's balanced parentheses
    rb"BT (\) 0.5 g \() Tj ET",                           # and its escaped ones
    b"% 0.5 g a comment\n0 0 m",
    b"BI /W 1 /H 1 /CS /G /BPC 8 ID \x80g 0.5 g\x00 EI 0 0 m",     # an inline image's data
])
def test_what_only_looks_like_a_colour_is_left_as_it_was(stream):
    assert in_inks(stream) == stream


def test_a_hex_string_holding_a_b_is_no_stroke_to_widen():
    assert in_inks(b"0.5 G 0.2 w BT <0a b> Tj ET") == b"0 0 0 0.5 K 0.2 w BT <0a b> Tj ET"


def test_the_real_operator_after_a_look_alike_is_still_converted():
    assert in_inks(b"BT (a (0.5 g) b) Tj ET 0.5 g") == b"BT (a (0.5 g) b) Tj ET 0 0 0 0.5 k"
    assert in_inks(b"% 0.5 g\n0.5 g") == b"% 0.5 g\n0 0 0 0.5 k"


def test_grey_text_prints_in_full_black_and_the_grey_comes_back_after():
    assert in_inks(b"0.5 g BT (x) Tj ET 0 0 10 10 re f") == \
        b"0 0 0 0.5 k BT 0 0 0 1 k (x) Tj ET 0 0 0 0.5 k 0 0 10 10 re f"
    assert in_inks(b"BT 0.3 g (x) Tj ET") == b"BT 0 0 0 1 k (x) Tj ET 0 0 0 0.7 k"
    assert in_inks(b"BT 0 g (x) Tj ET") == b"BT 0 0 0 1 k (x) Tj ET"        # black already


def test_a_tinted_hairline_is_stroked_half_a_point_and_the_width_put_back():
    assert in_inks(b"0.5 G 0.2 w 0 0 m 9 9 l S") == b"0 0 0 0.5 K 0.2 w 0 0 m 9 9 l 0.5 w S 0.2 w"
    assert in_inks(b"0.5 G 0.6 w 0 0 m 9 9 l S") == b"0 0 0 0.5 K 0.6 w 0 0 m 9 9 l S"    # wide enough
    assert in_inks(b"0 G 0.2 w 0 0 m 9 9 l S") == b"0 0 0 1 K 0.2 w 0 0 m 9 9 l S"        # solid ink


def test_q_and_q_restore_what_the_rewrite_follows():
    assert in_inks(b"q 0.5 G 0.2 w Q 0 0 m 9 9 l S") == b"q 0 0 0 0.5 K 0.2 w Q 0 0 m 9 9 l S"
    assert in_inks(b"0.5 g q 0 g Q BT (x) Tj ET") == b"0 0 0 0.5 k q 0 0 0 1 k Q BT 0 0 0 1 k (x) Tj ET 0 0 0 0.5 k"


def test_a_separation_is_no_tint_to_widen():
    stream = b"/CutContour CS 1 SCN 0.1 w 0 0 m 9 9 l S"     # the cutting plotter's line, as drawn
    assert in_inks(stream) == stream
