"""The player aid's content: templates/aid.md.j2 rendered with the rules data and the exact odds.

Reportlab-free on purpose: the PDF (render/pdf/aid_pdf.py) and the HTML edition
(render/html/aid_html.py) are two renderers of the one Markdown text made here.  Every `{{ }}`
output is Markdown-escaped on the way out (Jinja `finalize`), so data text can never add
structure.  The template is compiled once per process and folder, not once per paper, and kept
compiled between runs in the kit's cache (generator/cache.py).
"""

import contextlib
import re
from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from types import TracebackType
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from generator import __version__
from generator.content.context import BuildContext
from generator.content.weapons import weapon_rows
from generator.content.words import LOCALE, SOURCE_LANGUAGE, Words, po_catalogue
from generator.data import FATES
from generator.engine import procedure as R
from generator.engine.odds import man_code
from generator.errors import RenderError
from generator.text import fraction_text, signed, truncate

TEMPLATE = "aid.md.j2"
AID_DOMAIN = "aid"      # the template's sentences: locale/<lang>/aid.po (msgid = the English sentence)
NAME_CHARS, MODEL_CHARS = 28, 40        # longer data text is ellipsised in table cells


def compiled_template(folder: Path) -> jinja2.Template:
    """The aid template of `folder`, compiled once a process (a release compiles it before its
    editions fork, so they share it)."""
    return _environment(str(folder)).get_template(TEMPLATE)


def render_text(ctx: BuildContext, extra: dict[str, Any] | None = None, folder: Path | None = None) -> str:
    """The template (of `folder`, else the context's) rendered with `template_vars`, updated by `extra`."""
    folder = folder if folder is not None else ctx.templates
    path = folder / TEMPLATE
    try:
        template = compiled_template(folder)
        # The locale's typography (French spacing) over the whole text: the template's own
        # punctuation ("1: unhurt") as well as the catalogue's and the data's.
        return ctx.words.typeset(template.render(**{**template_vars(ctx), **(extra or {})}))
    except RenderError:
        raise
    except jinja2.TemplateSyntaxError as error:
        raise RenderError(f"{error.filename or path}:{error.lineno}: {error.message}") from None
    except jinja2.TemplateNotFound:
        raise RenderError(f"{path}: template not found") from None
    except Exception as error:      # an undefined name, a bad filter argument, a sandbox refusal ...
        line = _template_line(error.__traceback__, str(path))
        where = f"{path}:{line}" if line else str(path)
        raise RenderError(f"{where}: {type(error).__name__}: {error}") from None


@lru_cache(maxsize=4)
def _environment(folder: str) -> SandboxedEnvironment:
    env = SandboxedEnvironment(loader=jinja2.FileSystemLoader(folder), undefined=jinja2.StrictUndefined,
                               autoescape=False, finalize=md_escape, trim_blocks=True, lstrip_blocks=True,
                               keep_trailing_newline=True, extensions=["jinja2.ext.i18n"],
                               bytecode_cache=_bytecode_cache())
    env.filters.update(pct=_percent, frac=fraction_text, signed=signed, fit=truncate, either=_either)
    # New-style gettext: the translation is looked up in the edition's language (the context's
    # `lang`), so one compiled template serves every edition.
    env.install_gettext_callables(_gettext, _ngettext, newstyle=True)     # type: ignore[attr-defined]
    return env


class _QuietCache(jinja2.FileSystemBytecodeCache):
    """Jinja's bytecode cache in the kit's cache folder (generator/cache.py): compiling the aid
    template is a tenth of a second of every build, loading it back a millisecond.  Jinja checks
    each entry against the template source's checksum, and the folder is named for Jinja's
    version, so an edited template or another Jinja compiles afresh.  An entry that cannot be
    read or written costs only the compile."""

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except Exception:       # whatever a truncated or foreign entry raises (pickle, marshal, OS)
            bucket.reset()

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        with contextlib.suppress(OSError):
            super().dump_bytecode(bucket)


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    from generator.cache import cache_folder
    folder = cache_folder(f"jinja2-{jinja2.__version__}")
    return _QuietCache(str(folder)) if folder is not None else None


