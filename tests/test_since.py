"""`bailout build --since OLD`: the changes box and the change bars, measured from the PDF.

The new data here makes four edits (closed-top check reads column 4, crew morale offset -1,
weapons for the unhurt only, the German SMG spans); which lines must carry a bar follows from
those edits and the rule text, not from the code under test.
"""

import json
import re
import shutil
import subprocess
import tomllib
from html.parser import HTMLParser

import pytest

from conftest import DATA, ROOT, SLOW, edit, run_cli
from generator.content import marks as aid_changes
from generator.content.stamp import edition_stamp
from generator.content.words import load_words
from generator.data import load
from generator.make.pipeline import render_all
from generator.options import PAPER_KEYS, BuildOptions
from pdfpage import pages_of, text_of, words_of

MM = 72 / 25.4
WORDS = load_words()        # the kit's English
RULES = tomllib.loads((DATA / "rules.toml").read_text())


def four_edits(folder):
    rules = folder / "rules.toml"
    edit(rules, 'label = "Non-open-topped AFV"\ncolumn = 3', 'label = "Non-open-topped AFV"\ncolumn = 4')
    edit(rules, "morale_offset = -2", "morale_offset = -1")
    edit(rules, 'reading = "survivors"', 'reading = "unhurt"')
    german = folder / "nationalities" / "german.toml"
    edit(german, "years = [1939, 1939]", "years = [1939, 1940]")
    edit(german, "years = [1940, 1945]", "years = [1941, 1945]")


@pytest.fixture(scope="module")
def new_data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("since") / "data"
    shutil.copytree(DATA, folder)
    four_edits(folder)
    return folder


@pytest.fixture(scope="module")
def since_build(new_data):
    """The aid of the four edits --since the shipped data: on A4 in README's command (the tests
    below read A4's), on both papers under BAILOUT_SLOW_TESTS=1."""
    return render_all(load(new_data), BuildOptions(parts=("aid",), papers=PAPER_KEYS if SLOW else ("a4",),
                                                   since=str(DATA)))


# -- reading the PDF ------------------------------------------------------------------------------

def bars(page):
    """Filled pure-black rectangles a few points wide and taller than they are wide: change bars."""
    return [r for r in page.rects if r["fill"] and _black(r["fill_rgb"])
            and 1.5 <= r["width"] <= 3 and r["height"] > r["width"]]


def _black(rgb):
    """Pure K as DeviceGray 0 (one plate at the print shop): pdfium paints it (0, 0, 0), a CMYK
    black (35, 31, 32).  An RGB black would paint (0, 0, 0) too: test_counters_print's RGB check
    refuses one in every PDF."""
    return rgb == (0, 0, 0)


def find_line(page, phrase):
    """The bounding box of the first run of words reading `phrase` (words in order, one line)."""
    want = phrase.split()
    words = page.words
    for i in range(len(words) - len(want) + 1):
        run = words[i:i + len(want)]
        if [w["text"] for w in run] == want and len({round(w["top"]) for w in run}) == 1:
            return {"x0": run[0]["x0"], "x1": run[-1]["x1"], "top": run[0]["top"], "bottom": run[0]["bottom"]}
    raise AssertionError(f"{phrase!r} not found on the page")


def overlap(bar, line):
    return min(bar["bottom"], line["bottom"]) - max(bar["top"], line["top"])


def text_area(page):
    words = page.words
    return min(w["x0"] for w in words), max(w["x1"] for w in words)


def margin_bar_beside(page, line):
    """The bar in the page margin on the line's side that overlaps it vertically, or None."""
    left, right = text_area(page)
    side_left = line["x0"] < page.width / 2
    for bar in bars(page):
        outside = bar["x1"] < left if side_left else bar["x0"] > right
        if outside and overlap(bar, line) > 1:
            return bar
    return None


def box_bar_beside(page, line):
    """A bar just left of the line's text (inside a flowchart box), overlapping it vertically."""
    for bar in bars(page):
        if bar["x1"] <= line["x0"] - 0.5 and bar["x0"] >= line["x0"] - 20 and overlap(bar, line) > 1:
            return bar
    return None


