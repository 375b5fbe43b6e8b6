"""The Japanese edition's type and typography: its own faces, lines broken where Japanese may
break them (kinsoku, and at the end of a phrase in the kit's own wrapping), no space between
Japanese words, the kit's minus drawn though the Japanese faces have no U+2212.

Expected values come from Japanese typographic rules (JIS X 4051's marks that must not start or end a
line) and the grammar of the words, never from the code that breaks them.
"""

import io
import itertools
import re

import pytest
from pypdf import PdfReader

from conftest import DATA, aid_edition, pdf_text, shipped_build, shipped_kit
from generator.content.words import Words, load_words
from generator.text import line_pieces

# JIS X 4051: marks that never start a line, and marks that never end one.
NOT_FIRST = set("、。，．：；？！）」』】〕ーぁぃぅぇぉっゃゅょァィゥェォッャュョ")
NOT_LAST = set("（「『【〔")


def test_the_japanese_edition_prints_in_ibm_plex_sans_jp_and_the_others_in_plex_sans():
    from generator.render.pdf.canvas import edition_faces
    assert edition_faces("ja").body == "IBMPlexSansJP" and edition_faces("ja").bold == "IBMPlexSansJP-Bold"
    assert {edition_faces(lang).body for lang in ("en", "de", "fr", "ru", "pt_BR")} == {"IBMPlexSans"}


def test_every_face_of_the_japanese_aid_is_embedded_plex_sans_jp():
    reader = PdfReader(io.BytesIO(aid_edition("ja")["player-aid-a4.pdf"]))
    names = {str(ref.get_object()["/BaseFont"]) for page in reader.pages
             for ref in page["/Resources"]["/Font"].values()}
    assert names and all(re.fullmatch(r"/[A-Z]{6}\+IBMPlexSansJP(-Bold)?", name) for name in names), names


@pytest.mark.parametrize("text", ["乗員は「Hero」（ヒーロー）を出せば、兵1人が引かずに無傷。次の行へ。",
                                  "ヒーローカード（Hero）：兵1人が引かずに無傷（注2）。"])
def test_no_piece_starts_with_a_mark_that_never_starts_a_line_or_ends_with_one_that_never_ends_it(text):
    for phrases in (False, True):
        pieces = line_pieces(text, phrases=phrases)
        assert "".join(pieces) == text
        assert len(pieces) > 3
        assert not any(p[0] in NOT_FIRST for p in pieces[1:]), pieces
        assert not any(p[-1] in NOT_LAST for p in pieces[:-1]), pieces


def test_a_figure_stays_with_the_counter_word_after_it():
    """"1人", "5人", "3回": a figure alone at a line's end reads as a different number."""
    for text, held in (("車長死傷1回ごとに1人減る", ("1回", "1人")), ("乗員5人の合計", ("5人",))):
        pieces = line_pieces(text)
        assert all(any(word in piece for piece in pieces) for word in held), pieces


def test_the_kits_own_wrapping_breaks_japanese_at_the_end_of_a_phrase():
    """A phrase is a word and the particles after it: the marker's back breaks as a reader reads it."""
    assert line_pieces("乗員が別のレンジチットへ移ったとき", phrases=True) == \
        ["乗員が", "別の", "レンジチットへ", "移ったとき"]
    assert line_pieces("拳銃のみは非武装+1", phrases=True) == ["拳銃のみは", "非武装+1"]
    assert line_pieces("gets out alive (unhurt)", phrases=True) == ["gets", " out", " alive", " (unhurt)"]


def test_a_phrase_too_wide_for_a_counter_line_breaks_between_its_characters():
    from generator.layout import face_layout as fl

    def measure(text, style, size):
        return len(text) * size
    assert fl.wrap("レンジチットへ", 4 * 6, measure, "body", 6) == ["レンジ", "チットへ"]     # ッ never starts a line
    assert fl.wrap("乗員が別のレンジチットへ", 7 * 6, measure, "body", 6) == ["乗員が別の", "レンジチットへ"]


