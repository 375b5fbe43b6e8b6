"""The release's own pages: README.txt for players and index.html, a page that shows and links
every file in the zip (thumbnails, sizes, SHA-256).  No script, nothing fetched.  `bailout
serve`'s index page is made here too, in the same style (release.css.j2), its one script given.

Each is a Jinja2 template beside this module (README.txt.j2, index.html.j2, preview.html.j2,
read as package files); their words are the catalogue's ("release.*", "serve.*").  The pages
are autoescaped: every piece of text is escaped, names included; the README is plain text.
Which files they describe comes in as Listed entries (make/release.py makes them from the Output
registry); how to print them, from the options' print profile.
"""

import hashlib
import html
import io
from collections.abc import Mapping, Sequence
from functools import lru_cache, partial
from importlib import resources
from typing import Any

import jinja2
from markupsafe import Markup
from msgspec import Struct

from generator import __version__
from generator.content.faces import FILE_KINDS
from generator.content.words import SOURCE_LANGUAGE, Words, english_names
from generator.data.model import KitData
from generator.layout import pictograms
from generator.layout.paper import PAPERS
from generator.options import BuildOptions
from generator.profiles import registry
from generator.profiles.print_profile import PrintProfile
from generator.render import theme
from generator.render.html.safe_html import policy_meta
from generator.render.pdf.plain_pypdf import PdfReader
from generator.text import fill_pieces

README, INDEX, EDITIONS, PREVIEW = "README.txt.j2", "index.html.j2", "editions.html.j2", "preview.html.j2"
WIDTH, TIP_WIDTH = 92, 90       # the README's credits, and its printing tips (a hanging indent)


class Listed(Struct, frozen=True):
    """A file the release's pages describe: release.file.KIND says what it is and, for a PDF,
    release.print.KIND (or its print profile's words) how to print it."""
    kind: str
    names: tuple[tuple[str, str | None], ...]   # (file name, its paper's key) for each paper; no paper: one file


def readme_text(kit: KitData, options: BuildOptions, files: Mapping[str, bytes], words: Words,
                edition: str | None = None, *, pdfs: Sequence[Listed], others: Sequence[Listed]) -> bytes:
    """README.txt: what each file is and how to print it, the printing tips, the credits.
    `pdfs` and `others`: the files it describes, in order."""
    r = kit.rules
    profile = options.profile
    pdf_items = [{"names": ", ".join(name for name, _ in pdf.names), **part_words(words, pdf.kind, r.number, profile)}
                 for pdf in pdfs]
    actual_size = words("release.actual_size")
    papers = {key: paper.label for key, paper in PAPERS.items()}
    tips = [words(tip, actual_size=actual_size, **papers) for tip in profile.release.tips]
    folders = sorted({n.split("/")[0] for n in files if "/" in n})     # a release of several profiles
    for folder in folders:
        tip = _folder_tip(folder)
        if tip is not None:
            tips.append(words(tip, folder=folder))
    # How to rebuild with a back offset, only where some counters of the release open with the
    # calibration page it is read off: a print shop's and a fold sheet's have none.
    calibration = profile.calibration or any(p is not None and p.calibration for p in map(registry.find, folders))
    text = _render(README, words, r=r, version=__version__, data=edition or kit.short_hash, pdfs=pdf_items,
                   others=_others(words, files, others, facts=False), faces=len(_faces(files)), tips=tips,
                   online=_online(words, options, others), credits=_credits(kit, words), width=WIDTH,
                   tip_width=TIP_WIDTH, calibration=calibration)
    return text.encode("utf-8")


def _folder_tip(folder: str) -> str | None:
    """The catalogue key of the tip that a release's `folder` holds a print profile's PDFs, if it does."""
    profile = registry.find(folder)
    return profile.release.folder_tip if profile is not None else None


def index_html(kit: KitData, options: BuildOptions, files: Mapping[str, bytes], words: Words,
               edition: str | None = None, *, pdfs: Sequence[Listed], others: Sequence[Listed],
               editions: Sequence[str] = (), printed: KitData | None = None) -> bytes:
    """index.html: every file shown and linked, each PDF with its first page, size, pages and hash.
    `pdfs` and `others`: the files it describes, in order; `editions`: the languages of a release
    of several, each linked from this one's language switcher; `printed`: the data as the edition
    prints it (its glossary's nationality names), for the face images' alternative text."""
    r = kit.rules
    pdf_items = []
    for pdf in pdfs:
        for name, paper in pdf.names:
            content = files[name]
            pdf_items.append({"name": name, "thumb": f"thumbs/{name[:-len('.pdf')]}.png",
                              "paper": PAPERS[paper].label if paper is not None else "",
                              "facts": _facts(words, content, _pages(content)),
                              **part_words(words, pdf.kind, r.number, options.profile)})
    faces = [{"name": n, "alt": _face_alt(n, printed or kit, words)} for n in _faces(files)]
    page = _render(INDEX, words, html_words=partial(_html_words, words), r=r, data=edition or kit.short_hash,
                   title=words("release.title", number=r.number, title=r.title, version=__version__),
                   pdfs=pdf_items, others=_others(words, files, others, facts=True), faces=faces,
                   online=_online(words, options, others),
                   thumbs=sorted(n for n in files if n.startswith("thumbs/")), credits=_credits(kit, words),
                   colours=_colours(words.lang), editions=_switcher(editions, words.lang, "../{lang}/index.html"),
                   policy=Markup(policy_meta()))
    return page.encode("utf-8")