# Lines each edit changes on the aid, and lines it must leave alone (page index, words).
# (page index, phrase); None: either page
MARGIN_MARKED = [(0, "kill card 4:"),                       # odds row, closed top: 1/3 -> 1/4
                 (0, "The crew's average Morale is"),        # "the AFV's Morale -1"
                 (1, "German"),                              # weapons row: the SMG spans
                 (None, "WP wounded pistol only"),           # one man wounded, pistol only: 1/4 -> 1/3
                 (1, "Only unhurt men draw")]                # note 4's sentence
MARGIN_UNMARKED = [(0, "kill card 2:"), (0, "A man is unhurt"), (1, "British"), (None, "UP unhurt pistol only"),
                   (1, "The crew is 5 men")]
BOX_MARKED = [(0, "Non-open-topped AFV:"), (0, "Average Morale: the")]
BOX_UNMARKED = [(0, "Open-topped AFV:"), (0, "1: unhurt")]


def _page_with(pages, index, phrase):
    """pages[index], or (index None: one man's odds close page 1 where it has room, else stand on
    page 2) the page whose text holds `phrase`."""
    if index is not None:
        return pages[index]
    return next(p for p in pages if phrase in " ".join(p.text.split()))


# Letter's lines fall elsewhere on the page, the bars beside them drawn by the same code: README's
# command reads A4's (the a4 case), BAILOUT_SLOW_TESTS=1 both.
@pytest.mark.parametrize("paper", ["a4", pytest.param("letter", marks=pytest.mark.larger_budget)])
def test_each_changed_line_has_a_bar_in_the_margin_beside_it(since_build, paper):
    pages = pages_of(since_build[f"player-aid-{paper}.pdf"])
    assert len(pages) == 2
    for index, phrase in MARGIN_MARKED:
        page = _page_with(pages, index, phrase)
        line = find_line(page, phrase)
        bar = margin_bar_beside(page, line)
        assert bar is not None, f"no bar beside {phrase!r} on page {index + 1}"
        assert bar["x0"] >= 5 * MM and page.width - bar["x1"] >= 5 * MM, "a bar within 5 mm of the edge"
    for index, phrase in MARGIN_UNMARKED:
        page = _page_with(pages, index, phrase)
        assert margin_bar_beside(page, find_line(page, phrase)) is None, phrase
    for index, phrase in BOX_MARKED:
        assert box_bar_beside(pages[index], find_line(pages[index], phrase)) is not None, phrase
    for index, phrase in BOX_UNMARKED:
        assert box_bar_beside(pages[index], find_line(pages[index], phrase)) is None, phrase
    # The crew morale table: every AFV Morale row changed (average = Morale - 1 now), so
    # the bars beside it run the table's whole height under its header.
    page = pages[0]
    head = find_line(page, "AFV Morale Crew average")
    below = [b for b in bars(page) if b["x1"] < text_area(page)[0] and b["top"] >= head["bottom"] - 1
             and b["top"] < head["bottom"] + 120]
    assert len(below) >= len(load(DATA).rules.crew.aid_afv_morale)


def test_the_changes_box_names_each_changed_rule(since_build, new_data):
    pages = pages_of(since_build["player-aid-a4.pdf"])
    _first, second = pages
    texts = [" ".join(p.text.split()) for p in pages]
    right_half = [ch for ch in second.chars if ch["x0"] + ch["x1"] > second.width]     # centred right of the middle
    right = " ".join(text_of(words_of(right_half)).split())
    notice_bars = [b for p in pages for b in bars(p) if b["top"] < 28]
    old = load(DATA)
    assert not any(aid_changes.CHANGED in t for t in texts)
    # Each page says, above its text, what the bars mean and where the list is ...
    assert all(t.startswith(WORDS("aid.since.notice", label=f"data {old.short_hash}")) for t in texts)
    assert len(notice_bars) == 2        # ... with a bar as its key
    # ... and the list closes page 2.
    assert f"Changes since data {old.short_hash}" in right
    # The closed-top check now reads column 4: 1 in 4, where column 3 read 1 in 3.
    label = WORDS("item.bail_out.chance", label=RULES["bail_out"]["closed"]["label"])
    line = WORDS("change.box.changed", label=label, new=WORDS("item.show.chance", fraction="1/4", percent="25.0%"),
                 old=WORDS("item.show.chance", fraction="1/3", percent="33.3%"))
    assert line in right


