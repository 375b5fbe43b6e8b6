"""A build as a graph of declared products: what the outputs share, each made once.

A Product is something a build works out and more than one output uses: the aid's text, the
pre-rolled rows, the counters' sheets, a part's PDF for a paper, the counter face images.  Each
is made by one function from the build's context and the products it names in `needs`; a
product made per paper is made once for each paper asked of it.  A build (Products) makes a
product the first time something asks for it, and keeps it to the build's end: an output
(make/outputs.py) names the products its file is made from, and asking for the outputs makes
what they need, each once, in this process.

A product's function is given a Made: the context, the paper it is made for, and the products
it named (asking for one it did not name is a mistake in the declaration, and says so).
"""

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from msgspec import Struct

from generator.content.context import BuildContext
from generator.content.rows import Table
from generator.layout.paper import PAPERS, Paper
from generator.layout.sheets import SheetPlan

if TYPE_CHECKING:       # the PDF library is imported only where the aid's PDF is made
    from generator.render.pdf.aid_pdf import AidDocument
    from generator.render.pdf.canvas import Pdf

T = TypeVar("T")
U = TypeVar("U")
T_co = TypeVar("T_co", covariant=True)


class Product(Struct, Generic[T_co], frozen=True, eq=False):
    """A thing a build makes once (once a paper, for a product made per paper) and shares; each
    product is itself alone (compared by identity), whatever its name."""
    name: str
    make: Callable[["Made"], T_co]
    needs: tuple["Product[Any]", ...] = ()
    per_paper: bool = False


class Made:
    """What a product's function reads: the build's context, the paper it is made for (None for a
    product made once a build) and the products it declared it needs."""

    def __init__(self, products: "Products", needs: tuple[Product[Any], ...], paper: Paper | None) -> None:
        self._products, self._needs = products, needs
        self.ctx: BuildContext = products.ctx
        self.paper = paper

    def __call__(self, product: Product[U], paper: Paper | None = None) -> U:
        """The product `product` of this build: for a product made per paper, on `paper`, or on
        the paper this one is made for."""
        if not any(product is need for need in self._needs):
            raise AssertionError(f"{product.name!r} is asked for but not declared among the needs")
        return self._products.get(product, paper if paper is not None else self.paper)

    @property
    def on(self) -> Paper:
        """The paper this product is made for (a product made per paper)."""
        assert self.paper is not None, "a product made once a build has no paper"
        return self.paper


class Products:
    """One build's products, each made on first need and kept to the build's end."""

    def __init__(self, ctx: BuildContext) -> None:
        self.ctx = ctx
        self._made: dict[tuple[int, str], Any] = {}

    def get(self, product: Product[T], paper: Paper | None = None) -> T:
        """`product` of this build (on `paper`, for one made per paper), made now if not yet."""
        if product.per_paper and paper is None:
            raise AssertionError(f"{product.name!r} is made per paper: say which")
        on = paper if product.per_paper else None
        key = (id(product), on.key if on is not None else "")
        if key not in self._made:
            self._made[key] = product.make(Made(self, product.needs, on))
        made: T = self._made[key]
        return made

    def take(self, product: Product[T], paper: Paper | None = None) -> T:
        """`product` as get() gives it, no longer kept by the build (an output's bytes, once
        written: nothing else asks for them)."""
        made = self.get(product, paper)
        on = paper if product.per_paper else None
        del self._made[(id(product), on.key if on is not None else "")]
        return made

    def made(self, needs: tuple[Product[Any], ...], paper: Paper | None) -> Made:
        """What a function of the build that is not a product (an output's stream or merge) reads."""
        return Made(self, needs, paper)


def needed(products: Mapping[str, Product[Any]] | tuple[Product[Any], ...]) -> list[Product[Any]]:
    """Every product `products` need, directly or not, each once, needs first."""
    order: list[Product[Any]] = []

    def visit(product: Product[Any]) -> None:
        if any(product is seen for seen in order):
            return
        for need in product.needs:
            visit(need)
        order.append(product)
    for product in (products.values() if isinstance(products, Mapping) else products):
        visit(product)
    return order


# -- what the outputs share ----------------------------------------------------------------------
# Each product's function imports what it draws with when it is made: `bailout --help` loads no
# reportlab, and a build loads only what its outputs need.

def _aid_text(made: Made) -> str:
    from generator.content.aid import markdown_text
    return markdown_text(made.ctx)


def _aid_document(made: Made) -> "AidDocument":
    from generator.render.pdf.aid_pdf import parse
    return parse(made.ctx, made(AID_TEXT))


