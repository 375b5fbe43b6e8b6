"""Where a template runs: a data folder's template is text from anyone, so it gets no more than
the aid needs.

- An immutable sandbox (jinja2.sandbox.ImmutableSandboxedEnvironment): no attribute that starts
  with an underscore, no method that changes a list, dict or set (`words.messages.update(...)`
  is refused), so one render cannot change what the next one prints.
- Bounded: a render ends within TIME_LIMIT seconds (a loop within a loop, a template that
  includes itself) and writes at most MAX_TEXT characters; no single step may make a value
  past that (a string repeated or joined, a width of a billion, a power of a power, lipsum's
  paragraphs), checked before the step is taken, so nothing asks for gigabytes first; and all
  the values its steps make (every filter's, call's, operator's and join's result, each item
  of a lazy chain of filters as it is made) come to at most MAX_MADE characters in all, so a
  chain of steps each within the limit cannot fill memory either.  The time is checked by the
  sandbox itself at each step it takes for the template (a call, an operator, an attribute or
  item, a filter, a join, an include) and before each item of every loop, so a render that
  runs out of time stops at its next step, in its own thread, on any Python.
- Read warily (TemplateFiles): each template a regular file inside its folder (a link out of
  it is refused) of at most MAX_TEMPLATE_BYTES, UTF-8, and without control or bidirectional
  characters (an escape sequence would reach a terminal, a U+202E would reorder printed text).

A refusal is a RenderError, one line naming the template (and its line where Jinja knows it).
"""

import copy
import math
import os
import re
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from string import Formatter
from typing import Any, TypeVar

import jinja2
from jinja2.compiler import CodeGenerator, Frame
from jinja2.sandbox import ImmutableSandboxedEnvironment

from generator.data.toml_file import Unreadable, read_limited
from generator.errors import RenderError

TIME_LIMIT = 10.0               # seconds a render may take: the aid renders in well under one
MAX_TEXT = 4 << 20              # characters a render, or any value it makes, may hold
MAX_MADE = 4 << 20              # characters all the values of one render may make together (the aid: about 9,000)
LIPSUM_WORD = 16                # characters a word of lipsum's takes at most, its space and markup counted
# What an item of a list (tuple, dict, set) a render makes counts as towards MAX_MADE, beside its
# own text: the pointer to it and a small object such as a number take some 40 bytes, a
# character of text one to four.
ELEMENT = 32
MAX_COUNT = 100_000             # the largest whole number a filter or method is given (range's own limit)
MAX_BITS = 100_000              # the largest whole number a template may compute, in bits
MAX_TEMPLATE_BYTES = 1 << 20    # the shipped aid template is a few dozen KiB
_WIDTH = re.compile(r"\d{4,}|\*|\{")     # a width or precision of 1,000 or more, or one given at run time
_ALLOWED_CONTROLS = "\t\n\r"


class TemplateTimeout(BaseException):
    """Raised at a render's next step once it has run out of time (a BaseException, so no
    `except Exception` on the way, the template's or Jinja's, can swallow it)."""


class Refused(Exception):
    """A step of a render that would make a value past the limits (the message says which)."""


# -- time and what is made -----------------------------------------------------------------------

T = TypeVar("T")
# When the render under way in this thread (or task) must end: time.monotonic(), or never.
_DEADLINE: ContextVar[float] = ContextVar("template_deadline", default=math.inf)
# How many characters the values of the render under way have made so far (a one-item list, so
# the steps add to the render's own count), or None outside a render.
_MADE: ContextVar[list[int] | None] = ContextVar("template_made", default=None)


@contextmanager
def render_limits(seconds: float) -> Iterator[None]:
    """The body, a render: each of its template steps raises TemplateTimeout once it has run
    `seconds` (within any limit already running), and Refused once its values have made more
    than MAX_MADE characters in all (counted afresh for each render)."""
    token = _DEADLINE.set(min(_DEADLINE.get(), time.monotonic() + seconds))
    made_token = _MADE.set([0])
    try:
        yield
    finally:
        _MADE.reset(made_token)
        _DEADLINE.reset(token)


