"""`python -m generator.make.compile_ahead`: the kit's own catalogues and aid template read and
compiled ahead into generator/content/compiled/ (content/ahead.py says what for and when a build
takes them), as the installed Babel and Jinja make them now.  Run it after editing a catalogue,
templates/aid.md.j2, content/aid_text.py or content/template_sandbox.py, or after a new Jinja:
tests/test_ahead.py says which file is out of date.
"""

import json
import sys
from pathlib import Path

from generator.content.ahead import COMPILED, catalogue_file, sha256, template_file
from generator.content.aid_files import AID_DOMAIN, TEMPLATE
from generator.content.aid_text import compiled_source, environment_kind
from generator.content.words import LOCALE, read_po_afresh
from generator.data.sources import shipped


def made_catalogues() -> dict[Path, str]:
    """{file: its text} for every catalogue the kit ships: Babel's reading of each, now."""
    files: dict[Path, str] = {}
    sources = [(path, path.stem, None) for path in sorted(LOCALE.glob("*.po"))] + \
        [(path, path.parent.name, AID_DOMAIN) for path in sorted(LOCALE.glob(f"*/{AID_DOMAIN}.po"))]
    for path, lang, domain in sources:
        content = path.read_bytes()
        kept = {"lang": lang, "domain": domain, "sha256": sha256(content),
                "table": read_po_afresh(path, lang, domain)}
        files[catalogue_file(lang, domain)] = json.dumps(kept, ensure_ascii=False, sort_keys=True, indent=0) + "\n"
    return files


def made_template() -> tuple[Path, str]:
    """(file, its text): Jinja's compile of the kit's own aid template, now."""
    source = (shipped("templates") / TEMPLATE).read_text(encoding="utf-8")
    head = {"name": TEMPLATE, "sha256": sha256(source.encode("utf-8")),
            "kind": environment_kind()}
    return template_file(TEMPLATE), "# " + json.dumps(head, sort_keys=True) + "\n" + compiled_source(source)


def made() -> dict[Path, str]:
    """Every file of compiled/ as the kit's own files and the installed Babel and Jinja make it now."""
    path, text = made_template()
    return {**made_catalogues(), path: text}


def main() -> int:
    """Write compiled/ afresh (a file no longer made is removed); say how many changed."""
    files = made()
    old = {p for p in COMPILED.rglob("*") if p.is_file()} if COMPILED.is_dir() else set()
    changed = 0
    for path, text in sorted(files.items()):
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed += 1
    for path in sorted(old - set(files)):
        path.unlink()
        changed += 1
    print(f"{COMPILED}: {len(files)} files, {changed} written or removed", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
