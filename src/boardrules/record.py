"""Records: how a game came to be — ruleset recipe, seed and the list of actions.

A saved game is its record; a state is derived by replay. Chance outcomes are in
the action list too (``chance LABEL VALUE``), so a replay never depends on
reproducing a random number generator.
"""

from __future__ import annotations

import json
import json.decoder
import operator
import re
import sys
from collections import Counter
from pathlib import Path
from functools import partial
from collections.abc import Callable
from typing import Any

import attrs

from .limits import LIMITS, in_bytes, raise_with
from .errors import NotationError
from .files import not_readable, read_bounded
from .quoting import as_int, brief_text, brief_value, lone_surrogate
from .jsonshape import (JSON_VALUE, Expected, ShapeError, elements, exact, json_value, listed, mapped,
                        strict_converter, structure, whole)

FORMAT = "boardrules-record/1"


def _file_name_hint(text: str | bytes) -> str:
    """For a record's text that is no JSON but one line ending in ``.json``, as a file's name is:
    that the text is wanted, else ``""`` (``load_game("game.json")`` said only "it is not JSON:
    expecting value at line 1, column 1")."""
    if not isinstance(text, str) or "\n" in text.strip() or not text.strip().lower().endswith(".json"):
        return ""
    return ("; this reads a record's text, not a file's name: give the file's text "
            "(pathlib.Path(name).read_text()), or replay the file with boardrules.replay.replay_file(name)")