def made(value: T) -> T:
    """`value`, a step's result, counted towards what the render under way has made: Refused once
    that passes MAX_MADE."""
    count = _MADE.get()
    if count is not None:
        count[0] += _size(value, element=ELEMENT)
        if count[0] > MAX_MADE:
            raise Refused(f"the template's values would make more than {MAX_MADE:,} characters in all")
    return value


def on_time() -> None:
    """Raise TemplateTimeout if the render under way has run out of time."""
    if time.monotonic() > _DEADLINE.get():
        raise TemplateTimeout


def timed_items(items: Iterable[T]) -> Iterator[T]:
    """`items`, the time checked before each: what every {% for %} loops over (_Generator), so a
    loop whose body takes no step the sandbox sees still ends."""
    for item in items:
        on_time()
        yield item


# -- the sizes of values -------------------------------------------------------------------------

def _size(value: object, memo: dict[int, int] | None = None, depth: int = 0, element: int = 1) -> int:
    """About how many characters `value` takes as text: strings by length, containers by their
    elements (each distinct one measured once, and counted as `element` characters more),
    anything else as nothing; stops past MAX_TEXT."""
    if isinstance(value, str):
        return len(value)
    if not isinstance(value, (list, tuple, dict, set, frozenset)) or depth > 32:
        return 0
    memo = {} if memo is None else memo
    if id(value) in memo:
        return memo[id(value)]
    total = 0
    items: Iterable[object] = value.items() if isinstance(value, dict) else value
    for item in items:
        total += _size(item, memo, depth + 1, element) + element
        if total > MAX_TEXT:
            break
    memo[id(value)] = total
    return total


def _check_arguments(args: Iterable[object], what: str) -> None:
    """Refuse a call whose whole numbers pass MAX_COUNT, or whose text times any multiplier in it
    (a width, a count, a second string) would pass MAX_TEXT."""
    sizes, numbers = [], []
    for arg in args:
        if isinstance(arg, int) and not isinstance(arg, bool):
            if abs(arg) > MAX_COUNT:
                raise Refused(f"{what} was given {arg:,}, more than the {MAX_COUNT:,} a template may ask for")
            numbers.append(abs(arg))
        else:
            sizes.append(_size(arg))
    product = 1
    for factor in [*sizes, *numbers]:
        product *= max(factor, 1)
        if product > MAX_TEXT:
            raise Refused(f"{what} would make more than {MAX_TEXT:,} characters")


def _check_format(text: object, what: str) -> None:
    """Refuse a format string (printf or str.format) that asks for a width or precision of 1,000
    or more, or one given at run time."""
    if not isinstance(text, str):
        return
    if what == "%":
        specs = re.findall(r"%(?:\(\w*\))?[-#0 +]*([\d*.]*)", text)
    else:
        try:
            specs = [spec or "" for _, name, spec, _ in Formatter().parse(text) if name is not None]
        except ValueError:
            return      # str.format itself says what is wrong
    if any(_WIDTH.search(spec) for spec in specs):
        raise Refused(f"a format ({text[:40]!r}) asks for a width or precision of 1,000 or more")


def checked_join(parts: Iterable[object]) -> str:
    """The sandbox's concatenation (`~`, a {% set %} or {% filter %} block, a macro's output):
    refused before it is made if it would pass MAX_TEXT."""
    on_time()
    pieces = [p if isinstance(p, str) else str(p) for p in parts]
    if sum(map(len, pieces)) > MAX_TEXT:
        raise Refused(f"joining text would make more than {MAX_TEXT:,} characters")
    return made("".join(pieces))


def _bits(value: object) -> int:
    return value.bit_length() if isinstance(value, int) else 0


