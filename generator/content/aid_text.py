"""The player aid's content: templates/aid.md.j2 rendered with the rules data and the exact odds.

Reportlab-free on purpose: the PDF (render/pdf/aid_pdf.py) and the HTML edition
(render/html/aid_html.py) are two renderers of the one Markdown text made here.  Every `{{ }}`
output is Markdown-escaped on the way out (Jinja `finalize`), so data text can never add
structure.  The template is compiled once per process and folder, not once per paper, and kept
compiled between runs in the kit's cache (generator/cache.py).
"""

import contextlib
import hashlib
import itertools
import marshal
import pickle
import re
from collections.abc import Iterator, Mapping
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from types import CodeType, MappingProxyType, TracebackType
from typing import Any

import jinja2
from msgspec.structs import replace

from generator import __version__
from generator.content import template_sandbox
from generator.content.aid_files import TEMPLATE, aid_catalogue_file, aid_words
from generator.content.context import BuildContext
from generator.content.template_sandbox import KitSandbox, TemplateFiles, TemplateTimeout, render_limits
from generator.content.weapons import weapon_rows
from generator.content.words import SOURCE_LANGUAGE, Words, _fields, field_problem, fill
from generator.data import FATES
from generator.data.glossary import data_source
from generator.data.model import KitData
from generator.engine import procedure as R
from generator.engine.odds import man_code
from generator.errors import DataError, KitError, RenderError
from generator.text import fraction_text, signed, tie_numbers, truncate, without_full_stop, words_of

NAME_CHARS, MODEL_CHARS = 32, 40        # longer data text is ellipsised in table cells
AID_FIGURES = 1     # significant figures a rare chance keeps on the aid (1/243: 0.4%)


def compiled_template(folder: Path) -> jinja2.Template:
    """The aid template of `folder`, compiled once a process (a release compiles it before its
    editions fork, so they share it)."""
    return _environment(str(folder)).get_template(TEMPLATE)


def templates_read(folder: Path) -> dict[str, str]:
    """{name: text} of each template of `folder` this process's renders have read (the aid's
    template and what it includes), as each was last read."""
    loader = _environment(str(folder)).loader
    assert isinstance(loader, TemplateFiles)
    return dict(loader.read)


def render_text(ctx: BuildContext, extra: dict[str, Any] | None = None, folder: Path | None = None) -> str:
    """The template (of `folder`, else the context's) rendered with `template_vars`, updated by
    `extra`, within the sandbox's limits (content/template_sandbox.py)."""
    folder = folder if folder is not None else ctx.templates
    path = folder / TEMPLATE
    try:
        template = compiled_template(folder)        # bounded by the template's size
        text = _rendered(template, {**template_vars(ctx), **(extra or {})}, path)
        # The locale's typography (French spacing, English apostrophes) over the whole text: the
        # template's own punctuation ("1: unhurt") as well as the catalogue's and the data's; and
        # no line breaks inside a reference ("note 8") or a count ("5 men").
        return tie_numbers(ctx.words.apostrophes(ctx.words.typeset(text)))
    except KitError:
        raise
    except jinja2.TemplateSyntaxError as error:
        raise RenderError(f"{error.filename or path}:{error.lineno}: {error.message}") from None
    except jinja2.TemplateNotFound as error:
        raise RenderError(f"{path}: template {error.name!r} not found") from None
    except RecursionError:
        raise RenderError(f"{path}: the template includes itself (or its macros call themselves) too deep") from None
    except Exception as error:      # an undefined name, a bad filter argument, a sandbox refusal ...
        line = _template_line(error.__traceback__, str(path))
        where = f"{path}:{line}" if line else str(path)
        raise RenderError(f"{where}: {type(error).__name__}: {error}") from None


def _rendered(template: jinja2.Template, values: dict[str, Any], path: Path) -> str:
    """`template` rendered with `values` within the sandbox's time limit; past it, one line naming
    the template's line where the render stopped."""
    try:
        with render_limits(template_sandbox.TIME_LIMIT):
            return _bounded(template.generate(**values), path)
    except TemplateTimeout as stop:
        line = _stopped_line(stop.__traceback__, template)
        where = f"{path}:{line}" if line else str(path)
        raise RenderError(f"{where}: the template did not finish within {template_sandbox.TIME_LIMIT:g} s (a loop "
                          f"that does not end, or a template that includes itself?)") from None


