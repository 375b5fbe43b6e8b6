"""The release's own pages: README.txt for players and index.html, a page that shows and links
every file in the zip (thumbnails, sizes, SHA-256).  No script, nothing fetched; every piece of
text is escaped, names included."""

import hashlib
import html

from generator import __version__

PAPER_LABEL = {"a4": "A4", "letter": "US Letter"}
PARTS = (   # file stem, what it is, how to print it
    ("kit", "The whole kit in one bookmarked PDF: player aid, pre-rolled tables, counters.",
     "Actual size; duplex, flip on long edge."),
    ("player-aid", "The player aid: the 871 procedure as a flowchart, every chance as an exact figure, "
     "crew morale, weapons by nationality and year, close combat, the interpretation notes.",
     "Actual size; one sheet, duplex, flip on long edge."),
    ("prerolled", "Pre-rolled bail-out tables: tick the next unused row instead of drawing cards.",
     "Actual size; single- or double-sided."),
    ("counters", "Double-sided crew, weapon and bailed-out AFV counters, true to size, with a duplex calibration page.",
     "Actual size (never fit to page); duplex, flip on long edge; print the calibration page first."),
)
OTHERS = (
    ("player-aid.html", "The player aid as a web page, to read on a phone at the table or post to a forum."),
    ("prerolled.csv", "The pre-rolled rows as CSV, for digital play."),
    ("README.txt", "What each file is and how to print it."),
    ("MANIFEST.txt", "Every file with its SHA-256 and page count (this page's too), the data hash and the kit version."),
)


def _credits(kit):
    r = kit.rules
    return (f"Rule {r.number} \"{r.title}\" is a variant by {r.credit} for {r.game}, published by "
            "The Avalon Hill Game Company. This kit is a fan-made play aid; it ships no card data "
            "from the game (add your own personality cards and AFVs to the data files if you wish).")


def readme_text(kit, options, files):
    r = kit.rules
    lines = [f"{r.number} {r.title}: print kit {__version__} (data {kit.hash[:8]})", "",
             "Open index.html for a page that shows and links every file.", "",
             "WHAT EACH FILE IS", ""]
    for stem, what, how in PARTS:
        names = ", ".join(f"{stem}-{p}.pdf" for p in options.papers)
        lines += [f"{names}", f"    {what}", f"    Print: {how}", ""]
    for name, what in OTHERS:
        lines += [name, f"    {what}", ""]
    faces = sorted(n for n in files if n.startswith("faces/"))
    if faces:
        lines += ["faces/", "    One PNG per counter face for digital play (VASSAL, Tabletop Simulator): "
                  f"{len(faces)} images at cut size, 300 dpi, named nationality-kind-face "
                  "(for example faces/german-crew-front.png).", ""]
    lines += ["thumbs/", "    Small pictures of each PDF's first page, for index.html.", "",
              "HOW TO PRINT", "",
              "- Print at Actual size / 100%, never \"Fit to page\". Each counter sheet carries a 100 mm",
              "  and a 4 in bar: measure one; if it is short, the printer scaled the page.",
              "- Counters and the player aid are duplex: flip on the LONG edge.",
              "- Print the counters' calibration page first: hold it to a light, read how far the back's",
              "  cross sits from the front's, and rebuild with --back-offset X,Y (mm) if it is off.",
              "- A4 and US Letter files hold the same content; counters are the same size on both.", "",
              "CREDITS", ""]
    lines += _wrap(_credits(kit), 92)
    lines += ["", f"Built by bailout-kit {__version__}; the same data and options give the same files."]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _wrap(text, width):
    out, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return out + [line] if line else out


def _size(n):
    return f"{n / 1024:,.0f} KB" if n < 1024 * 1024 else f"{n / 1024 / 1024:,.1f} MB"


def _e(text):
    return html.escape(str(text), quote=True)


def _pages(content):
    import io
    from pypdf import PdfReader
    return len(PdfReader(io.BytesIO(content)).pages)


def _face_alt(name):
    # 'faces/german-rifle-1939-45-front.png' -> 'german rifle 1939-45, front'
    stem = name[len("faces/"):-len(".png")]
    body, face = stem.rsplit("-", 1)
    return f"{body.replace('-', ' ', 2)}, {face}"