def test_japanese_sets_no_space_between_its_words_and_its_own_full_stop():
    words = Words("ja", {})
    assert words.typeset("武器は引く。 無傷 （注1）") == "武器は引く。無傷（注1）"
    assert words.typeset("撃破された.\n- 移動不能; 擱座") == "撃破された。\n- 移動不能、擱座"
    assert words.typeset("**ルールそのもの：** 871.1.a、1/4 (25.0%); 続いて") == \
        "**ルールそのもの：**871.1.a、1/4 (25.0%); 続いて"
    assert Words("de", {}).typeset("Mann. Nächster; a b") == "Mann. Nächster; a b"
    # a full-width bracket holds its own space; Markdown's markers keep the one they need
    assert words.typeset("- 1：無傷 **1/3** （33.3%）; 壁（Wall）; 煙幕") == \
        "- 1：無傷 **1/3**（33.3%）、壁（Wall）、煙幕"
    assert [words.typeset(t) for t in ("# （注）", "1. （注）", "- （注）", "| （注） |")] == \
        ["# （注）", "1. （注）", "- （注）", "| （注）|"]
    assert words.sentences(["一。", "二。"]) == "一。二。" and Words("de", {}).sentences(["A.", "B."]) == "A. B."


def test_the_aids_text_has_no_space_between_japanese_words():
    """The template joins its sentences with spaces, as the Latin editions write them."""
    from generator.content.aid_text import render_text
    from generator.content.context import make_context
    from generator.data.sources import shipped
    from generator.engine.odds import compute
    from generator.make.pipeline import edition_data
    from generator.options import BuildOptions
    kit = edition_data(shipped_kit(), "ja")
    text = render_text(make_context(kit, compute(kit), BuildOptions(lang="ja"), shipped("templates"),
                                    words=load_words("ja")))
    japanese = "[\u3040-\u30ff\u4e00-\u9fff。、：（）「」]"
    assert "乗員" in text and not re.findall(f"{japanese} +{japanese}", text)


def test_the_kits_minus_prints_in_the_japanese_faces_and_reads_as_a_minus():
    """Plex Sans JP has no U+2212; its figure dash draws it, and the PDF's text still says U+2212."""
    from generator.render.pdf.glyphs import undrawable_words
    assert undrawable_words(Words("ja", {"k": "CCV \u22121"})) == []
    text = pdf_text(aid_edition("ja")["player-aid-a4.pdf"])
    assert "\u22122" in text and "\u2012" not in text       # crew Morale: the AFV's -2


def test_the_japanese_catalogue_has_one_plural_form_and_babels_numbers():
    words = load_words("ja")
    assert words.count("change.off_aid", 1, where="x") == "x（変更1件）"
    assert words.count("change.off_aid", 2, where="x") == "x（変更2件）"
    assert words("release.size.mb", size=12345.6) == "12,345.6 MB"


def test_every_japanese_subset_of_the_merged_kit_has_its_own_tag():
    """The Japanese faces fill several subsets of 256 glyphs each: in the kit that joins the parts,
    one tag still names one font program (DESIGN.md's subset tags)."""
    from generator.make.pipeline import render_all
    from generator.options import BuildOptions
    kit = render_all(shipped_kit(), BuildOptions(lang="ja", papers=("a4",), rows=20,
                                              parts=("aid", "prerolled", "counters")))["kit-a4.pdf"]
    programs: dict[str, bytes] = {}
    for page in PdfReader(io.BytesIO(kit)).pages:
        for ref in (page["/Resources"].get("/Font") or {}).values():
            font = ref.get_object()
            tag = str(font["/BaseFont"])
            assert re.fullmatch(r"/[A-Z]{6}\+IBMPlexSansJP(-Bold)?", tag), tag
            data = font["/FontDescriptor"]["/FontFile2"].get_object().get_data()
            assert programs.setdefault(tag, data) == data, tag
    assert len(programs) >= 4, sorted(programs)


