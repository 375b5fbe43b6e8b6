"""The kit's own catalogues and aid template, read and compiled ahead: what a first build would
otherwise spend on Babel's reading of each .po file and Jinja's compile of templates/aid.md.j2.

The files in compiled/ beside this module are made by `python -m generator.make.compile_ahead` from
the kit's own catalogues and template.  Each names what it was made from: the SHA-256 of the
catalogue's or template's bytes, and for the template the Jinja and the kit's code that compiled
it (aid_text's KIND).  A build takes one only when all of that matches what it reads now;
otherwise (an edited catalogue or template, a project's own template, another Jinja) it reads
the file as it always has, through Babel or Jinja and then the kit's cache.  Nothing here changes
a printed byte: a table is what Babel read from those very bytes, the code what Jinja compiled.
tests/test_ahead.py holds each file to what Babel and Jinja make now.
"""

import hashlib
import json
from pathlib import Path
from typing import Any

COMPILED = Path(__file__).resolve().parent / "compiled"
_CODE_SUFFIX = ".code"      # not .py: no linter, type checker or importer takes it for the kit's own code


def catalogue_file(lang: str, domain: str | None) -> Path:
    """Where the table of `lang`'s catalogue of `domain` (None: the kit's words) is kept."""
    return COMPILED / "locale" / (f"{lang}.json" if domain is None else f"{lang}/{domain}.json")


def catalogue(lang: str, domain: str | None, content: bytes) -> dict[str, Any] | None:
    """The table ({"messages", "plurals", "plural_forms"}) read ahead from the catalogue bytes
    `content` of `lang` and `domain`, or None when none was made from exactly these bytes."""
    kept = _json(catalogue_file(lang, domain))
    if kept is None or kept.get("sha256") != sha256(content) or kept.get("lang") != lang or \
            kept.get("domain") != domain:
        return None
    table = kept.get("table")
    return table if isinstance(table, dict) else None


def template_file(name: str) -> Path:
    return COMPILED / (name + _CODE_SUFFIX)


def template_code(name: str, source: str, kind: str) -> str | None:
    """Jinja's Python for the template `name` of text `source`, compiled ahead by the kit's code
    and Jinja that `kind` names, or None when it was not made from this very text by them."""
    try:
        head, code = template_file(name).read_text(encoding="utf-8").split("\n", 1)
        made = json.loads(head.removeprefix("# "))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    if not isinstance(made, dict) or made.get("sha256") != sha256(source.encode("utf-8")) or \
            made.get("kind") != kind or made.get("name") != name:
        return None
    return code


def _json(path: Path) -> dict[str, Any] | None:
    try:
        kept = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    return kept if isinstance(kept, dict) else None


def sha256(content: bytes) -> str:
    """What names the bytes a file here was made from (compile_ahead writes it)."""
    return hashlib.sha256(content).hexdigest()
