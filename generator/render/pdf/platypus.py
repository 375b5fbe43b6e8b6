"""reportlab.platypus as the aid's renderers use it: imported here, the one place, without a
cost it never needs.

On import reportlab.platypus.paragraph compiles a URL pattern (Django's validator: \\xa1-\\uffff
ranges under re.IGNORECASE) that only its hyphenation of long URLs reads: 50 ms measured, a
tenth of a cold build, and the kit never hyphenates a URL.  While that module is imported, that
one pattern is handed back uncompiled, to be compiled the first time it is used; every other
pattern compiles as always, and re.compile is itself again afterwards.
"""

import re
import sys
from typing import Any

_URL_PATTERN_HEAD = "(^(?:[a-z0-9\\.\\-\\+]*)://)"     # how paragraph.py's uri_pat begins


class _OnFirstUse:
    """A pattern compiled when it is first used."""

    def __init__(self, compile: Any, pattern: str, flags: int) -> None:
        self._args = compile, pattern, flags
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        if self._compiled is None:
            compile, pattern, flags = self._args
            self._compiled = compile(pattern, flags)
        return getattr(self._compiled, name)


def _import_paragraph() -> None:
    if "reportlab.platypus.paragraph" in sys.modules:
        return
    real = re.compile

    def compile(pattern: Any, flags: int = 0) -> Any:
        if isinstance(pattern, str) and pattern.startswith(_URL_PATTERN_HEAD) and flags == re.IGNORECASE:
            return _OnFirstUse(real, pattern, flags)
        return real(pattern, flags)
    re.compile = compile
    try:
        import reportlab.platypus.paragraph  # noqa: F401
    finally:
        re.compile = real


_import_paragraph()

from reportlab.platypus import (BaseDocTemplate, Flowable, Frame, FrameBreak, KeepTogether,  # noqa: E402
                                ListFlowable, ListItem, PageBreak, PageTemplate, Paragraph, Spacer, Table,
                                TableStyle)
from reportlab.platypus.doctemplate import LayoutError  # noqa: E402

__all__ = ["BaseDocTemplate", "Flowable", "Frame", "FrameBreak", "KeepTogether", "LayoutError", "ListFlowable",
           "ListItem", "PageBreak", "PageTemplate", "Paragraph", "Spacer", "Table", "TableStyle"]