class Prose(str):
    """A translated sentence of the template: Markdown the template (or its catalogue) wrote, so
    md_escape lets it through; its placeholders' values are escaped as any other output."""

    def __mod__(self, values: object) -> "Prose":
        if isinstance(values, Mapping):
            return Prose(str.__mod__(self, {k: md_escape(v) for k, v in values.items()}))
        return Prose(str.__mod__(self, values))


def aid_catalogue_file(lang: str) -> Path:
    return LOCALE / lang / f"{AID_DOMAIN}.po"


_AID_READ: dict[tuple[str, int, int], Words] = {}     # (file, size, mtime): read again once edited (serve)


def aid_words(lang: str) -> Words:
    """The aid's sentences in `lang`, with their plural forms (English, or a language without the
    file: none; as gettext does, an untranslated sentence prints in English;
    tests/test_aid_catalogues.py checks each edition's file has them all).  Read once a process,
    and again when the file changes (a translator's save under `bailout serve`)."""
    path = aid_catalogue_file(lang)
    if lang == SOURCE_LANGUAGE or not path.is_file():
        return Words(lang, {})
    info = path.stat()
    key = (str(path), info.st_size, info.st_mtime_ns)
    if key not in _AID_READ:
        catalogue = po_catalogue(path, lang, AID_DOMAIN)
        _AID_READ[key] = Words(lang, catalogue.messages, catalogue.plurals, catalogue.plural_forms)
    return _AID_READ[key]


@jinja2.pass_context
def _gettext(context: jinja2.runtime.Context, message: str) -> Prose:
    return Prose(aid_words(context.get("lang", SOURCE_LANGUAGE)).messages.get(message, message))


@jinja2.pass_context
def _ngettext(context: jinja2.runtime.Context, singular: str, plural: str, n: int) -> Prose:
    """A {% trans count=... %} ... {% pluralize %} sentence: the form the aid catalogue's
    Plural-Forms picks for `n`."""
    return Prose(aid_words(context.get("lang", SOURCE_LANGUAGE)).ngettext(singular, plural, n))


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
        "words": ctx.words,     # the catalogue, for the sentences the template takes from it
    }


_SPACES = re.compile(r"[^\S\u00a0\u202f]+")     # whitespace but the no-break spaces


def md_escape(value: object) -> str:
    """Every placeholder's output as literal Markdown text: no structure can come from data."""
    if value is None:
        return ""
    if isinstance(value, Prose):
        return str(value)
    # No newline may end a table row or start a block; a no-break space ("33,3 %") stays one.
    text = " ".join(part for part in _SPACES.split(str(value)) if part)
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


def flowchart_settings(attributes: Mapping[str, str], source: Path) -> tuple[int, list[tuple[int, int]], list[str]]:
    """(boxes per row, [(from, to) box indices], [label per bypass]) from the flowchart div's
    attributes: data-per-row="4", data-bypass="1-3, 3-5", data-bypass-label="one | two".
    Both renderers of the aid read the chart's shape here."""
    bypasses: list[tuple[int, int]] = []
    for pair in (attributes.get("data-bypass") or "").split(","):
        if not pair.strip():
            continue
        try:
            a, b = (int(n) - 1 for n in pair.split("-"))
        except ValueError:
            raise RenderError(f"{source}: data-bypass must read like 1-3 or 1-3, 3-5; got {pair.strip()!r}") from None
        bypasses.append((a, b))
    labels = [label.strip() for label in (attributes.get("data-bypass-label") or "").split("|")] if bypasses else []
    if len(labels) != len(bypasses) and any(labels):
        raise RenderError(f"{source}: data-bypass-label gives {len(labels)} labels (split by '|') for "
                          f"{len(bypasses)} bypasses")
    labels = labels if len(labels) == len(bypasses) else [""] * len(bypasses)
    try:
        per_row = int(attributes.get("data-per-row", "4"))
    except ValueError:
        raise RenderError(f"{source}: data-per-row must be a whole number") from None
    return per_row, bypasses, labels
