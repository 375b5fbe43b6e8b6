"""pypdf as the kit uses it: on PDFs of its own, never encrypted, so without a crypto provider.

On import pypdf loads the first crypto library it finds (cryptography, else pycryptodome) for
encrypted files: with cryptography installed that is a third of pypdf's import time (37 of 77 ms
measured), paid by every build that merges a kit.  The providers' modules are hidden while pypdf
is imported (a None in sys.modules is an ImportError), so it takes its own fallback, and put
back after: anything else in the process that imports cryptography still gets it.
"""

import sys

_PROVIDERS = ("pypdf._crypt_providers._cryptography", "pypdf._crypt_providers._pycryptodome")


def _import_plain() -> None:
    hidden = [name for name in _PROVIDERS if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None        # type: ignore[assignment]
    try:
        import pypdf  # noqa: F401
    finally:
        for name in hidden:
            if name in sys.modules and sys.modules[name] is None:
                del sys.modules[name]


_import_plain()

from pypdf import PdfReader, PdfWriter  # noqa: E402

__all__ = ["PdfReader", "PdfWriter"]