def test_a_japanese_sentence_citing_a_note_ends_once_after_the_note():
    """A sentence from data that goes on to cite a note ends after the note: "…持つ（注6）。",
    never "…持つ。（注6）" nor "…持つ。（…注6）。"."""
    import tomllib

    from generator.make.pipeline import render_all
    from generator.options import BuildOptions
    glossary = tomllib.loads((DATA / "glossary" / "ja.toml").read_text(encoding="utf-8"))["text"]
    rifle = glossary["interpretation.no_smg.readings.rifle"]
    assert rifle.endswith("。")
    prerolled = render_all(shipped_kit(), BuildOptions(lang="ja", papers=("a4",), rows=20, parts=("prerolled",)))
    texts = {"aid": pdf_text(aid_edition("ja")["player-aid-a4.pdf"]),
             "prerolled": pdf_text(prerolled["prerolled-a4.pdf"])}
    for name, text in texts.items():
        flat = re.sub(r"\s+", "", text)
        assert "。。" not in flat, name
        assert not re.search(r"。（[^（）。]*）。", flat), (name, re.findall(r".{20}。（[^（）。]*）。", flat))
        assert not re.search(r"。（注\d+）", flat), (name, re.findall(r".{20}。（注\d+）", flat))
    # the aid prints the sentence and its note (the pre-rolled tables' five-line legend cites none)
    assert re.search(re.escape(rifle[:-1]) + r"（[^（）。]*注6）。", re.sub(r"\s+", "", texts["aid"]))


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_no_two_subsets_of_a_part_pdf_share_a_tag(lang):
    """A tag names one subset in a PDF (ISO 32000-1, 9.6.4; DESIGN.md's subset tags), the parts
    a player prints alone as much as the kit: not AAAAAA+ for a face and again for its bold."""
    from generator.make.pipeline import render_all
    from generator.options import BuildOptions
    parts = render_all(shipped_kit(), BuildOptions(lang=lang, papers=("a4",), rows=20, parts=("counters", "prerolled")))
    for name in ("player-aid-a4.pdf", "counters-a4.pdf", "prerolled-a4.pdf"):
        content = aid_edition(lang)[name] if name.startswith("player-aid") else parts[name]
        subsets: dict[str, set[tuple[str, bytes]]] = {}
        for page in PdfReader(io.BytesIO(content)).pages:
            for ref in (page["/Resources"].get("/Font") or {}).values():
                font = ref.get_object()
                tag, _, face = str(font["/BaseFont"]).lstrip("/").partition("+")
                program = font["/FontDescriptor"]["/FontFile2"].get_object().get_data()
                subsets.setdefault(tag, set()).add((face, program))
        assert len(subsets) >= 2, (name, sorted(subsets))
        assert all(len(held) == 1 for held in subsets.values()), \
            (name, {tag: sorted(face for face, _ in held) for tag, held in subsets.items() if len(held) > 1})


def test_the_japanese_edition_sets_its_own_punctuation_around_figures():
    """The template's and the kit's punctuation comes from the catalogues: Japanese sets a
    full-width colon, brackets and list marks beside its figures (JIS X 4051), the Latin editions
    keep theirs."""
    aid = pdf_text(aid_edition("ja")["player-aid-a4.pdf"])
    assert not re.findall(r"\(\d+(?:\.\d+)?%\)|\d: |\d, \d|; ", aid), \
        re.findall(r".{8}(?:\(\d+(?:\.\d+)?%\)|\d: |\d, \d|; ).{8}", aid)
    assert "（33.3%）" in aid and "列3：2・3" in aid.replace("\n", "")
    counters = pdf_text(shipped_build(lang="ja", papers=("a4",), parts=("counters",))
                        ["counters-a4.pdf"])
    assert "、" in counters and not re.findall(r"\S, |; ", counters), re.findall(r".{8}(?:\S, |; ).{8}", counters)
    english = pdf_text(aid_edition("en")["player-aid-a4.pdf"])
    assert "(33.3%)" in english and re.search(r"3: 2, 3", english)