@pytest.fixture(scope="module")
def since_changes(new_data):
    """(kit, options, changes): the four edits' kit, its aid's options --since the shipped data, and
    the changes since_base finds (the two tests below read them)."""
    from generator.data.sources import shipped
    from generator.make.pipeline import since_base
    kit, options = load(new_data), BuildOptions(parts=("aid",), since=str(DATA))
    return kit, options, since_base(kit, options, shipped("templates"))


def test_box_lists_exactly_the_changed_rules(since_changes):
    from generator.content.aid import markdown_text
    from generator.content.context import make_context
    from generator.data.sources import shipped
    from generator.engine.odds import compute
    kit, options, changes = since_changes
    text = markdown_text(make_context(kit, compute(kit), options, shipped("templates"), changes=changes))
    box = text.split('<div class="changes"', 1)[1].split("</div>", 1)[0]
    rules = [line.split("**")[1].replace("\\", "").replace("\u00a0", " ") for line in box.splitlines()
             if line.startswith("**")]
    import tomllib
    r = tomllib.loads((DATA / "rules.toml").read_text())
    # closed check, crew morale, one man's outcome (fate and weapon), weapons, note 4
    assert rules == [r["bail_out"]["closed"]["rule"], r["crew"]["morale_rule"],
                     f'{r["fate"]["rule"]}, {r["weapon"]["rule"]}', r["weapon"]["rule"],
                     WORDS("item.note.rule", note=r["interpretation"]["weapons_for"]["note"])]


class _Keys(dict):
    """A catalogue that knows every key and words each as the key itself, in brackets."""

    def __missing__(self, key):
        return f"[{key}]"

    def __contains__(self, key):
        return True


def test_the_box_is_in_the_catalogues_words(since_changes):
    from generator.content.words import Words
    box = aid_changes.box_vars(since_changes[2], Words("keys", _Keys(), _Keys()))
    lines = [line for _, group in box["groups"] for line in group]
    assert lines and all(re.fullmatch(r"\[change\.box\.[a-z]+\]", line) for line in lines), lines
    # the German SMG spans moved its counters: one line for what changed off the sheet
    # (a message with plural forms prints its key, as gettext does for a msgid it lacks)
    assert re.fullmatch(r"change\.off_aid(; change\.off_aid)*", box["off_aid"])


def test_manifest_records_the_base(since_build):
    manifest = since_build["MANIFEST.txt"].decode()
    assert f"since {DATA}: data {load(DATA).hash}" in manifest


@pytest.fixture(scope="module")
def unchanged():
    """(plain, since): the aid and the tables (A4) of the shipped data, without --since and since itself."""
    plain = render_all(load(DATA), BuildOptions(parts=("aid", "prerolled"), papers=("a4",)))
    return plain, render_all(load(DATA), BuildOptions(parts=("aid", "prerolled"), papers=("a4",), since=str(DATA)))


def test_nothing_changed_gives_the_same_bytes_as_no_since(unchanged):
    plain, since = unchanged
    assert {k: v for k, v in plain.items() if k != "MANIFEST.txt"} == \
           {k: v for k, v in since.items() if k != "MANIFEST.txt"}
    assert "since" not in plain["MANIFEST.txt"].decode()
    assert "0 printed changes" in since["MANIFEST.txt"].decode()


def test_since_leaves_the_other_parts_alone(new_data):
    plain = render_all(load(new_data), BuildOptions(parts=("prerolled",), papers=("a4",)))
    since = render_all(load(new_data), BuildOptions(parts=("prerolled",), papers=("a4",), since=str(DATA)))
    assert plain["prerolled.csv"] == since["prerolled.csv"]
    # The tables print no edition stamp (MANIFEST.txt and the colophons do): the same bytes.
    assert plain["prerolled-a4.pdf"] == since["prerolled-a4.pdf"]
    assert plain["MANIFEST.txt"] != since["MANIFEST.txt"]