def _rows(made: Made) -> Table:
    """The pre-rolled rows: as many as asked, else whole pages of the tables' layout."""
    from generator.content.rows import table_for
    if made.ctx.options.rows is not None:
        return table_for(made.ctx)
    from generator.render.pdf.prerolled_pdf import default_rows
    return table_for(made.ctx, default_rows(made.ctx))


def _counter_sheets(made: Made) -> SheetPlan:
    from generator.content.faces import build_counters
    from generator.layout.sheets import sheet_plan
    return sheet_plan(made.on, made.ctx.options, lambda more: build_counters(made.ctx, more))


def _counters_pdf(made: Made) -> bytes:
    from generator.render.pdf.counters_pdf import render
    return render(made.ctx, made.on, made(COUNTER_SHEETS))


def _face_images(made: Made) -> dict[str, bytes]:
    from generator.render.images import FACE_PAPER, face_images
    paper = PAPERS[FACE_PAPER]      # counters keep their size on any paper: the faces come from one
    return face_images(made.ctx.options, made(COUNTER_SHEETS, paper), made(COUNTERS_PDF, paper))


def _aid_pdf(made: Made) -> "Pdf":
    from generator.render.pdf.aid_pdf import render
    return render(made.ctx, made.on, made(AID_DOCUMENT))


def _row_cards(made: Made) -> dict[str, bytes]:
    from generator.content.digital import CARD_BACK, card_name, cards
    from generator.render.images import card_images
    from generator.render.pdf.cards_pdf import CARD_DPI, card_pdf
    deck = cards(made.ctx, made(ROWS))
    names = [card_name(card.row, len(deck)) for card in deck] + [CARD_BACK]
    return card_images(card_pdf(made.ctx, deck), CARD_DPI, names)


def _aid_pages(made: Made) -> dict[str, bytes]:
    from generator.content.digital import aid_page_name
    from generator.render.images import page_images
    from generator.render.vassal import CHART_DPI
    pdf = made(AID_PDF, PAPERS[made.ctx.options.papers[0]])     # the build's first paper
    return page_images(pdf, CHART_DPI, [aid_page_name(n) for n in range(1, pdf.pages + 1)])


def _screen_faces(made: Made) -> dict[str, bytes]:
    from generator.render.images import FACE_PAPER, face_images
    from generator.render.vassal import SCREEN_DPI
    paper = PAPERS[FACE_PAPER]
    return face_images(made.ctx.options, made(COUNTER_SHEETS, paper), made(COUNTERS_PDF, paper), SCREEN_DPI)


AID_TEXT: Product[str] = Product("the aid's text", _aid_text)
# the aid's text parsed for its PDF (render/pdf/aid_pdf.py AidDocument): laid out on each paper
AID_DOCUMENT: "Product[AidDocument]" = Product("the aid's document", _aid_document, needs=(AID_TEXT,))
ROWS: Product[Table] = Product("the pre-rolled rows", _rows)
COUNTER_SHEETS: Product[SheetPlan] = Product("the counter sheets", _counter_sheets, per_paper=True)
COUNTERS_PDF: Product[bytes] = Product("the counters' PDF", _counters_pdf, needs=(COUNTER_SHEETS,), per_paper=True)
# every distinct counter face as a PNG at cut size, by its file name (faces/NAT-KIND-SIDE.png)
FACE_IMAGES: Product[dict[str, bytes]] = Product("the counter face images", _face_images,
                                                 needs=(COUNTER_SHEETS, COUNTERS_PDF))
# the player aid's PDF on a paper (the aid's file, and the digital tables' pages of it)
AID_PDF: "Product[Pdf]" = Product("the aid's PDF", _aid_pdf, needs=(AID_DOCUMENT,), per_paper=True)
# each pre-rolled row of a digital deck as a card image (rows/row-N.png), and their back (rows/back.png)
ROW_CARDS: Product[dict[str, bytes]] = Product("the rows as cards", _row_cards, needs=(ROWS,))
# the aid's pages as images (aid/page-N.png), for a VASSAL chart window
AID_PAGES: Product[dict[str, bytes]] = Product("the aid's pages as images", _aid_pages, needs=(AID_PDF,))
# the face images at the size a screen shows them at 100% (a VASSAL piece)
SCREEN_FACES: Product[dict[str, bytes]] = Product("the face images for a screen", _screen_faces,
                                                  needs=(COUNTER_SHEETS, COUNTERS_PDF))