def test_the_counters_prose_fills_its_measure():
    """Japanese prose is set flush to its measure: each line of the counters' contents paragraph
    but its last ends within two characters of the widest (a phrase break left them 23-28 pt short)."""
    import pdfplumber

    files = shipped_build(lang="ja", parts=("counters",), papers=("a4",))
    with pdfplumber.open(io.BytesIO(files["counters-a4.pdf"])) as pdf:
        lines = pdf.pages[0].extract_text_lines()
    title = load_words("ja")("calibration.manifest.heading")
    heading = next(i for i, line in enumerate(lines) if line["text"] == title)
    paragraph = []
    for line in lines[heading + 1:]:
        paragraph.append(line)
        if line["text"].endswith("。") and line["x1"] < max(x["x1"] for x in paragraph) - 40:
            break
    size = paragraph[0]["chars"][0]["size"]
    assert len(paragraph) >= 3
    measure = max(line["x1"] for line in paragraph)
    for line in paragraph[:-1]:
        assert line["x1"] >= measure - 2 * size, (line["text"], line["x1"], measure)


def test_the_web_aid_holds_a_modifier_to_the_japanese_word_before_it():
    """"AFVの士気−2": a browser may break between a kanji and anything; the sign alone at a line's
    start reads as a dash, so an invisible word joiner (U+2060) holds them."""
    page = aid_edition("ja")["player-aid.html"].decode()
    assert "士気\u2060\u22122" in page
    assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff][\u2212+\u00b1]\d", page)


def test_no_space_between_a_particle_and_the_latin_word_after_it():
    from generator.content.words import japanese_spacing
    assert japanese_spacing("*なし*、代わりに SMLE No. 1 Mk III") == "*なし*、代わりにSMLE No. 1 Mk III"
    assert japanese_spacing("乗員に −1 TEM") == "乗員に −1 TEM"


def test_a_paragraph_wrapped_again_keeps_the_space_its_first_wrap_broke_at():
    """A flowchart box is measured at several widths before it is set: a space a narrow width
    broke the line at stays in the text a wider width sets on one line ("拳銃のみ 3/4")."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from generator.render.pdf.canvas import edition_faces, register_fonts
    from generator.render.pdf.paragraphs import KitParagraph
    faces = edition_faces("ja")
    register_fonts(faces)
    style = ParagraphStyle("t", fontName=faces.body, fontSize=9, leading=11, wordWrap="CJK")
    said = "1以外：拳銃のみ <b>3/4</b>（75.0%）"
    paragraph = KitParagraph(said, style)
    _, narrow = paragraph.wrap(stringWidth("1以外：拳銃のみ 3", faces.body, 9) - 1, 500)     # breaks at the space
    assert [frag.text for frag in paragraph.blPara.lines[0].words if frag.text] == ["1以外：拳銃のみ"]
    _, wide = paragraph.wrap(400, 500)
    assert narrow > wide
    printed = "".join(frag.text for line in paragraph.blPara.lines for frag in line.words)
    assert printed == re.sub(r"<[^>]+>", "", said)


def test_the_counters_keep_a_length_with_its_unit():
    """"中心から1.5 mm以内": Japanese sets the figure right after a word, and a unit alone at a
    line's start reads as a word of its own; the calibration pages keep "1.5 mm" on one line."""
    import pdfplumber

    files = shipped_build(lang="ja", parts=("counters",), papers=("a4",))
    with pdfplumber.open(io.BytesIO(files["counters-a4.pdf"])) as pdf:
        lines = [line["text"] for page in pdf.pages[:2] for line in page.extract_text_lines()]
    words = load_words("ja")
    scale = {words("calibration.cross.right"), words("calibration.cross.up")}    # the scale's own labels
    assert any(re.search(r"\d mm以内", line) for line in lines), lines
    for before, after in itertools.pairwise(lines):
        assert not (re.search(r"\d$", before) and after.startswith("mm") and after not in scale), (before, after)