def _colours(lang: str = SOURCE_LANGUAGE) -> dict[str, str]:
    """The release pages' colours and faces, the theme's (the faces of the page's language)."""
    return {"accent": theme.COLOUR.accent, "ink": theme.WEB_INK, "line": theme.COLOUR.rule,
            "paper": theme.short_hex(theme.WHITE), "link": theme.LINK, "font": theme.edition_faces(lang).web}


def _switcher(langs: Sequence[str], current: str | None, href: str) -> list[dict[str, object]]:
    """A language switcher's entries: each language named in itself, linked by `href`
    ('{lang}' its code), the current one marked."""
    from babel import Locale
    entries: list[dict[str, object]] = []
    for lang in langs:
        name = Locale.parse(lang).get_display_name(lang) or lang
        entries.append({"lang": lang, "tag": lang.replace("_", "-"), "name": name[:1].upper() + name[1:],
                        "href": href.format(lang=lang),
                        "current": lang == current})
    return entries


def part_words(words: Words, kind: str, number: str, profile: PrintProfile) -> dict[str, str]:
    """What a PDF is and how to print it, in the print profile's words where it has its own."""
    how = profile.release.how_to_print.get(kind, f"release.print.{kind}")
    what = profile.release.files.get(kind, f"release.file.{kind}")
    return {"what": words(what, number=number), "how": words(how)}


def _others(words: Words, files: Mapping[str, bytes], others: Sequence[Listed], facts: bool) -> list[dict[str, Any]]:
    # MANIFEST.txt is made last (it holds the index page's hash), so it has no figures.
    return [{"name": name, "what": words(f"release.file.{other.kind}"),
             "facts": _facts(words, files[name]) if facts and name in files else None}
            for other in others for name, _ in other.names]


def _online(words: Words, options: BuildOptions, others: Sequence[Listed]) -> list[str]:
    """How to play with the digital tables' files the release holds: a paragraph each for
    VASSAL and Tabletop Simulator (where the saved object loads its images from, said)."""
    from generator.render.tts import image_base
    named = {other.kind: other.names[0][0] for other in others}
    steps = []
    if "vassal_extension" in named and "vassal_module" in named:
        steps.append(words("release.readme.online.vassal", extension=named["vassal_extension"],
                           module=named["vassal_module"]))
    if "tts" in named:
        steps.append(words("release.readme.online.tts", file=named["tts"], base=image_base(options)))
    return steps


def _faces(files: Mapping[str, bytes]) -> list[str]:
    """The face images: each counter's front, then its back ('faces/german-crew-front.png' sorts
    by 'german-crew', then front before back)."""
    return sorted((n for n in files if n.startswith("faces/")),
                  key=lambda n: (n.rsplit("-", 1)[0], n.endswith("-back.png")))


def _credits(kit: KitData, words: Words) -> str:
    """The rule's author and publisher, then the type's and the pictograms' makers, as their
    licences ask (the icons: "Icons made by AUTHOR", linked to game-icons.net and CC BY 3.0)."""
    r = kit.rules
    authors = english_names(pictograms.authors())        # inside the English quotation of the credit
    return words.sentences([words("release.credits", number=r.number, title=r.title, credit=r.credit, game=r.game),
                            words("release.credits.art", authors=authors)])


def _facts(words: Words, content: bytes, pages: int | None = None) -> dict[str, object]:
    return {"size": _size(words, len(content)), "pages": pages, "digest": hashlib.sha256(content).hexdigest()}


def _size(words: Words, n: int) -> str:
    if n < 1024 * 1024:
        return words("release.size.kb", size=n / 1024)
    return words("release.size.mb", size=n / 1024 / 1024)


def _pages(content: bytes) -> int:
    """The PDF's page count: its renderer's own where it came with one (render_all's Pdf), else
    read back (parsing every PDF of an edition again with pypdf is slow beside the rest of a release)."""
    count = getattr(content, "pages", None)
    return count if isinstance(count, int) else len(PdfReader(io.BytesIO(content)).pages)