def _stopped_line(tb: TracebackType | None, template: jinja2.Template) -> int | None:
    """The line of `template` its render was at when it stopped: Jinja maps the lines of an error's
    traceback to the template's, not those of a BaseException's, so the line of its code is mapped here."""
    line = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == template.filename:
            line = template.get_corresponding_lineno(tb.tb_lineno)
        tb = tb.tb_next
    return line


def _bounded(chunks: Iterator[str], path: Path) -> str:
    """The rendered text, refused once it passes MAX_TEXT characters."""
    out, size = [], 0
    for chunk in chunks:
        size += len(chunk)
        if size > template_sandbox.MAX_TEXT:
            raise RenderError(f"{path}: the template writes more than {template_sandbox.MAX_TEXT:,} characters; "
                              f"the aid is two pages")
        out.append(chunk)
    return "".join(out)


@lru_cache(maxsize=4)
def _environment(folder: str) -> KitSandbox:
    env = KitSandbox(loader=TemplateFiles(Path(folder)), undefined=jinja2.StrictUndefined,
                     autoescape=False, finalize=md_escape, trim_blocks=True, lstrip_blocks=True,
                     keep_trailing_newline=True, extensions=["jinja2.ext.i18n"], bytecode_cache=_bytecode_cache(),
                     # Jinja's optimiser folds constants at compile time; in the sandbox it finds
                     # none in the aid template (the same code either way) and costs an eighth of
                     # a cold build's compile.
                     optimized=False)
    env.filters.update(pct=_percent, frac=fraction_text, signed=signed, fit=truncate, either=_either, whole=_whole,
                       phrases=_phrases, dec=_decimal,
                       clause=without_full_stop)
    # New-style gettext: the translation is looked up in the edition's language (the context's
    # `lang`), so one compiled template serves every edition.
    env.install_gettext_callables(_gettext, _ngettext, newstyle=True)     # type: ignore[attr-defined]
    # A {% trans count=... %} sentence passes two long texts and its values: their product is
    # no measure of what it prints, which is one catalogue sentence (its fields filled by `fill`).
    env.trust(env.globals["gettext"], env.globals["ngettext"])
    env.checked_filters()
    return env


