"""Diagnostics: one error in a rule file, shown as a compiler would show it.

    house.rules:3:12: unknown resource 'knowlege'
        gain 2 knowlege
               ^^^^^^^^
    hint: did you mean 'knowledge'?
"""

from __future__ import annotations

import difflib
import re
from typing import Collection, Iterable

import attrs

from ..quoting import QUOTE, escape
from .ast import Span


INCOMPLETE = "incomplete"
"""The :attr:`Diagnostic.kind` of an error saying the rules lack what an installed game would
give them: they change what is not there (``override``/``extend``/``remove``) or have no flow
step. Given as a game of their own they may be house rules or a module (the CLI says how to
give them to a game)."""


_LONE_CR = re.compile(r"\r(?!\n)")


def as_read(text: str) -> str:
    """A rule file's text as the parser reads it, whose lines and columns every diagnostic
    counts: without a UTF-8 byte-order mark, a '\\r' alone (old Mac files) a line break
    ('\\r\\n' as written)."""
    return _LONE_CR.sub("\n", text.removeprefix("\ufeff"))


@attrs.frozen
class Diagnostic:
    """An error at ``span``: ``message``, an optional ``hint``, the file's text for display,
    and its ``kind`` for code that acts on a kind of error (:data:`INCOMPLETE`; '' for others)."""

    span: Span
    message: str
    hint: str = ""
    source: str = attrs.field(default="", eq=False, repr=False)
    kind: str = ""

    def format(self) -> str:
        """``file:line:column: message``, the source line, a caret under the span, the hint."""
        # (the file's name too: a record's house rule may be named with a terminal's escapes)
        lines = [f"{escape(str(self.span))}: {_clipped(escape(self.message))}"]
        # lines end at '\n' only (a '\r' alone read as one), as the parser counts them (not at a
        # form feed or U+2028)
        source = as_read(self.source)   # (a source given raw: its lines as the parser read them)
        text_lines = source.split("\n")
        if source and 0 < self.span.line <= len(text_lines):   # (no text: no line to show)
            line = text_lines[self.span.line - 1].removesuffix("\r")
            start = max(self.span.column - 1, 0)
            if len(line) > 200:  # show a window around the caret, not a huge line
                left = max(start - 60, 0)
                line = ("…" if left else "") + line[left:left + 160] + ("…" if left + 160 < len(line) else "")
                start = start - left + (1 if left else 0)
            if self.span.end_line == self.span.line and self.span.end_column > self.span.column:
                width = self.span.end_column - self.span.column
            else:
                width = max(len(line.rstrip()) - start, 1)
            width = min(width, len(line) - start)   # (no further than the line shown)
            # control characters shown escaped (a NUL or a bidi override never raw), the caret
            # under the escapes
            before, marked = escape(line[:start], keep_tabs=True), escape(line[start:start + width], keep_tabs=True)
            lines.append("    " + escape(line, keep_tabs=True))
            pad = "".join("\t" if c == "\t" else " " for c in before)  # under a tab, a tab
            lines.append("    " + pad + " " * max(start - len(line), 0) + "^" * max(len(marked), 1))
        if self.hint:
            lines.append(f"hint: {_clipped(escape(self.hint))}")
        return "\n".join(lines)

    __str__ = format


# a quoted name of more than QUOTE characters (a hostile file's: 400,000 'c's) is shown by its
# start; the engine's own quotes (a hint's example: 64 characters) stay whole
_LONG_QUOTE = re.compile(r"'([^'\n]{%d,})'" % (QUOTE + 1))


def _clipped(text: str) -> str:
    return _LONG_QUOTE.sub(lambda m: f"'{m.group(1)[:40]}…' ({len(m.group(1))} characters)", text)


HINT_LONGEST = 64
"""The longest word a 'did you mean' hint is sought for: difflib's comparison of two names takes
time in the product of their lengths (40 misspellings of 8,000-character names took 7 s), and a
name that long is no one's typing slip (the games' longest are 28 characters). A shorter word meets a much longer name in no time
(difflib rejects it by the lengths alone)."""


def did_you_mean(word: str, candidates: Iterable[str], nearest: int = 0) -> str:
    """A hint naming the closest candidate, or '' when nothing is close (or ``word`` is longer
    than :data:`HINT_LONGEST`); with ``nearest``, when nothing is close, the ``nearest``
    candidates nearest to it all the same (a change to a step the flow lacks: 'nosuch' is close
    to no step, and the steps there are are the help)."""
    if len(word) > HINT_LONGEST:
        return ""
    names = sorted(set(candidates))
    close = difflib.get_close_matches(word, names, n=1, cutoff=0.6)
    if close:
        return f"did you mean '{close[0]}'?"
    few = difflib.get_close_matches(word, names, n=nearest, cutoff=0) if nearest else []
    return f"none is close; the nearest: {', '.join(repr(n) for n in few)}" if few else ""


HINT_BUDGET = 50_000
"""How much the 'did you mean' hints of one check may compare in all, in candidate names of a
word of up to 10 characters (about 6 µs each on the machine measured; a longer word's cost by
the square of its length: a name of 64 characters counts 41 times, about 0.3-0.5 ms) with
:data:`HINT_CALL` more a hint: about half a second at most; the errors found past it have no such hint (a rule set's error compares a few hundred
names: the first hundred or so errors keep theirs). A hostile file's 45,000 misspellings against
9,000 resource names took more than ten minutes, each hint comparing every name."""
HINT_CALL = 10
"""What one hint costs besides its candidates, in candidate names (difflib's setup: ~60 µs)."""


class Hints:
    """:func:`did_you_mean` within :data:`HINT_BUDGET`: one per check (the checker, the merge),
    so a file of thousands of errors is checked in time linear in its size. Past the budget the
    candidates are not even listed (a generator is not run)."""

    __slots__ = ("left",)

    def __init__(self, budget: int | None = None) -> None:
        self.left = HINT_BUDGET if budget is None else budget

    def __call__(self, word: str, candidates: Iterable[str], nearest: int = 0) -> str:
        """:func:`did_you_mean` (``nearest``: its nearest names too, when none is close; a
        second comparison, charged so)."""
        if self.left <= 0:
            return ""
        pool = candidates if isinstance(candidates, Collection) else tuple(candidates)
        self.left -= (int(len(pool) * max(1.0, (len(word) / 10) ** 2)) + HINT_CALL) * (2 if nearest else 1)
        return did_you_mean(word, pool, nearest) if self.left >= 0 else ""