def _check_binop(operator: str, left: Any, right: Any) -> None:
    if operator == "**" and isinstance(right, int) and abs(right) > 1 and _bits(left) > 1 \
            and abs(right) * _bits(left) > MAX_BITS:
        raise Refused(f"a power ({_bits(left)} bits to the {right:,}) would pass {MAX_BITS:,} bits")
    if isinstance(left, int) and isinstance(right, int):
        if operator == "*" and _bits(left) + _bits(right) > MAX_BITS:
            raise Refused(f"a product would pass {MAX_BITS:,} bits")
        return
    if operator == "%":
        _check_format(left, "%")
    _check_arguments([left, right] if operator in "*%" else [], f"the {operator} of two values")
    if operator == "+" and _size(left) + _size(right) > MAX_TEXT:
        raise Refused(f"adding two values would make more than {MAX_TEXT:,} characters")


class TextBuffer(list[str]):
    """What a {% set %} or {% filter %} block or a macro writes, refused once past MAX_TEXT."""

    size = 0

    def append(self, text: str) -> None:
        self._add(len(text))
        super().append(text)

    def extend(self, texts: Iterable[str]) -> None:
        texts = list(texts)
        self._add(sum(map(len, texts)))
        super().extend(texts)

    def _add(self, size: int) -> None:
        self.size += size
        if self.size > MAX_TEXT:
            raise Refused(f"a block of the template would write more than {MAX_TEXT:,} characters")


class _Generator(CodeGenerator):
    """Jinja's code generator with `~` joined by the environment's checked join, each block's
    buffer a TextBuffer, and each loop over the environment's `timed` items."""

    def visit_For(self, node: jinja2.nodes.For, frame: Frame) -> None:
        timed_iter = jinja2.nodes.Call(jinja2.nodes.EnvironmentAttribute("timed"), [node.iter], [], None, None,
                                       lineno=node.iter.lineno)
        looped = copy.copy(node)        # the template's own tree stays as parsed
        looped.iter = timed_iter
        super().visit_For(looped, frame)

    def buffer(self, frame: Frame) -> None:
        frame.buffer = self.temporary_identifier()
        self.writeline(f"{frame.buffer} = environment.text_buffer()")

    def visit_Concat(self, node: jinja2.nodes.Concat, frame: Frame) -> None:
        self.write("environment.concat((")
        for arg in node.nodes:
            self.visit(arg, frame)
            self.write(", ")
        self.write("))")