def test_changed_lines_marks_replaced_inserted_and_the_place_of_deleted_rows():
    old = ["| A | 1 |", "| B | 2 |", "| C | 3 |", "", "- x", "- y"]
    new = ["| A | 1 |", "| B | 5 |", "", "- x", "- y", "- z"]
    marked = aid_changes.changed_lines(old, new)
    assert marked == {1, 5}         # B changed (C gone beside it), z new; blank lines never
    assert aid_changes.mark("| B | 5 |") == f"| {aid_changes.CHANGED}B | 5 |"
    assert aid_changes.mark("    - z") == f"    - {aid_changes.CHANGED}z"
    assert aid_changes.changed_lines(["| A |", "| B |", "| C |"], ["| A |", "| C |"]) == {1}


def test_since_errors_are_one_line(tmp_path, data_copy):
    status, _, err = run_cli("build", "--only", "aid", "--paper", "a4", "--out", tmp_path / "o",
                             "--since", tmp_path / "nowhere", "--quiet")
    assert status == 2 and len(err.strip().splitlines()) == 1 and "nowhere" in err
    edit(data_copy / "rules.toml", "size = 5\n", "size = 0\n")
    status, _, err = run_cli("build", "--only", "aid", "--paper", "a4", "--out", tmp_path / "o",
                             "--since", data_copy, "--quiet")
    assert status == 2 and err.startswith("bailout: OLD") and "crew.size" in err
    assert not (tmp_path / "o").exists()


def test_since_a_git_revision(tmp_path, monkeypatch):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    from generator.content.aid import markdown_text
    from generator.content.context import make_context
    from generator.data.sources import shipped
    from generator.engine.odds import compute
    from generator.make.manifest import manifest
    from generator.make.pipeline import since_base
    repo = tmp_path / "repo"
    shutil.copytree(DATA, repo / "data")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org"]
    for args in (["init", "-q"], ["add", "data"], ["commit", "-q", "-m", "as shipped"]):
        subprocess.run(git + args, cwd=repo, check=True, capture_output=True)
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True).stdout.strip()
    four_edits(repo / "data")
    monkeypatch.chdir(repo)
    kit, options = load(repo / "data"), BuildOptions(parts=("aid",), papers=("a4",), since="git:HEAD")
    since = since_base(kit, options, shipped("templates"))
    text = markdown_text(make_context(kit, compute(kit), options, shipped("templates"), changes=since))
    assert f"### Changes since git:HEAD ({commit[:7]})" in text.replace("\\", "")
    assert f"since git:HEAD: commit {commit}" in manifest(kit, {}, options, (), since=since).decode()


def test_web_aid_marks_the_same_changes(since_build):
    """player-aid.html: each changed line's element carries class "changed"; no mark is printed."""
    html = since_build["player-aid.html"]
    text = html.decode()
    assert aid_changes.CHANGED not in text
    changed = _changed_texts(text)
    assert any("column 4 reads 1:" in line for line in changed)       # the closed-top check
    said = WORDS("aid.html.changed")      # what a screen reader hears first
    assert any(line.startswith(f"{said} German") for line in changed)   # the weapons row
    assert any(line.startswith(f"{said} WP") for line in changed)       # one man, wounded, pistol only
    assert any("Only unhurt men draw" in line for line in changed)       # note 4
    assert not any("column 2 reads 1:" in line or line.startswith(f"{said} British") for line in changed)
    assert 'href="#changes"' in text and 'id="changes"' in text


def test_web_aid_without_changes_is_unchanged(unchanged):
    plain, since = unchanged
    assert plain["player-aid.html"] == since["player-aid.html"]


def _changed_texts(html):
    """The text of every element with class "changed" in an HTML page."""
    parser = _ChangedCollector()
    parser.feed(html)
    return parser.done


