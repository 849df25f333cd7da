"""Quoting user text in error messages: every value, action or line a message echoes goes
through :func:`escape` (control characters such as NUL shown as escapes, never raw) and is
shortened (a hostile record's line may be huge). Also the reading of whole numbers in such
text (:func:`read_whole`), the reverse of :func:`format_value` for a number, of whole numbers
given from Python (:func:`as_int`), and of a move's words (:func:`move_words`)."""

from __future__ import annotations

import operator
import re
import reprlib

QUOTE = 100
"""Error messages quote what they were given at most about this long."""
MESSAGE = 1000
"""A broken rule's message (a rule file's ``require`` text, one the engine composed) is shown at
most about this long (the rules' own run to about 300 characters)."""

_CONTROL = {c: f"\\x{c:02x}" for c in [*range(0x20), 0x7f]} | {
    ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"}
_CONTROL.update({c: f"\\x{c:02x}" for c in range(0x80, 0xa0)})
_CONTROL.update({c: f"\\u{c:04x}" for c in (0x2028, 0x2029, 0x200e, 0x200f, *range(0x202a, 0x202f),
                                              *range(0x2066, 0x206a))})


# the other Unicode format characters (category Cf): invisible, so a name holding one ('re\u200bap')
# looked like another in a message ("re​ap is not a possible c (one of: sow, reap, ...)") and a caret
# under a line holding one stood a place off; shown as escapes, but a rules text may hold them (a
# zero-width joiner or non-joiner is part of some words and emoji)
_FORMAT = {c: f"\\u{c:04x}" if c <= 0xffff else f"\\U{c:08x}" for c in (
    0xad, *range(0x600, 0x606), 0x61c, 0x6dd, 0x70f, 0x890, 0x891, 0x8e2, 0x180e, *range(0x200b, 0x200e),
    *range(0x2060, 0x2065), *range(0x206a, 0x2070), 0xfeff, *range(0xfff9, 0xfffc), 0x110bd, 0x110cd,
    *range(0x13430, 0x13440), *range(0x1bca0, 0x1bca4), *range(0x1d173, 0x1d17b), 0xe0001,
    *range(0xe0020, 0xe0080))}
# the spaces other than ' ' (category Zs: no-break, em, ideographic...): a move's words split on
# ' ' and tabs only, so 'p1 buy\u00a0reap' named the action 'buy\u00a0reap', which a message showed
# as "'buy reap' is not an action of 'pick' (there: buy, study)"
_SPACES = {c: f"\\u{c:04x}" for c in (0xa0, 0x1680, *range(0x2000, 0x200b), 0x202f, 0x205f, 0x3000)}
# UTF-16 surrogates alone (a JSON escape "\ud800", Python's surrogateescape of a byte that is not
# UTF-8): not characters, and no UTF-8 writer encodes them (a message holding one could not be
# printed)
_SURROGATES = {c: f"\\u{c:04x}" for c in range(0xd800, 0xe000)}
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_SHOWN = _CONTROL | _FORMAT | _SPACES | _SURROGATES
_SHOWN_BUT_TAB = {c: e for c, e in _SHOWN.items() if c != ord("\t")}


def counted(n: int | float, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1: ``counted(1, "action")`` is
    ``"1 action"``, ``counted(3, "more error")`` is ``"3 more errors"``; a float (a median)
    as ``:g`` writes it (``counted(1.0, "round")`` is ``"1 round"``, 2.5 ``"2.5 rounds"``)."""
    return f"{f'{n:g}' if isinstance(n, float) else n} {noun}{'' if n == 1 else 's'}"


def escape(text: str, *, keep_tabs: bool = False) -> str:
    """``text`` with control characters (C0, DEL, C1, line separators and bidirectional
    overrides, which could fake or hide the message around them) and the other invisible format
    characters (a zero-width space, a soft hyphen) and lone surrogates as escapes: ``\\x00``,
    ``\\n``, ``\\u202e``, ``\\u200b``, ``\\ud800``, and the spaces other than ``' '`` (a no-break
    space ``\\u00a0``: a move's words split on ' ' and tabs only); everything else as given
    (``keep_tabs``: tabs too, for a quoted source line whose caret line copies them)."""
    return text.translate(_SHOWN_BUT_TAB if keep_tabs else _SHOWN)


def lone_surrogate(text: str) -> int | None:
    """The index of the first lone surrogate in ``text`` (``"\\ud800"``: not a character, so
    ``text`` is not Unicode and cannot be written as UTF-8), or None."""
    found = _LONE_SURROGATE.search(text)
    return None if found is None else found.start()


_SHOWN_BUT_LINES = {c: e for c, e in (_CONTROL | _SURROGATES).items() if c not in (ord("\n"), ord("\t"))}
_UNPRINTABLE = re.compile("[" + "".join(map(re.escape, map(chr, _SHOWN_BUT_LINES))) + "]")


def printable(text: str) -> str:
    """``text`` with its lone surrogates (``\\ud800``: no UTF-8 writer encodes them) and its
    control characters other than line breaks and tabs (a terminal's escape ``\\x1b``, a
    bidirectional override ``\\u202e``, which could fake or hide the message around them) as
    escapes, the rest as it is: what every error message is, so that it can be printed (a house
    rule named with a terminal's escapes, in a record, coloured the terminal)."""
    return text if _UNPRINTABLE.search(text) is None else text.translate(_SHOWN_BUT_LINES)


def control_character(text: str) -> str | None:
    """The first control character of ``text`` other than a tab (as :func:`escape` lists them,
    less the format characters a text may hold), or None."""
    return next((ch for ch in text if ord(ch) in _CONTROL and ch != "\t"), None)


def format_value(v: object) -> str:
    """A rules value as the rules and action texts write it: a text as it is, ``none``,
    ``true``/``false``, a list's elements joined by commas (``a1,a2``), anything else (a
    number, an entity) by ``str``."""
    if type(v) is str:   # (the common case first)
        return v
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, tuple):
        return ",".join(format_value(x) for x in v)
    return str(v)


_WHOLE = re.compile(r"0|-?[1-9][0-9]{0,3999}")


def read_whole(text: str) -> int | None:
    """``text`` as a whole number when it is written as :func:`format_value` writes one: ASCII
    digits, a ``-`` first for a negative one (``12``, ``-3``), no leading zero; else None.
    (``str.isdigit`` also admits digits ``int`` refuses, ``'²'``, and ``int`` reads what no
    action text or option writes: ``'٣'``, ``'1_0'``, ``'+2'``, ``' 2'``, ``'007'``, ``'-0'``,
    and refuses over 4300 digits. Records are hostile input: ``p01`` read as ``p1`` gave one
    move two texts.)"""
    return int(text) if _WHOLE.fullmatch(text) else None


def excerpt(line: str, column: int, width: int = 60) -> tuple[str, int]:
    """The part of ``line`` around its 1-based ``column``, for a message that puts a caret under
    it: escaped (:func:`escape`: a record's line may hold control characters or terminal
    escape sequences), at most about ``width`` characters of it with ``...`` where it is cut
    (a hostile line may be megabytes long); and the caret's 0-based place in it."""
    i = min(max(column - 1, 0), len(line))
    lo = max(0, i - width)
    cells = [escape(c) for c in line[lo:i + width]]   # (a bounded slice: each cell is short)
    at = a = b = i - lo
    size = 0
    for share in (width // 3, width):   # (a third before the caret, the rest after, then before)
        while a > 0 and size + len(cells[a - 1]) <= share:
            a -= 1
            size += len(cells[a])
        while b < len(cells) and size + len(cells[b]) <= width:
            size += len(cells[b])
            b += 1
    before = ("..." if lo + a else "") + "".join(cells[a:at])
    return before + "".join(cells[at:b]) + ("..." if lo + b < len(line) else ""), len(before)


_MOVE_WORD = re.compile(r"[^ \t]+")


def move_words(text: str) -> list[str]:
    """The words of a move's text, split on spaces and tabs only: ``str.split()`` also splits
    on vertical tab, form feed, NEL, no-break space, the line separators... (in a record or a
    typed move those are part of a word, and refused with it, not read as another move)."""
    return _MOVE_WORD.findall(text)


SHOWN_DIGITS = 40
"""A whole number of more digits is shown in a message by its count of digits."""


def digit_count(n: int) -> int:
    """How many decimal digits ``n`` has (its sign aside), without ``str`` (which refuses
    numbers of more than 4300 digits with a ValueError: a 5000-digit option value given from
    Python raised it out of an error message)."""
    n = abs(n)
    if n < 10 ** SHOWN_DIGITS:
        return len(str(n))
    d = int((n.bit_length() - 1) * 0.30102999566398120)   # (log10 of 2: a lower bound, or one short)
    while n >= 10 ** (d + 1):
        d += 1
    return d + 1


def brief_number(n: int) -> str:
    """``n`` as written, or for more than :data:`SHOWN_DIGITS` digits 'a number of N digits'."""
    return str(n) if abs(n) < 10 ** SHOWN_DIGITS else f"a number of {digit_count(n)} digits"


def brief_value(v: object, limit: int = QUOTE // 2, depth: int = 0) -> str:
    """:func:`format_value` of ``v`` for an error message: at most about ``limit`` characters,
    its start and ``...`` (never formats more of a long or deep list than it shows)."""
    if isinstance(v, (tuple, list)):   # (a list: from Python, never the rules; maybe deep or cyclic)
        if depth > 3:
            return "..."
        parts: list[str] = []
        size = 0
        for x in v:
            if size > limit or len(parts) >= limit:
                parts.append("...")
                break
            text = brief_value(x, max(8, limit - size), depth + 1)
            parts.append(text)
            size += len(text) + 1
        text = ",".join(parts)
    elif isinstance(v, int) and not isinstance(v, bool):
        text = brief_number(v)
    elif v is None or isinstance(v, (str, int)):
        text = format_value(v) if not isinstance(v, str) else v
    else:   # (not a rules value: a dict, a set, ... given from Python, shown in bounded depth)
        text = reprlib.repr(v)
    text = escape(text)
    return text if len(text) <= limit else text[:max(0, limit - 3)] + "..."


def rules_value(v: object, limit: int = QUOTE // 2, depth: int = 0) -> str:
    """A value the rules computed, for a message about it, as the rules language writes it:
    ``none``, ``true``/``false``, a number, a text or name in quotes (``'a1'``), a list in
    brackets (``[1, 'a1', none]``); at most about ``limit`` characters, lists at most four
    deep (a Python tuple or ``None`` never shows)."""
    if isinstance(v, str):
        return f"'{brief_value(v, max(8, limit - 2))}'"
    if not isinstance(v, (tuple, list)):
        return brief_value(v, limit)
    if depth > 3:   # (a list from Python may be deep or hold itself)
        return "[...]"
    parts: list[str] = []
    size = 0
    for x in v:
        if size > limit:
            parts.append("...")
            break
        parts.append(rules_value(x, max(8, limit - size), depth + 1))
        size += len(parts[-1]) + 2
    return "[" + ", ".join(parts) + "]"


def as_int(value: object) -> int | None:
    """``value`` as an int when it is a whole number given from Python: an int or any integer
    type ``operator.index`` reads, as NumPy's (``np.int64(2)`` was refused as a player or
    seed, and as an action's argument written ``2`` where ``p3`` was meant); not a bool. Else
    None."""
    if type(value) is int:
        return value
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)   # type: ignore[arg-type]
    except TypeError:
        return None


def check_int(value: object, what: str) -> int:
    """``value`` as an int (:func:`as_int`), else a ``TypeError`` naming ``what``: the public
    API's rule for a whole number given from Python is ``TypeError`` for another type (a text,
    a float, a bool) and ``ValueError`` for a number out of range."""
    number = as_int(value)
    if number is None:
        raise TypeError(f"{what} must be a whole number (an int), not {brief_text(value, 40)}")
    return number


def check_count(value: object, what: str, least: int) -> int:
    """``value`` as an int (:func:`as_int`) if it is a whole number of at least ``least``, else
    a ``TypeError`` (another type) or ``ValueError`` (a smaller number) naming ``what`` (a count
    or bound given from Python: a text or a negative number failed far from where it was
    given, or was taken without a word)."""
    number = check_int(value, what)
    if number < least:
        raise ValueError(f"{what} must be a whole number of at least {least}, not {number}")
    return number


def brief_text(text: object, limit: int = QUOTE) -> str:
    """``repr(text)`` for an error message, at most about ``limit`` characters (a text's
    escapes counted: 60 control characters are 240 of them) and its length when cut."""
    if isinstance(text, str) and len(text) > limit:
        shown = repr(text[:limit])
        cut = shown[:limit] + "..." if len(shown) > limit + 2 else shown + "..."
        return cut + f" ({len(text)} characters)"
    shown = repr(text)
    return shown if len(shown) <= limit else shown[:limit] + "..."