class KitSandbox(ImmutableSandboxedEnvironment):
    """The immutable sandbox with every step that could make a large value checked first, and
    every step it takes for a template (each loop's items too) checked against the time limit."""

    code_generator_class = _Generator
    concat = staticmethod(checked_join)
    text_buffer = TextBuffer
    timed = staticmethod(timed_items)
    intercepted_binops = frozenset({"*", "**", "%", "+"})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.globals["lipsum"] = bounded_lipsum

    def call_binop(self, context: jinja2.runtime.Context, operator: str, left: Any, right: Any) -> Any:
        on_time()
        _check_binop(operator, left, right)
        return made(super().call_binop(context, operator, left, right))

    def getattr(self, obj: Any, attribute: str) -> Any:
        on_time()
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        on_time()
        return super().getitem(obj, argument)

    def get_template(self, *args: Any, **kwargs: Any) -> jinja2.Template:
        on_time()       # an {% include %}, {% import %} or {% extends %}
        return super().get_template(*args, **kwargs)

    # The kit's own callables, whose output is the catalogue's (its gettext), and the loops' `timed`,
    # whose output is its argument's items.
    trusted: tuple[Any, ...] = (timed_items,)

    def trust(self, *callables: Any) -> None:
        """Let `callables` be called unchecked: the kit's own, whose output is bounded by what
        they look up (a catalogue sentence), not by the product of their arguments."""
        self.trusted = (*self.trusted, *callables)

    def call(__self, __context: jinja2.runtime.Context, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        on_time()
        if any(__obj is known for known in __self.trusted):
            return made(super().call(__context, __obj, *args, **kwargs))
        bound = getattr(__obj, "__self__", None)
        _check_arguments([*([bound] if isinstance(bound, str) else []), *args, *kwargs.values()],
                         f"{getattr(__obj, '__name__', 'a call')}()")
        return made(super().call(__context, __obj, *args, **kwargs))

    def wrap_str_format(self, value: Any) -> Callable[..., str] | None:
        wrapped = super().wrap_str_format(value)
        if wrapped is None:
            return None
        text = value.__self__

        def checked(*args: Any, **kwargs: Any) -> str:
            _check_format(text, "format")
            _check_arguments([text, *args, *kwargs.values()], "format()")
            return made(wrapped(*args, **kwargs))
        return checked

    def checked_filters(self) -> None:
        """Every filter (Jinja's and the kit's) with its arguments checked as a call's are."""
        for name, function in list(self.filters.items()):
            self.filters[name] = _checked_filter(name, function)


def _checked_filter(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    import functools

    @functools.wraps(function)      # keeps Jinja's pass_context marks
    def checked(*args: Any, **kwargs: Any) -> Any:
        on_time()
        values = [a for a in args if not isinstance(a, (jinja2.runtime.Context, jinja2.nodes.EvalContext,
                                                         jinja2.Environment))]
        if name == "format" and values:
            _check_format(values[0], "%")
        _check_arguments([*values, *kwargs.values()], f"the {name} filter")
        return made(function(*args, **kwargs))
    return checked


def bounded_lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:
    """Jinja's lipsum(), its paragraphs and words checked first: n paragraphs of at most `max`
    words may not pass MAX_TEXT."""
    from jinja2.utils import generate_lorem_ipsum
    if n < 0 or min < 1 or max < min or n * max * LIPSUM_WORD > MAX_TEXT:
        raise Refused(f"lipsum({n:,}, max={max:,}) would make more than {MAX_TEXT:,} characters")
    return generate_lorem_ipsum(n, html, min, max)


# -- the files -----------------------------------------------------------------------------------

_BIDI = {"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI", "LRM", "RLM", "ALM"}


def unsafe_character(text: str) -> str | None:
    """The first control or bidirectional formatting character in `text`, if any.  Each distinct
    character is looked up once: a template's 17,000 characters are about a hundred letters."""
    unsafe = {ch for ch in set(text) if ch not in _ALLOWED_CONTROLS and (
        unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") or unicodedata.bidirectional(ch) in _BIDI)}
    return next((ch for ch in text if ch in unsafe), None) if unsafe else None


class TemplateFiles(jinja2.BaseLoader):
    """Templates from one folder, read as the module docstring says; `read` keeps the text of
    each as it was last read, by its name (what a render used: serve keeps a copy of them)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.read: dict[str, str] = {}

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        path = self.folder.joinpath(*jinja2.loaders.split_template_path(template))
        try:
            inside = path.resolve().is_relative_to(self.folder.resolve())
        except (OSError, RuntimeError):     # a loop of links
            inside = False
        if not os.path.lexists(path):
            raise jinja2.TemplateNotFound(template)
        if not inside:
            raise RenderError(f"{path}: a symbolic link that leads out of the templates folder {self.folder}")
        try:
            text = read_limited(path, MAX_TEMPLATE_BYTES).decode("utf-8")
            mtime = os.stat(path).st_mtime_ns
        except Unreadable as why:
            raise RenderError(f"{path}: {why}".replace("a data file", "a template")) from None
        except (UnicodeDecodeError, OSError):
            raise RenderError(f"{path}: not a UTF-8 text file") from None
        ch = unsafe_character(text)
        if ch is not None:
            number = text.count("\n", 0, text.index(ch)) + 1
            raise RenderError(f"{path}:{number}: holds the control character U+{ord(ch):04X}; "
                              f"a template is text to print")

        def uptodate() -> bool:
            try:
                return os.stat(path).st_mtime_ns == mtime
            except OSError:
                return False
        self.read[template] = text
        return text, str(path), uptodate