class _ChangedCollector(HTMLParser):
    """Collects the text of each element with class "changed", nested ones too."""
    VOID = frozenset({"br", "img", "meta", "link", "hr", "input"})

    def __init__(self):
        super().__init__()
        self.stack, self.done = [], []      # open elements: [tag, collecting, text parts]

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append([tag, "changed" in (dict(attrs).get("class") or "").split(), []])

    def handle_endtag(self, tag):
        while self.stack:
            open_tag, collecting, parts = self.stack.pop()
            if collecting:
                self.done.append(" ".join("".join(parts).split()))
            if open_tag == tag:
                break

    def handle_data(self, data):
        for _, collecting, parts in self.stack:
            if collecting:
                parts.append(data)


# A base named by a git revision: README's command builds the German aid since the data folder,
# and test_since_a_git_revision the English since git:HEAD; BAILOUT_SLOW_TESTS=1 both for German.
@pytest.mark.parametrize("since", ["data", pytest.param("git:HEAD", marks=pytest.mark.larger_budget)])
def test_a_translated_build_since_a_base_works(tmp_path, since: str, monkeypatch) -> None:
    monkeypatch.chdir(ROOT)     # "data" and git:HEAD name the checkout's
    status, _, err = run_cli("build", "--lang", "de", "--since", since, "--out", tmp_path, "--only", "aid",
                             "--paper", "a4", "--quiet")
    assert status == 0, err
    assert "Traceback" not in err


# -- one comparison: what `bailout diff` lists is what the aid marks, template edits included -----

TEMPLATES = ROOT / "templates"
SENTENCE = ("Every man who gets out has a pistol.", "Every man who bails out has a pistol.")


@pytest.fixture(scope="module")
def projects(tmp_path_factory):
    """(old, reworded, both): project folders as `bailout init` makes them: the kit as shipped;
    one sentence of its template reworded; that and the four data edits."""
    root = tmp_path_factory.mktemp("projects")
    old, reworded, both = (root / name for name in ("old", "reworded", "both"))
    shutil.copytree(DATA, old / "data")
    shutil.copytree(TEMPLATES, old / "templates")
    shutil.copytree(old, reworded)
    edit(reworded / "templates" / "aid.md.j2", *SENTENCE)
    shutil.copytree(reworded, both)
    four_edits(both / "data")
    return old, reworded, both


def built_since(old, project, papers=("a4",)):
    """The aid (on `papers`, and web) of `project` built --since `old`'s data folder; with no
    paper, the web aid and MANIFEST.txt alone."""
    return render_all(load(project / "data"), BuildOptions(parts=("aid",), papers=papers, since=str(old / "data")),
                      templates=project / "templates")


def listed(old, project):
    """`bailout diff OLD NEW`: its changes, in order."""
    status, out, err = run_cli("diff", old, project, "--json")
    assert status == 1, err
    return json.loads(out)


def box_count(html):
    """The count the changes box gives ("... N changes in all")."""
    return int(re.search(r"(\d+)\s+changes? in all", html)[1])


def test_a_template_only_edit_marks_the_aid_and_counts_as_diff_does(projects):
    old, reworded, _ = projects
    changes = listed(old, reworded)
    assert [(c["old"], c["new"]) for c in changes] == [SENTENCE]      # the one edit, and nothing else
    built = built_since(old, reworded)
    html = built["player-aid.html"].decode()
    assert box_count(html) == len(changes) == 1
    # a no-break space may hold the label to its hash, which can start with a digit
    assert len(re.findall(rf"Changes since data\s{load(old / 'data').short_hash}", html)) == 1
    section = WORDS("item.template.section", section="The procedure")   # the sentence's aid section
    # the box shows the group and says the sentence was reworded (both wordings are too long for it)
    box = html.split('id="changes"', 1)[1]
    assert section in box and WORDS("change.box.reworded", label=WORDS("item.template.sentence")) in box
    assert [line for line in _changed_texts(html) if SENTENCE[1] in line] and \
        all(SENTENCE[1] in line for line in _changed_texts(html))      # that line is marked, no other
    assert "1 printed change marked on the player aid" in built["MANIFEST.txt"].decode()
    page = pages_of(built["player-aid-a4.pdf"])[0]
    assert box_bar_beside(page, find_line(page, SENTENCE[1])) is not None
    # marked, the edition is another: its stamp differs from the same build's without --since
    # (the stamp a build prints in MANIFEST.txt: test_editor_loop.py)
    plain = edition_stamp(load(reworded / "data"), BuildOptions(parts=("aid",), papers=("a4",)),
                          reworded / "templates")
    assert re.search(r"^edition (\w+)$", built["MANIFEST.txt"].decode(), re.M)[1] != plain.hash


