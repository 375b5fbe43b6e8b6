"""What keeps the kit's web pages inert: no script runs, nothing is fetched from elsewhere.

- PAGE_POLICY, the pages' Content Security Policy, in one place: player-aid.html and the
  release's index pages carry it as a meta tag (`bailout serve` sends it as a header too, with
  its own reload script allowed by hash).  It allows the page's own <style> and style
  attributes and images of the page's own folder or inside it (data:), nothing else.
- The aid's Markdown is rendered as its PDF is (render/pdf/markdown_pdf.py): raw HTML from the
  template or a catalogue shows as the text it is, never as markup (but a `<br>` in a table
  cell, and the entities data text is escaped with); the elements `markdown="1"` blocks make
  keep only the attributes a page of the kit uses, links only to pages, never to script.
"""

import base64
import hashlib
import html
import re
import xml.etree.ElementTree as etree

import markdown
from markdown.extensions.md_in_html import MarkdownInHTMLPostprocessor

PAGE_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; font-src data:; "
               "base-uri 'none'; form-action 'none'")


def served_policy(script: str) -> str:
    """PAGE_POLICY as `bailout serve` sets it: its own reload script allowed (by its hash), its
    event stream and its frames (the PDFs), all of its own origin."""
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    return f"{PAGE_POLICY}; script-src 'sha256-{digest}'; connect-src 'self'; frame-src 'self'"


# A header can say more than a meta tag: no other site may frame the preview's pages.
HEADER_ONLY = "; frame-ancestors 'self'"


def policy_meta(policy: str = PAGE_POLICY) -> str:
    """The <meta> tag that sets `policy` for a page opened as a file."""
    shown = policy.replace("&", "&amp;").replace('"', "&quot;")       # its quotes are single ones
    return f'<meta http-equiv="Content-Security-Policy" content="{shown}">'


_BREAKS = {"<br>", "<br/>", "<br />"}
_ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")


class RawHtmlAsText(MarkdownInHTMLPostprocessor):
    """Python-Markdown's raw-HTML postprocessor with every stashed piece of raw HTML escaped."""

    def stash_to_string(self, text: object) -> str:
        if isinstance(text, etree.Element):
            sanitize(text)
            return str(self.md.serializer(text))
        raw = str(text)
        if raw.strip().lower() in _BREAKS:
            return "<br>"
        return raw if _ENTITY.fullmatch(raw) else html.escape(raw, quote=False)


def text_only(md: markdown.Markdown) -> None:
    """Make `md` (with md_in_html) show raw HTML as text."""
    md.postprocessors.register(RawHtmlAsText(md), "raw_html", 30)


# What the Markdown of the aid (tables, md_in_html blocks) may hold; anything else becomes a
# plain <div>, its text kept.
_TAGS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "strong", "em", "b", "i", "code", "pre",
         "blockquote", "table", "thead", "tbody", "tr", "th", "td", "br", "hr", "a", "div", "span", "img", "sup",
         "sub", "del"}
_ATTRIBUTES = {"class", "id", "lang", "title", "alt", "colspan", "rowspan", "scope", "data-per-row", "data-bypass",
               "data-bypass-label"}
_ALIGN = re.compile(r"text-align:\s*(left|right|center);?")
_SAFE_LINK = re.compile(r"(?:#|https?://|mailto:|[^:]*$)", re.IGNORECASE)


def sanitize(root: etree.Element) -> None:
    """Every element under (and of) `root` to what the kit's pages hold (see _TAGS, _ATTRIBUTES)."""
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        if el.tag not in _TAGS:     # only a markdown="1" block makes elements: block-level ones
            el.tag = "div"
        for name, value in list(el.attrib.items()):
            if not _kept(el.tag, name, value):
                del el.attrib[name]


def _kept(tag: str, name: str, value: str) -> bool:
    if name in _ATTRIBUTES:
        return True
    if name == "style":
        return bool(_ALIGN.fullmatch(value.strip()))      # a table column's alignment
    if name == "href":
        return tag == "a" and bool(_SAFE_LINK.match("".join(value.split())))
    if name == "src":
        return tag == "img" and value.strip().lower().startswith("data:image/")
    return False