class _BytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's bytecode of a template, kept between runs in the kit's cache folder
    (generator/cache.py: the user's own, nobody else can write it).  Compiling the aid template is
    a tenth of a second of every build, loading it back a hundredth (benchmarks/bench_cache.py).
    Jinja names a file by a hash of the template's name, so no name reaches outside the folder;
    the kit hashes that again with what shapes the compiled code (`compiler`: the Jinja's version
    and the kit's own code), so an edited kit or another Jinja compiles afresh, and Jinja's
    checksum of the template's text in the file makes an edited template compile afresh.  An
    entry that cannot be read or written costs only the compile."""

    def __init__(self, folder: Path, compiler: str) -> None:
        super().__init__(str(folder), pattern="%s")     # a file's name is its key: a hex digest
        self.compiler = compiler

    def get_cache_key(self, name: str, filename: str | None = None) -> str:
        from generator import cache
        return cache.digest(self.compiler, super().get_cache_key(name, filename))

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        # Read as the cache reads its own entries (a private regular file, no link followed, no
        # FIFO waited on), and the header compared as bytes with what Jinja writes for this
        # template's text: nothing in a file is unpickled, and only a code object is taken.
        from generator import cache
        data = cache.read_file(_BYTECODE, bucket.key)
        head = jinja2.bccache.bc_magic + pickle.dumps(bucket.checksum, 2)
        if data is None or not data.startswith(head):
            return
        try:
            code = marshal.loads(data[len(head):])
        except (EOFError, ValueError, TypeError):
            return
        if isinstance(code, CodeType):
            bucket.code = code

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):      # a folder gone or full: the next build compiles again
            super().dump_bytecode(bucket)


_BYTECODE = "jinja"     # the cache folder's kind for templates' bytecode


def _bytecode_cache() -> _BytecodeCache | None:
    """The bytecode cache in the kit's cache folder, or None: the cache off or unsafe, or a Jinja
    whose version its metadata does not say."""
    from importlib.metadata import PackageNotFoundError, version

    from generator import cache
    folder = cache.cache_folder(_BYTECODE)
    if folder is None:
        return None
    try:
        jinja = version("Jinja2")
    except PackageNotFoundError:
        return None
    # The kit's code that shapes what Jinja compiles: the sandbox's code generator, this environment.
    own = hashlib.sha256(Path(__file__).read_bytes() + Path(template_sandbox.__file__).read_bytes()).hexdigest()
    return _BytecodeCache(folder, f"Jinja2 {jinja}, kit code {own}")


class Prose(str):
    """A translated sentence of the template: Markdown the template (or its catalogue) wrote, so
    md_escape lets it through; its placeholders' values are escaped as any other output.  It
    knows where it came from ((aid.po file or None for the template's own, msgid)), for a problem."""

    source: tuple[Path | None, str] = (None, "")

    def __new__(cls, text: str, source: tuple[Path | None, str] = (None, "")) -> "Prose":
        made = super().__new__(cls, text)
        made.source = source
        return made

    def __mod__(self, values: object) -> "Prose":
        """The sentence's %(name)s placeholders filled, through the catalogues' one formatter
        (content/words.py fill): only %(name)s and %%, each name one the template passes."""
        path, msgid = self.source
        where = f"{path or TEMPLATE}: {msgid!r}"
        fields = {k: md_escape(v) for k, v in values.items()} if isinstance(values, Mapping) else {}
        text, why = _as_fields(str(self))
        if why:
            raise DataError(f"{where}: {why}")
        return Prose(fill(where, text, fields), self.source)


# A %-placeholder as Jinja's {% trans %} writes them (%(name)s, %%), or any other % (refused).
_PERCENT = re.compile(r"%\((\w+)\)s|%%|%\S?")


def _as_fields(text: str) -> tuple[str, str]:
    """(`text` with %(name)s as {name}, %% as %, and its braces doubled, '') or ('', why not)."""
    out, at = [], 0
    for match in _PERCENT.finditer(text):
        out.append(text[at:match.start()].replace("{", "{{").replace("}", "}}"))
        if match.group(1):
            out.append("{" + match.group(1) + "}")
        elif match.group(0) == "%%":
            out.append("%")
        else:
            return "", f"{match.group(0)!r} is neither a placeholder like %(name)s nor %% (a percent sign)"
        at = match.end()
    out.append(text[at:].replace("{", "{{").replace("}", "}}"))
    return "".join(out), ""


def aid_catalogue_problems(lang: str) -> list[str]:
    """One line per sentence of `lang`'s aid.po whose placeholders the formatter refuses, or
    differ from its msgid's (the template's): what `bailout check` names."""
    path = aid_catalogue_file(lang)
    problems = []
    words = aid_words(lang)
    sentences = [*words.messages.items(), *((msgid, form) for msgid, forms in words.plurals.items() for form in forms)]
    for msgid, text in sentences:
        converted, why = _as_fields(text)
        if not why and _as_fields(msgid)[1] == "":
            wanted = dict.fromkeys(_fields(_as_fields(msgid)[0]), "")
            why = field_problem(converted, wanted) or (
                f"placeholders {sorted(_fields(converted))}, the template's {sorted(wanted)}"
                if _fields(converted) != set(wanted) else "")
        if why:
            problems.append(f"{path}: {msgid!r}: {why}")
    return problems


def name_cell_problems(kit: KitData) -> list[str]:
    """One line per nationality name or army of `kit` (an edition's data: its glossary's names)
    longer than the aid's weapons table prints whole in a name cell (NAME_CHARS; the rest is cut),
    named by the file and key it was written in: what `bailout check` names."""
    problems = []
    for n in kit.nationalities:
        for key, text in (("name", n.name), ("army", n.army)):
            shown = " ".join(text.split())
            if len(shown) > NAME_CHARS:
                file, where = data_source(kit, f"nationalities/{n.key}.toml", key)
                problems.append(f"{kit.directory / file}: {where}: {shown!r} is {len(shown)} characters; the aid's "
                                f"weapons table prints {NAME_CHARS} whole and cuts the rest: say it shorter")
    return problems


@jinja2.pass_context
def _gettext(context: jinja2.runtime.Context, message: str) -> Prose:
    lang = context.get("lang", SOURCE_LANGUAGE)
    messages = aid_words(lang).messages
    if message in messages:
        return Prose(messages[message], (aid_catalogue_file(lang), message))
    return Prose(message, (None, message))


@jinja2.pass_context
def _ngettext(context: jinja2.runtime.Context, singular: str, plural: str, n: int) -> Prose:
    """A {% trans count=... %} ... {% pluralize %} sentence: the form the aid catalogue's
    Plural-Forms picks for `n`."""
    lang = context.get("lang", SOURCE_LANGUAGE)
    words = aid_words(lang)
    return Prose(words.ngettext(singular, plural, n), (aid_catalogue_file(lang) if singular in words.plurals else None,
                                                       singular))


@jinja2.pass_context
def _percent(context: jinja2.runtime.Context, p: Fraction | int) -> str:
    """The `pct` filter: a chance in the convention of the edition rendered (its words' lang),
    with one decimal as every figure of the aid's tables has (a rare chance its first significant
    figure, never 0.0%), so the columns' decimal points line up."""
    return Words(context.get("lang", SOURCE_LANGUAGE), {}).percent(p, figures=AID_FIGURES)


SHORT_WORD = 2      # "Mk", "M3", "I": a word this short stays beside its neighbour


def _whole(value: object) -> str:
    """The `whole` filter: a weapon's model whose designation keeps to one line ("Thompson
    M1928A1", "No. 4 Mk I", "тип 38"): a space before a word with a digit in it, or beside a word
    of SHORT_WORD characters or fewer, holds; a long name in a narrow cell still breaks between
    its other words ("Lee-Enfield | No. 4 Mk I", "Арисака | тип 38")."""
    words = str(value).split(" ")

    def held(before: str, after: str) -> bool:
        return any(ch.isdigit() for ch in after) or min(len(before), len(after)) <= SHORT_WORD
    return words[0] + "".join(("\u00a0" if held(a, b) else " ") + b for a, b in itertools.pairwise(words))


@jinja2.pass_context
def _decimal(context: jinja2.runtime.Context, value: Fraction | int) -> str:
    """The `dec` filter: a mean (men alive) with one decimal, as the edition writes it ("3.3",
    "3,3"), beside its exact fraction."""
    return Words(context.get("lang", SOURCE_LANGUAGE), {}).decimal(value, 1)


def _phrases(value: object) -> str:
    """The `phrases` filter: a name whose short phrases keep to one line ("Army 1939\u201340, Free
    French" breaks only after its comma): the words of each comma-separated part of at most two
    words are held together by no-break spaces."""
    parts = str(value).split(", ")
    return ", ".join("\u00a0".join(part.split(" ")) if part.count(" ") <= 1 else part for part in parts)


@jinja2.pass_context
def _either(context: jinja2.runtime.Context, names: Any) -> str:
    """The `either` filter: "1 or 2", "SL or ASL", as the edition lists alternatives."""
    return Words(context.get("lang", SOURCE_LANGUAGE), {}).either(names)


def _template_line(tb: TracebackType | None, filename: str) -> int | None:
    """The template line a render error came from (Jinja maps its frames to the template file)."""
    line: int | None = None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def template_vars(ctx: BuildContext) -> dict[str, Any]:
    """Everything the template may read: the rules, the odds and the tables derived from them."""
    kit, odds = ctx.kit, ctx.odds
    r = kit.rules
    sizes = r.crew.aid_crew_sizes
    missing = [s for s in sizes if s not in odds.survivors]
    if missing:
        raise RenderError(f"{kit.directory / 'rules.toml'}: crew.aid_crew_sizes lists {missing}, larger than "
                          f"crew.size = {r.crew.size}")
    return {
        "rules": r, "odds": odds, "version": __version__, "data_hash": kit.short_hash, "lang": ctx.words.lang,
        "fates": FATES,
        "notes": {i.name: i for i in r.interpretations},
        "crew_sizes": sizes,
        "survivor_counts": list(range(max(sizes) + 1)) if sizes else [],
        "morale_rows": [(m, R.crew_morale(r, m, 1)[0], [R.crew_morale(r, m, s)[1] for s in sizes])
                        for m in r.crew.aid_afv_morale],
        "pistol_ccv": R.pistol_only_ccv(r),
        "man_rows": [(man_code(fate, weapon), fate, weapon, p) for (fate, weapon), p in odds.man.items()],
        "nationalities": [weapon_rows(n, r) for n in kit.nationalities],
        "any_gap": any(n.smg_in(y) is None for n in kit.nationalities for y in r.years()),
        "NAME_CHARS": NAME_CHARS, "MODEL_CHARS": MODEL_CHARS,
        "since": None,      # built --since OLD: the "Changes since" box (marks.box_vars)
        "words": replace(ctx.words, messages=MappingProxyType(ctx.words.messages)),     # read-only
    }


def md_escape(value: object) -> str:
    """Every placeholder's output as literal Markdown text: no structure can come from data."""
    if value is None:
        return ""
    if isinstance(value, Prose):
        return str(value)
    # No newline may end a table row or start a block; a no-break space ("33,3 %") stays one.
    text = " ".join(words_of(str(value)))
    out = []
    for ch in text:
        if ch == "&":
            out.append("&amp;")
        elif ch == "<":
            out.append("&lt;")
        elif ch in "\\`*_{}[]()#+-.!|>":
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)