def test_a_data_and_template_edit_lists_both(projects, new_data):
    old, _, both = projects
    changes = listed(old, both)
    data_only = listed(old / "data", new_data)      # the four edits over the shipped templates
    assert len(changes) == len(data_only) + 1
    assert [c for c in changes if c["key"].startswith("template.")] == list(listed(old, projects[1]))
    built = built_since(old, both, papers=())       # the web aid's marks (the PDF's: the tests above)
    html = built["player-aid.html"].decode()
    assert box_count(html) == len(changes)
    assert f"{len(changes)} printed changes marked on the player aid" in built["MANIFEST.txt"].decode()
    box = html.split('id="changes"', 1)[1]
    assert WORDS("item.template.section", section="The procedure") in box
    assert RULES["bail_out"]["closed"]["rule"] in box and RULES["crew"]["morale_rule"] in box
    changed = _changed_texts(html)
    for words in (SENTENCE[1], "column 4 reads 1:", "German"):      # the template's line and the data's
        assert any(words in line for line in changed), words


def test_serve_lists_what_diff_lists(projects):
    from generator.content.items import show
    from generator.make.pipeline import context
    from generator.make.serve import Preview, Sources, change_lines
    old, _, both = projects
    first = context(load(old / "data"), BuildOptions(), old / "templates")
    now = context(load(both / "data"), BuildOptions(), both / "templates")
    preview = Preview(Sources((), lambda: now))
    preview.first, preview.first_templates, preview.ctx = first, old / "templates", now
    changes = listed(old, both)
    # the preview prints its labels as the English pages do, with the typographic apostrophe;
    # the JSON keeps the catalogue's straight one
    assert change_lines(preview) == [f"{c['rule']}: {c['label'].replace(chr(39), chr(0x2019))}: "
                                     f"{show(c['kind'], _value(c, 'old'))} → "
                                     f"{show(c['kind'], _value(c, 'new'))}" for c in changes]


def _value(change, side):
    """A diff --json value back as the kit holds it (fractions come as "1/3")."""
    from fractions import Fraction
    value = change[side]
    return Fraction(value) if change["kind"] in ("chance", "mean") and value is not None else value


def test_since_a_git_revision_compares_its_templates(tmp_path, monkeypatch):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    shutil.copytree(DATA, repo / "data")
    shutil.copytree(TEMPLATES, repo / "templates")
    template = repo / "templates" / "aid.md.j2"
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org"]

    def commit(message):
        for args in (["add", "data", "templates"], ["commit", "-q", "-m", message]):
            subprocess.run(git + args, cwd=repo, check=True, capture_output=True)
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True, capture_output=True)
    commit("as shipped")
    edit(template, *SENTENCE)
    monkeypatch.chdir(repo)
    args = ("build", "--data", repo / "data", "--only", "aid", "--paper", "a4", "--since", "git:HEAD", "--quiet")
    status, _, err = run_cli(*args, "--out", tmp_path / "o")
    assert status == 0, err
    # the changed line's class (a flowchart card keeps its own beside it: "span-2 changed")
    assert re.search(r'class="[^"]*\bchanged\b', (tmp_path / "o" / "player-aid.html").read_text())
    assert "1 printed change marked" in (tmp_path / "o" / "MANIFEST.txt").read_text()
    # A base whose templates do not render with this kit: one line naming them as committed.
    edit(template, "number=r.number, title=r.title", "number=r.no_such_field, title=r.title")
    commit("broken")
    edit(template, "number=r.no_such_field, title=r.title", "number=r.number, title=r.title")
    status, _, err = run_cli(*args, "--out", tmp_path / "o2")
    assert status == 2 and not (tmp_path / "o2").exists()
    assert err.startswith("bailout: --since git:HEAD: the base's aid: git:HEAD:templates/aid.md.j2:"), err
    assert "bailout-rev-" not in err and "Traceback" not in err
