"""The player aid's content: templates/aid.md.j2 rendered with the rules data and the exact odds.

Reportlab-free on purpose: the PDF (render/pdf/aid_pdf.py) and the HTML edition
(render/html/aid_html.py) are two renderers of the one Markdown text made here.  Every `{{ }}`
output is Markdown-escaped on the way out (Jinja `finalize`), so data text can never add
structure.  The template is compiled once per process and folder, not once per paper, and kept
compiled between runs in the kit's cache (generator/cache.py).
"""

import hashlib
import re
from collections.abc import Iterator, Mapping
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType, TracebackType
from typing import Any

import jinja2
from msgspec.structs import replace

from generator import __version__
from generator.content import template_sandbox
from generator.content.aid_files import TEMPLATE, aid_catalogue_file, aid_words
from generator.content.context import BuildContext
from generator.content.template_sandbox import KitSandbox, TemplateFiles, TemplateTimeout, time_limit
from generator.content.weapons import weapon_rows
from generator.content.words import SOURCE_LANGUAGE, Words, _fields, field_problem, fill
from generator.data import FATES
from generator.engine import procedure as R
from generator.engine.odds import man_code
from generator.errors import DataError, KitError, RenderError
from generator.text import fraction_text, signed, truncate, words_of

NAME_CHARS, MODEL_CHARS = 28, 40        # longer data text is ellipsised in table cells


def compiled_template(folder: Path) -> jinja2.Template:
    """The aid template of `folder`, compiled once a process (a release compiles it before its
    editions fork, so they share it)."""
    return _environment(str(folder)).get_template(TEMPLATE)


def render_text(ctx: BuildContext, extra: dict[str, Any] | None = None, folder: Path | None = None) -> str:
    """The template (of `folder`, else the context's) rendered with `template_vars`, updated by
    `extra`, within the sandbox's limits (content/template_sandbox.py)."""
    folder = folder if folder is not None else ctx.templates
    path = folder / TEMPLATE
    try:
        template = compiled_template(folder)        # bounded by the template's size
        values = {**template_vars(ctx), **(extra or {})}
        with time_limit(template_sandbox.TIME_LIMIT):
            text = _bounded(template.generate(**values), path)
        # The locale's typography (French spacing) over the whole text: the template's own
        # punctuation ("1: unhurt") as well as the catalogue's and the data's.
        return ctx.words.typeset(text)
    except TemplateTimeout:
        raise RenderError(f"{path}: the template did not finish within {template_sandbox.TIME_LIMIT:g} s (a loop "
                          f"that does not end, or a template that includes itself?)") from None
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
                     keep_trailing_newline=True, extensions=["jinja2.ext.i18n"], bytecode_cache=_KitBytecodeCache(),
                     # Jinja's optimiser folds constants at compile time; in the sandbox it finds
                     # none in the aid template (the same code either way) and costs an eighth of
                     # a cold build's compile.
                     optimized=False)
    env.filters.update(pct=_percent, frac=fraction_text, signed=signed, fit=truncate, either=_either)
    # New-style gettext: the translation is looked up in the edition's language (the context's
    # `lang`), so one compiled template serves every edition.
    env.install_gettext_callables(_gettext, _ngettext, newstyle=True)     # type: ignore[attr-defined]
    # A {% trans count=... %} sentence passes two long texts and its values: their product is
    # no measure of what it prints, which is one catalogue sentence (its fields filled by `fill`).
    env.trust(env.globals["gettext"], env.globals["ngettext"])
    env.checked_filters()
    return env


class _KitBytecodeCache(jinja2.BytecodeCache):
    """Jinja's bytecode kept in the kit's cache (generator/cache.py), whose folder and entries are
    checked (the user's own, nobody else can write them, each entry's digest) before Jinja
    unpickles and unmarshals a byte.  Compiling the aid template is a tenth of a second of every
    build, loading it back a hundredth (benchmarks/bench_cache.py).  Jinja checks each entry
    against the template source's checksum, and the entries are kept by Jinja's version, so an
    edited template or another Jinja compiles afresh.  An entry that cannot be read or written
    costs only the compile.  Without an entry, the kit's own template takes the Python that was
    compiled ahead from its very text (content/ahead.py): Python compiles it, Jinja need not."""

    # Jinja's version and the code that shapes what it compiles (the sandbox, this environment).
    KIND = f"jinja2-{jinja2.__version__}-" + hashlib.sha256(
        Path(__file__).read_bytes() + Path(template_sandbox.__file__).read_bytes()).hexdigest()[:12]

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        from generator import cache
        kept = cache.read(self.KIND, bucket.key)
        if kept is None:
            return
        try:
            bucket.bytecode_from_string(kept)
        except Exception:       # whatever an entry of another Python's marshal raises
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        from generator import cache
        cache.write(self.KIND, bucket.key, bucket.bytecode_to_string())

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None,
                   source: str) -> jinja2.bccache.Bucket:
        bucket = super().get_bucket(environment, name, filename, source)
        if bucket.code is None and filename is not None:
            from generator.content import ahead
            code = ahead.template_code(name, source, self.KIND)
            if code is not None:
                # The template's own file name, as Jinja's compile gives it: a render error names its line.
                bucket.code = compile(code, filename, "exec")
                self.set_bucket(bucket)     # into the cache: the next build loads it
        return bucket


def environment_kind() -> str:
    """What names the Jinja and the kit's code that compile the aid template (content/ahead.py)."""
    return _KitBytecodeCache.KIND


def compiled_source(source: str) -> str:
    """Jinja's Python for the aid template of text `source`, as the kit's environment compiles it."""
    from generator.data.sources import shipped
    return str(_environment(str(shipped("templates"))).compile(source, TEMPLATE, raw=True))


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
    """The `pct` filter: a chance in the convention of the edition rendered (its words' lang)."""
    return Words(context.get("lang", SOURCE_LANGUAGE), {}).percent(p)


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