def _face_alt(name: str, kit: KitData, words: Words) -> str:
    """A face image's alternative text in the edition's words, from its file name (images.py's
    face_names): 'faces/german-rifle-1939-45-front.png' -> 'Germans: Rifle 1939–45, front'."""
    body, side = name[len("faces/"):-len(".png")].rsplit("-", 1)
    nat = max((n for n in kit.nationalities if body.startswith(f"{n.key}-")), key=lambda n: len(n.key), default=None)
    rest = body[len(nat.key) + 1:] if nat is not None else body
    kind = next((k for k, part in FILE_KINDS.items() if rest == part or rest.startswith(f"{part}-")), None)
    if nat is None or kind is None or side not in ("front", "back"):
        return body.replace("-", " ")       # a face the kit did not name: its file name
    years = rest[len(FILE_KINDS[kind]):].lstrip("-").replace("-", "\u2013")       # '1939–45', or the counter's number
    shown = " ".join(filter(None, (words(f"counter.kind.{kind}"), years)))
    return words("release.index.face.alt", nationality=nat.name, face=words(f"calibration.key.{side}", kind=shown))


# -- the templates ----------------------------------------------------------------------------

def _render(name: str, words: Words, **values: object) -> str:
    return _environment().get_template(name).render(words=words, **values)


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FunctionLoader(_source), undefined=jinja2.StrictUndefined,
                             autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default=False),
                             finalize=_finalize, trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(wrap=_wrap, bullet=_bullet)
    return env


def _source(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


@jinja2.pass_eval_context
def _finalize(eval_ctx: jinja2.nodes.EvalContext, value: object) -> object:
    """In the HTML page, every output escaped as html.escape does it ('&quot;', '&#x27;'), the
    page's spelling from its first release on; autoescape then leaves it as it is."""
    if eval_ctx.autoescape and not hasattr(value, "__html__"):
        return Markup(_escape(value))
    return value


def _escape(text: object) -> str:
    return html.escape(str(text), quote=True)


def _html_words(words: Words, key: str, **fields: object) -> Markup:
    """words(key) as HTML: its text escaped, each field escaped unless it is markup already (the
    template's <em> and <strong>)."""
    marks = {name: f"\x00{name}\x00" for name in fields}
    text = _escape(words(key, **marks))
    for name, value in fields.items():
        text = text.replace(marks[name], str(value) if hasattr(value, "__html__") else _escape(value))
    return Markup(text)




def _wrap(text: str, width: int) -> str:
    """`text` filled to lines of at most `width` characters (a longer word has a line of its own);
    a no-break space ("33,3 %", "page :") never ends a line; Japanese breaks by kinsoku."""
    return "\n".join(fill_pieces(text, width))


def _bullet(text: str, width: int) -> str:
    """A list item: '- ' and `text` filled to `width`, its later lines indented under the first."""
    return "\n".join(("- " if i == 0 else "  ") + line for i, line in enumerate(_wrap(text, width - 2).split("\n")))


# -- the live preview's index ------------------------------------------------------------------

def preview_index(words: Words, *, edition: str, files: Sequence[Mapping[str, object]], changes: Sequence[str],
                  problems: str, script: str) -> str:
    """`bailout serve`'s index page, styled as a release's: `files` each with its name, href,
    what it is and, for a PDF, its paper and how to print it (part_words); `changes`, the printed
    changes since the preview started; `problems` and `script`, markup the server made."""
    return _render(PREVIEW, words, title=words("serve.title"), edition=edition, files=files, changes=changes,
                   problems=Markup(problems), script=Markup(script), colours=_colours(words.lang),
                   policy=Markup(policy_meta()))


# -- the index of a release of several editions -------------------------------------------------

def editions_index(kit: KitData, langs: Sequence[str]) -> bytes:
    """index.html at the top of a release of several editions, styled as each edition's own: a
    language switcher, then each edition's title, in its own language and words, with its kit's
    first page, linking its folder's index.html."""
    from generator.content.words import load_words
    r = kit.rules
    editions = []
    for entry in _switcher(langs, None, "{lang}/index.html"):
        words = load_words(str(entry["lang"]))
        editions.append({**entry, "title": words("release.title", number=r.number, title=r.title, version=__version__),
                         "intro": words("release.index.edition", number=r.number, title=r.title, credit=r.credit),
                         "open": words("release.index.open"),
                         "thumb": f"{entry['lang']}/thumbs/kit-a4.png",
                         "thumb_alt": words("release.index.thumb_alt", name=f"kit-a4-{entry['lang']}.pdf")})
    page = _render(EDITIONS, load_words(), r=r, heading=f"{r.number} {r.title}", editions=editions, colours=_colours(),
                   credits=_credits(kit, load_words()), credits_heading=load_words()("release.index.credits"),
                   policy=Markup(policy_meta()))
    return page.encode("utf-8")