def index_html(kit, options, files):
    r = kit.rules
    title = f"{r.number} {r.title}: print kit {__version__}"
    rows = []
    for stem, what, how in PARTS:
        for paper in options.papers:
            name = f"{stem}-{paper}.pdf"
            content = files[name]
            thumb = f"thumbs/{stem}-{paper}.png"
            rows.append(
                f'<li class="pdf"><a class="thumb" href="{_e(name)}"><img src="{_e(thumb)}" width="120" '
                f'alt="First page of {_e(name)}"></a>'
                f'<div><h3><a href="{_e(name)}">{_e(name)}</a></h3>'
                f"<p>{_e(what)} {PAPER_LABEL[paper]}.</p><p><strong>Print:</strong> {_e(how)}</p>"
                f"{_facts(content, _pages(content))}</div></li>")
    others = []
    for name, what in OTHERS:
        # MANIFEST.txt is made last (it holds this page's hash), so it has no figures here.
        facts = _facts(files[name]) if name in files else ""
        others.append(f'<li><h3><a href="{_e(name)}">{_e(name)}</a></h3><p>{_e(what)}</p>{facts}</li>')
    # Each counter's front, then its back: 'faces/german-crew-front.png' sorts by 'german-crew', 0.
    faces = sorted((n for n in files if n.startswith("faces/")),
                   key=lambda n: (n.rsplit("-", 1)[0], n.endswith("-back.png")))
    face_items = "\n".join(
        f'<li><a href="{_e(n)}"><img src="{_e(n)}" width="75" height="75" alt="{_e(_face_alt(n))}"></a></li>'
        for n in faces)
    thumbs = sorted(n for n in files if n.startswith("thumbs/"))
    thumb_items = "\n".join(f'<li><a href="{_e(n)}">{_e(n)}</a></li>' for n in thumbs)
    page = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title>
<style>
:root {{ --accent: #3b4722; --ink: #1a1a1a; --line: #6b6b6b; }}
*, *::before, *::after {{ box-sizing: border-box; }}
body {{ margin: 0; color: var(--ink); background: #fff; line-height: 1.5;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial, sans-serif; }}
main {{ max-width: 62rem; margin: 0 auto; padding: 0 1rem 2rem; }}
h1, h2, h3 {{ color: var(--accent); line-height: 1.2; }}
h1 {{ font-size: 1.6rem; margin: 1.25rem 0 0.25rem; }}
h2 {{ font-size: 1.25rem; margin: 2rem 0 0.75rem; border-bottom: 2px solid var(--accent); padding-bottom: 0.2rem; }}
h3 {{ font-size: 1rem; margin: 0 0 0.25rem; }}
p {{ margin: 0 0 0.4rem; max-width: 40rem; }}
a {{ color: #1d4d8f; }}
ul.files {{ list-style: none; padding: 0; margin: 0; display: grid; gap: 1rem;
  grid-template-columns: repeat(auto-fill, minmax(20rem, 1fr)); }}
ul.files > li {{ border: 1px solid var(--line); border-radius: 6px; padding: 0.75rem; min-width: 0; }}
li.pdf {{ display: flex; gap: 0.75rem; align-items: flex-start; }}
li.pdf > div {{ min-width: 0; }}
.thumb img {{ display: block; border: 1px solid var(--line); height: auto; }}
dl {{ margin: 0.4rem 0 0; font-size: 0.875rem; display: grid; grid-template-columns: auto 1fr; gap: 0 0.5rem; }}
dt {{ font-weight: 600; }}
dd {{ margin: 0; min-width: 0; }}
code {{ font-size: 0.8rem; overflow-wrap: anywhere; word-break: break-all; }}
ul.faces {{ list-style: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: 0.5rem; }}
ul.faces img {{ display: block; border: 1px solid var(--line); }}
ul.plain {{ padding-left: 1.25rem; }}
@media (max-width: 30em) {{ li.pdf {{ flex-direction: column; }} ul.files {{ grid-template-columns: 1fr; }} }}
</style>
</head>
<body>
<main>
<h1>{_e(title)}</h1>
<p>Print-ready files for <em>{_e(r.game)}</em> variant {_e(r.number)}, {_e(r.title)}, by {_e(r.credit)}.
Data {_e(kit.hash[:8])}. Print every PDF at <strong>Actual size / 100%</strong>, never fit to page.</p>
<h2>PDFs to print</h2>
<ul class="files">
{chr(10).join(rows)}
</ul>
<h2>To read and for digital play</h2>
<ul class="files">
{chr(10).join(others)}
</ul>
<h2>Counter faces</h2>
<p>{len(faces)} images, one per distinct counter face, front and back, at cut size and 300 dpi
(for VASSAL or Tabletop Simulator). Select one to open it.</p>
<ul class="faces">
{face_items}
</ul>
<h2>Thumbnails</h2>
<ul class="plain">
{thumb_items}
</ul>
<h2>Credits</h2>
<p>{_e(_credits(kit))}</p>
</main>
</body>
</html>
"""
    return page.encode("utf-8")


def _facts(content, pages=None):
    digest = hashlib.sha256(content).hexdigest()
    rows = [("Size", _size(len(content)))]
    if pages is not None:
        rows.append(("Pages", str(pages)))
    items = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows)
    return f"<dl>{items}<dt>SHA-256</dt><dd><code>{digest}</code></dd></dl>"