_scanstring: Callable[[str, int, bool], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
"""json's own (C) reading of one JSON text from after its opening quote: (the text, where it ends)."""

SEED_RANGE = (-2 ** 63, 2 ** 63 - 1)
"""Whole-number seeds are 64-bit: the range simulation results store (a Parquet column of 64-bit
numbers) and learning toolkits pass; a 400-digit seed read from a record was taken before."""
MAX_SEED_TEXT = 200
"""Most characters of a text seed (a name or a phrase: it is hashed, so more adds nothing but
size to records and messages)."""
SEED_EXPECTED = (f"a whole number (from -2^63 to 2^63-1) or a text (at most {MAX_SEED_TEXT} characters, "
                 f"no lone surrogate)")


def read_json(text: str | bytes) -> Any:
    """``text`` parsed as JSON. Raises :class:`~boardrules.errors.NotationError` saying why
    not in the terms of the file (JSON's own message, with its line and column), not of Python:
    a number longer than Python reads named ``sys.set_int_max_str_digits()``, and arrays nested
    beyond its recursion limit 'maximum recursion depth exceeded'; bytes that are not UTF-8 (nor
    UTF-16 or -32, which JSON reads too) are said so; a text's leading byte-order mark is read
    past, as in a file's bytes; an object giving a key twice is refused, and so is a
    Python pickle (a pickled game), which is never unpickled: loading a pickle runs code it
    names. ``TypeError`` for a value that is neither a str nor bytes (``None``, a ``Game``)."""
    if not isinstance(text, (str, bytes, bytearray)):
        hint = ": give game.save()" if callable(getattr(text, "save", None)) else ""
        raise TypeError(f"a record is JSON text (a str, as Game.save() writes it), not "
                        f"{type(text).__name__}{hint}")
    if isinstance(text, (bytes, bytearray)) and _pickled(text):
        raise NotationError("it is a Python pickle, not a record's JSON text; boardrules never "
                            "unpickles (a pickle runs code as it loads): give Game.save()'s text")
    try:
        if isinstance(text, (bytes, bytearray)):   # (as json.loads reads bytes: UTF-8, -16 or -32)
            text = text.decode(json.detect_encoding(text), "surrogatepass")
        text = text.removeprefix("\ufeff")   # (a byte-order mark: JSON reads a file's bytes past it)
        most = LIMITS.max_moves + LIMITS.max_record_elements
        if elements_passing(text, most):
            if moves_passing(text, LIMITS.max_moves, LIMITS.max_record_elements):
                raise NotationError(f"its $.actions holds more than {LIMITS.max_moves} moves, the most a "
                                    f"game may have ({raise_with('max_moves')})")
            raise NotationError(f"it holds more than {LIMITS.max_record_elements} elements (list items "
                                f"and mapping entries) besides its moves, the most a record may "
                                f"({raise_with('max_record_elements')})")
        return json.loads(text, object_pairs_hook=_keys_once)
    except NotationError:
        raise
    except RecursionError:
        raise NotationError(f"its arrays and objects are nested deeper than can be read: more "
                            f"than about {sys.getrecursionlimit()} levels") from None
    except json.JSONDecodeError as err:   # (in the file's terms: no 'char 0', an empty file said)
        said = err.msg.removesuffix(" at")   # ('unterminated string starting at': the place follows)
        raise NotationError("it is empty" if not text.strip() else f"it is not JSON: {said[:1].lower()}"
                            f"{said[1:]} at line {err.lineno}, column {err.colno}") from None
    except UnicodeDecodeError as err:   # (bytes, a ValueError too: it said 'more than 4300 digits')
        raise NotationError(not_readable(err)) from None
    except ValueError:   # (the only other: a number longer than int() reads)
        raise NotationError(f"it holds a number of more than {sys.get_int_max_str_digits()} digits") from None


class RecordFileError(NotationError):
    """Why a record file could not be read (:func:`read_record_file`); ``text``: its bytes as
    far as they were read (a caller's hint may tell what else the file is)."""

    def __init__(self, message: str, text: bytes) -> None:
        super().__init__(message)
        self.text = text


def read_record_file(path: str | Path) -> Any:
    """The JSON of the record file ``path``, as :func:`read_json` reads it, of which at most
    ``LIMITS.max_record_bytes`` bytes are read (``/dev/zero`` and pipes: see
    :func:`~boardrules.files.read_bounded`): boardrules' records and other sites' read by
    plugins. Raises ``OSError`` for a file that cannot be read, and :class:`RecordFileError`
    for one too large or no JSON, saying why in words to put after the file's name."""
    text, _ = read_bounded(path, LIMITS.max_record_bytes + 1)   # (not all of /dev/zero)
    if len(text) > LIMITS.max_record_bytes:
        raise RecordFileError(f"a record file is at most {in_bytes(LIMITS.max_record_bytes)}: "
                              f"{raise_with('max_record_bytes')}", text)
    try:
        return read_json(text)
    except NotationError as err:
        raise RecordFileError(str(err), text) from None


def elements_passing(text: str, most: int) -> bool:
    """Whether the JSON ``text`` holds more than ``most`` elements (a list's items, a mapping's
    entries, at every depth), counted before it is parsed (a parse costs some 1 µs and 200
    bytes an element) as its commas and opening brackets outside its texts, an upper bound:
    from the whole text when that is within ``most`` (a few ms for 10 MB), else text by text
    (``json``'s own scanner), stopping once past ``most``. Text that is no JSON (a text that
    does not end, more texts than a JSON of its elements holds) is left to the parse to name."""
    count = text.count
    if count(",") + count("[") + count("{") <= most:
        return False
    n = pos = texts = 0
    while n <= most and texts <= 2 * n + 1:   # (a key and a value for each element, or one text)
        quote = text.find('"', pos)
        end = len(text) if quote < 0 else quote
        n += count(",", pos, end) + count("[", pos, end) + count("{", pos, end)
        if quote < 0:
            break
        texts += 1
        try:
            pos = _scanstring(text, quote + 1, False)[1]
        except ValueError:
            break
    return n > most


_STRUCTURE = re.compile(r'[\[\]{},"]')


def moves_passing(text: str, moves: int, others: int) -> bool:
    """For JSON ``text`` holding more than ``moves + others`` elements (:func:`elements_passing`):
    whether the list under its top-level key ``actions`` (a record's moves) holds more than
    ``moves`` of them before ``moves + others`` elements in all are counted (else the others
    passed ``others`` first), counted as there: commas and opening brackets outside texts."""
    depth = n_moves = n_others = pos = 0
    key, in_moves = None, False
    search = _STRUCTURE.search
    while n_moves <= moves and n_moves + n_others <= moves + others:
        found = search(text, pos)
        if found is None:
            break
        c, pos = found.group(), found.end()
        if c == '"':
            try:
                name, pos = _scanstring(text, pos, False)
            except ValueError:
                break
            key = name if depth == 1 else key   # (the text before a value at depth 1 is its key)
        elif c in "[{":
            depth += 1
            in_moves = in_moves or (depth == 2 and c == "[" and key == "actions")
            if in_moves and depth == 2:
                n_moves += 1
            else:
                n_others += 1
        elif c == ",":
            if in_moves and depth == 2:
                n_moves += 1
            else:
                n_others += 1
        else:
            depth -= 1
            in_moves = in_moves and depth >= 2
    return n_moves > moves


def _pickled(data: bytes | bytearray) -> bool:
    """Whether ``data`` begins as a pickle of protocol 2 or later does (``\\x80`` and the
    protocol: no JSON text, in any encoding JSON reads, begins so)."""
    return len(data) > 1 and data[0] == 0x80 and 2 <= data[1] <= 5


def _keys_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object as a dict, refusing one that gives a key twice: JSON readers differ on which
    of the two counts (Python's the last), so a record read here would be another game elsewhere
    (a second "players" made a 2-player record replay as 3 players, failing at move 2)."""
    obj = dict(pairs)
    if len(obj) < len(pairs):
        twice = next(k for k, n in Counter(k for k, _ in pairs).items() if n > 1)
        raise NotationError(f"an object gives the key {brief_text(twice, 60)} twice; JSON readers "
                            f"differ on which one counts")
    return obj


def seed_ok(seed: Any) -> bool:
    """Whether ``seed`` is a seed the engine takes (:data:`SEED_EXPECTED`)."""
    if isinstance(seed, str):
        return len(seed) <= MAX_SEED_TEXT and lone_surrogate(seed) is None
    return whole(seed) and SEED_RANGE[0] <= seed <= SEED_RANGE[1]


def check_seed(seed: Any, name: str = "seed") -> int | str:
    """``seed`` (a whole number as an int: :func:`~boardrules.quoting.as_int`) if it is
    :data:`SEED_EXPECTED`, else ``TypeError`` for another type, ``ValueError`` for a number
    out of range or a text too long (``name`` says which argument)."""
    if not isinstance(seed, str):
        number = as_int(seed)
        if number is None:
            raise TypeError(f"{name} must be a whole number or a text, not {brief_text(seed, 40)}")
        seed = number
    if not seed_ok(seed):
        raise ValueError(f"{name} {brief_value(seed, 40)}: expected {SEED_EXPECTED}")
    return seed  # type: ignore[no-any-return]


@attrs.frozen
class Source:
    """One rule file a game's rules were built from, as its record keeps it: ``layer``, one of
    :data:`LAYERS`; ``name``, the game, module id or plugin that gave it ("" for ``texts``
    and house rules); ``file``, its file name (with the folders before it that tell it from
    another file of that name of its owner; the path given, for ``texts`` and house rules);
    ``digest``, the first 16 hexadecimal digits of the SHA-256 of its text (UTF-8)."""

    layer: str
    name: str
    file: str
    digest: str


LAYERS = ("game", "module", "plugin", "texts", "house")
"""Where a rule file comes from: the game's own files, a module's, a plugin's
``boardrules_rule_files`` hook, rule texts given as the game, house rules."""


@attrs.define
class Record:
    """``game`` (None for rules given as ``texts``), ``modules``, ``options``, ``players``,
    ``seed``, house ``rules`` and base ``texts`` as ((path, text), ...), ``actions``
    (canonical action texts, in order), ``final`` and ``ruleset`` (the state's digest and the
    rules' id when saved) and ``sources``: every rule file the rules were built from
    (:class:`Source`; empty in a record saved before they were kept)."""

    game: str | None
    modules: tuple[str, ...]
    options: dict[str, Any]
    players: int
    seed: int | str
    rules: tuple[tuple[str, str], ...] = ()
    texts: tuple[tuple[str, str], ...] = ()
    actions: list[str] = attrs.field(factory=list)
    final: str | None = None  # State.digest() after the last action, when saved
    ruleset: str | None = None  # Ruleset.id of the rules that wrote it
    sources: tuple[Source, ...] = ()  # Ruleset.sources of those rules

    def checked(self) -> "Record":
        """This record held to the shape of one read from a file (:meth:`from_json`'s
        :class:`~boardrules.errors.NotationError` naming each field of the wrong type), for a
        record built in Python: ``modules="weather"`` was read as its letters,
        ``rules="x"`` failed unpacking it; an option's value that no JSON holds, a ``set``,
        was refused only when the game was built. Tuples stand for the file's lists."""
        def as_read(v: Any, pairs: bool = False) -> Any:
            if not isinstance(v, (tuple, list)):
                return v
            return [list(x) if pairs and isinstance(x, tuple) else x for x in v]
        fields = {f.name: getattr(self, f.name) for f in attrs.fields(Record)}
        sources = [attrs.asdict(v) if isinstance(v, Source) else v for v in fields["sources"]] \
            if isinstance(fields["sources"], (tuple, list)) else fields["sources"]
        return Record.from_json({"format": FORMAT, **fields, "sources": sources, **{
            name: as_read(fields[name], pairs=name in ("rules", "texts"))
            for name in ("modules", "rules", "texts", "actions")}})

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, **_converter.unstructure(self)}

    def dumps(self, compact: bool = False) -> str:
        """JSON text, indented (``compact``: on one line without spaces)."""
        if compact:
            return json.dumps(self.to_json(), separators=(",", ":"))
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def loads(cls, text: str) -> "Record":
        """Read :meth:`dumps` output (a str, or its bytes; never a pickle). Raises
        :class:`~boardrules.errors.NotationError`, ``TypeError`` for neither (``None``)."""
        try:
            data = read_json(text)
        except NotationError as err:
            raise NotationError(f"cannot read a boardrules record: {err}{_file_name_hint(text)}") from None
        return cls.from_json(data)

    @classmethod
    def from_json(cls, data: Any) -> "Record":
        """The record a parsed :meth:`to_json` holds. Raises
        :class:`~boardrules.errors.NotationError` naming each field of the wrong type (as a
        path, ``$.players``), the value found and what was expected."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            other = isinstance(data, dict) and "format" not in data
            raise NotationError(f"not a boardrules record (expected format {FORMAT!r})"
                                + ("; another site's game log is read from its file by "
                                   "boardrules.replay.replay_file(path) ('boardrules replay FILE'), "
                                   "when a plugin reads its kind" if other else ""))
        data = {k: v for k, v in data.items() if k != "format"}
        if "actions" not in data:   # (a file that lost its moves replayed as a game of none)
            raise NotationError("malformed boardrules record: $.actions: missing "
                                "(the moves in order; [] for a game not begun)")
        _counted(data)
        try:
            record = structure(_converter, data, cls)
        except ShapeError as err:
            raise NotationError(f"malformed boardrules record: {err}") from None
        if record.game is None and not record.texts:
            raise NotationError("malformed boardrules record: $.game is null and $.texts holds no "
                                "rule file: no rules to replay with")
        return record


def _counted(data: dict[str, Any]) -> None:
    """NotationError for a record whose lists hold more than the limits allow, counted before
    any element is read (a million options were each read, then each named unknown: 21 s):
    ``actions`` at most ``LIMITS.max_moves``, ``options``, ``modules``, ``rules``, ``texts``
    and ``sources`` each at most ``LIMITS.max_record_names``, and the rule texts of ``rules``
    and ``texts`` at most ``LIMITS.max_record_tokens`` tokens together."""
    for field in ("actions", "options", "modules", "rules", "texts", "sources"):
        value = data.get(field)
        if not isinstance(value, (list, dict)):
            continue   # (said by the shape's check)
        if field == "actions" and len(value) > LIMITS.max_moves:
            raise NotationError(f"malformed boardrules record: $.actions: {len(value)} moves, "
                                f"more than the {LIMITS.max_moves} a game may have ({raise_with('max_moves')})")
        if field != "actions" and len(value) > LIMITS.max_record_names:
            raise NotationError(f"malformed boardrules record: $.{field}: {len(value)} entries, more "
                                f"than the {LIMITS.max_record_names} a record may give "
                                f"({raise_with('max_record_names')})")
    from .lang.parser import tokens_passing
    texts = [pair[1] for field in ("rules", "texts") if isinstance(data.get(field), list)
             for pair in data[field] if _file(pair)]
    if tokens_passing(texts, LIMITS.max_record_tokens):
        raise NotationError(f"malformed boardrules record: its rule texts ($.rules and $.texts) hold more "
                            f"than {LIMITS.max_record_tokens} words, numbers and symbols in all "
                            f"({raise_with('max_record_tokens')})")


def _file(v: Any) -> bool:
    return isinstance(v, list) and len(v) == 2 and all(isinstance(x, str) for x in v) and bool(v[0].strip())


class _OptionValue:
    """The type of an option's value in a record: any JSON value (the rules check its kind when
    the game is built; a set or an object in a record built in Python is refused here)."""


_converter = strict_converter()
def _option_value(value: Any, _: Any) -> Any:
    """An option's value as a record holds it: JSON, and no larger than the rules' lists (a
    list of millions was walked for half a minute before the rules refused it)."""
    if elements(value, LIMITS.max_list) > LIMITS.max_list:
        raise Expected(f"a value of at most {LIMITS.max_list} elements at every depth (as the rules' lists)",
                       value)
    if not json_value(value, LIMITS.max_nesting):
        raise Expected(JSON_VALUE, value)
    return value


_converter.register_structure_hook_func(partial(operator.is_, _OptionValue), _option_value)
for _type, _hook in (
        (int | str, exact(seed_ok, SEED_EXPECTED)),
        (tuple[str, str], exact(_file, "a [file name, rule text] pair of texts, the name not empty", tuple)),
        (dict[str, Any], mapped(_converter, "a mapping of option names to values", _OptionValue)),
        (tuple[str, ...], listed(_converter, "a list of module names")),
        (tuple[tuple[str, str], ...], listed(_converter, "a list of [file name, rule text] pairs")),
        (list[str], listed(_converter, "a list of moves (texts)"))):
    _converter.register_structure_hook_func(partial(operator.eq, _type), _hook)
