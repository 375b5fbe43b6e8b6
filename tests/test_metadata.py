"""The package says what a user and a file page ask for: a licence for the code (the
rule text stays its author's), authors, platforms, keywords; the release's MANIFEST names every
library that wrote its bytes; its README says how to get the kit and rebuild with an offset."""

import io
import tomllib
import zipfile
from importlib.metadata import version

from conftest import DATA, ROOT
from generator import __version__
from generator.content.words import load_words
from generator.data import load

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_the_code_has_a_licence_and_the_rule_text_stays_its_authors():
    assert PROJECT["license"] == "MIT" and PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License")
    author = load(DATA).rules.credit          # the rule's author, as the data credits him
    assert author and author in text and "stays his" in text


def test_authors_keywords_and_supported_platforms():
    assert PROJECT["authors"] and all(a.get("name") for a in PROJECT["authors"])
    assert "Up Front" in PROJECT["keywords"]
    classifiers = set(PROJECT["classifiers"])
    for platform in ("Microsoft :: Windows", "MacOS", "POSIX :: Linux"):
        assert f"Operating System :: {platform}" in classifiers
    assert not any("License ::" in c for c in classifiers)      # the SPDX expression says it (PEP 639)
    # no invented home page: a URL, when there is one, must be a real one
    assert "urls" not in PROJECT or not any("example" in u for u in PROJECT["urls"].values())


def _zip_text(zip_bytes: bytes, name: str) -> str:
    archive = zipfile.ZipFile(io.BytesIO(zip_bytes))
    return archive.read(next(n for n in archive.namelist() if n.endswith("/" + name))).decode()


def test_the_release_manifest_names_the_image_libraries(release_zip):
    manifest = _zip_text(release_zip[1], "MANIFEST.txt").splitlines()
    for library in ("reportlab", "pypdf", "pypdfium2", "Pillow"):
        assert f"{library} {version(library)}" in manifest, library


def test_the_build_manifest_keeps_to_the_libraries_that_write_a_build(kit_files):
    manifest = kit_files["MANIFEST.txt"].decode()
    assert "pypdfium2" not in manifest and "Pillow" not in manifest      # a build makes no images


def test_the_release_readme_says_how_to_get_the_kit_and_rebuild(release_zip):
    words = load_words()
    readme = " ".join(_zip_text(release_zip[1], "README.txt").split())      # unwrapped
    assert words("release.readme.rebuild") in readme
    assert f"\n    {words('release.readme.rebuild.install')}\n" in _zip_text(release_zip[1], "README.txt")
    assert f"version {__version__}" in readme and "bailout build --back-offset X,Y" in readme
    assert " ".join(words("release.readme.rebuild.offset").split()) in readme


# Where README.md would say the package is published; until it does, nothing a release carries
# may tell a player to install it from a package index.
PACKAGE_INDEX = f"pypi.org/project/{PROJECT['name']}"


def test_no_release_text_installs_the_kit_from_an_index_readme_does_not_name(release_zip):
    published = PACKAGE_INDEX in (ROOT / "README.md").read_text(encoding="utf-8")
    archive = zipfile.ZipFile(io.BytesIO(release_zip[1]))
    texts = {name: archive.read(name).decode() for name in archive.namelist()
             if name.endswith((".txt", ".html", ".csv"))}
    for catalogue in sorted((ROOT / "generator" / "content" / "locale").rglob("*.po")):    # every edition's words
        texts[str(catalogue)] = catalogue.read_text(encoding="utf-8")
    assert any(name.endswith("README.txt") for name in texts) and len(texts) > 7
    for name, text in texts.items():
        assert published or f"pip install {PROJECT['name']}" not in text, name
