"""Parsing rule files: Lark's LALR parser, reducing straight to the frozen AST.

The grammar is ``grammars/rules.lark``. The parser is built once per process and
its grammar analysis is cached on disk by Lark (``cache=True``). Each reduction builds
its AST node at once (:mod:`.reduce`); lark's parse tree is built only to place an
error of a file nested too deep. Syntax errors
become :class:`~boardrules.lang.diagnostics.Diagnostic` objects with the position,
the offending text and a hint; no Lark exception escapes.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Iterator
from importlib import resources
from pathlib import Path

import lark
from lark import Token

from ..limits import LIMITS
from ..errors import RulesError
from ..files import not_readable, read_bounded
from ..quoting import control_character, escape, lone_surrogate
from . import ast as A
from . import reduce
from .diagnostics import Diagnostic, as_read

# (a comment is no token; a text's repetitions possessive, as grammars/rules.lark's STRING)
_TOKEN = re.compile(r'"(?:[^"\\\n]++|\\.)*+"|#[^\n]*|\w+|\S')
MAX_DIGITS = 18  # numbers in rule files fit in 64 bits


def grammar_path(name: str = "rules.lark") -> Path:
    """The grammar file: inside the installed package, else the checkout's ``grammars/``."""
    packaged = resources.files("boardrules").joinpath("grammars", name)
    if packaged.is_file():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[3] / "grammars" / name


@functools.cache
def _parser() -> lark.Lark:
    return lark.Lark(
        grammar_path().read_text(encoding="utf-8"),
        parser="lalr",
        propagate_positions=True,
        maybe_placeholders=True,
        cache=True,
    )


_FRIENDLY = {
    "_NL": "end of line",
    "$END": "end of file",
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a quoted text",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COLON": "':'",
    "COMMA": "','",
    "EQUAL": "'='",
    "DOT": "'.'",
}


def _friendly(terminal: str) -> str:
    if terminal in _FRIENDLY:
        return _FRIENDLY[terminal]
    try:
        pattern = _parser().get_terminal(terminal).pattern
    except KeyError:
        return terminal.lower()
    if isinstance(pattern, lark.lexer.PatternStr):
        return f"'{pattern.value}'"
    return terminal.lower()


def _syntax_diagnostic(path: str, text: str, err: lark.exceptions.UnexpectedInput) -> Diagnostic:
    line, column = err.line, err.column
    if line is None or line < 1:  # unexpected end of input
        line = text.count("\n") or 1
        rows = text.removesuffix("\n").split("\n")   # (lines as the parser counts them)
        column = len(rows[-1]) + 1 if text.strip() else 1
    width = 1
    if isinstance(err, lark.exceptions.UnexpectedToken):
        token = err.token
        if token.type == "$END":
            message = "unexpected end of file"
        elif token.type == "_NL":
            message = "unexpected end of line"
        else:
            kind = {"NAME": "name ", "INT": "number ", "STRING": "text "}.get(token.type, "")
            shown = str(token) if token.type == "STRING" else f"'{token}'"
            message = f"unexpected {kind}{shown}"
            width = max(len(str(token).splitlines()[0]) if str(token) else 1, 1)
        expected = sorted({_friendly(t) for t in err.expected if not t.startswith("__")})
        hint = _hint_for(text, err, expected, _open_bracket(text, line, column),
                         _unclosed_brace(text, line, column))
    else:  # UnexpectedCharacters
        pos = err.pos_in_stream
        char = text[pos] if pos is not None and pos < len(text) else "?"
        if char == '"':
            message = "this text has no closing '\"'"
            hint = "a text in double quotes must end on the same line"
        else:
            message = f"unexpected character {char!r}"
            hint = _OPERATOR_HINTS.get(char) or ("names use the letters a-z and A-Z (no accents or other scripts), digits "
                    "and '_'" if char.isalpha() else "names use letters, digits and '_'") + \
                "; text goes in double quotes"
        expected = []
    span = A.Span(path, line, column, line, column + width)
    return Diagnostic(span, message, hint, text)


# characters other languages use as operators, and what the rules language writes instead
_OPERATOR_HINTS = {"/": "division is '//' (rounded down), the remainder '%'",
                   "&": "write 'and'", "|": "write 'or'", "!": "write 'not' ('!=' is 'not equal')",
                   "'": "text goes in double quotes", "^": "there is no power operator: multiply"}


def _hint_for(text: str, err: lark.exceptions.UnexpectedToken, expected: list[str],
              opened: tuple[int, int, str] | None, unclosed: tuple[int, int] | None) -> str:
    token = err.token
    if unclosed is not None:
        return f"the '{{' at line {unclosed[0]}, column {unclosed[1]} is not closed: add '}}'"
    if str(token) in ("elif", "else") and token.type != "NAME":
        # (before the test below: an 'elif' or 'else' at column 1 is no declaration keyword)
        return _else_hint(text, str(token), token.start_pos or 0)
    closes = "'}'" in expected
    if closes and opened is not None and opened[2] == "{" and (
            token.type == "$END" or getattr(token, "column", 0) == 1):
        # a declaration keyword at the start of a line, or the end of the file,
        # while a block is still open: the block lacks its '}'
        return f"the '{{' at line {opened[0]}, column {opened[1]} is not closed: add '}}'"
    if token.type == "RBRACE" and opened is None:
        return "this '}' closes nothing: remove it"
    if token.type == "_NL" and expected == ["'else'"] and \
            text[token.end_pos or 0:].lstrip().startswith("else"):
        return ("put the 'else' of the next line on this one ('require COND else \"…\"'); a line "
                "break ends the condition, however the next line is indented")
    head = _ENTITY_HEAD.fullmatch(text, text.rfind("\n", 0, token.start_pos or 0) + 1, token.start_pos or 0)
    if str(token) == "(" and head is not None and expected == ["'{'"]:
        # 'procedure score(p: player) {': read as an entity of the kind 'procedure', whose '{' was due
        kind, name = head.groups()
        return (f"'{kind} {name} {{ … }}' declares an entity of the kind '{kind}', without parameters; "
                f"a procedure with parameters is an action tagged 'procedure': "
                f"'action {name}(…) procedure {{ … }}', run with 'call {name}(…)'")
    if str(token) == "?" and _LIST_TYPE.search(text, text.rfind("\n", 0, token.start_pos or 0) + 1,
                                               token.start_pos or 0):
        return ("a list is never none (an empty list stands for none): write 'list[T]', or "
                "'list[T?]' for a list whose elements may be none")
    if token.type == "EQUAL" and "EQUAL" not in err.expected:
        return "to compare, write '=='; to assign, use 'set NAME = value'"
    if len(expected) <= 8:
        return "expected " + ", ".join(expected)
    return ""


# a list type right before a token: 'list[int]' of 'var x: list[int]?'
_LIST_TYPE = re.compile(r"\blist\s*\[[^\n]*\]\s*\Z")

# the start of an entity's declaration, 'KIND NAME', alone on its line before a token
_ENTITY_HEAD = re.compile(r"([A-Za-z_]\w*)[ \t]+([A-Za-z_]\w*)[ \t]*")


# what may stand between two tokens: blanks and comments (possessive: a failed match does not
# try every way of splitting a comment of many '#'s)
_BETWEEN = re.compile(r"(?:\s|#[^\n]*+)*+")


def _else_hint(text: str, word: str, start: int) -> str:
    """The hint for an 'elif' or 'else' (``word``, at offset ``start``) that starts a statement:
    a line break ended the 'if' (or the require) before it, whatever the indentation. Names the
    'if' block it was meant for when a '}' closing one comes right before it."""
    stack: list[int] = []   # offsets of the '{' still open
    last: tuple[int, int] | None = None   # the last '}' before ``start``: (its offset, its '{'s)
    for m in _BRACKET.finditer(text, 0, start):
        ch = m.group()
        if ch == "{":
            stack.append(m.start())
        elif ch == "}":
            last = (m.start(), stack.pop() if stack else -1)
    shape = f"'}} {word}{' COND' if word == 'elif' else ''} {{'"
    where = ("('require COND else \"…\"', 'where COND else \"…\"')" if word == "else" else "")
    if last is not None and _BETWEEN.fullmatch(text, last[0] + 1, start) and last[1] >= 0:
        opening = text.rfind("\n", 0, last[1]) + 1
        head = text[opening:last[1]]
        if re.match(r"\s*(?:}\s*)?(?:if|elif)\b", head):
            line = text.count("\n", 0, last[0]) + 1
            column = last[0] - text.rfind("\n", 0, last[0])
            return (f"put it on the line of the '}}' that ends the 'if' block (line {line}, column "
                    f"{column}): {shape}; a line break ends the 'if', however the lines are indented")
    return (f"'{word}' goes after the '}}' of an 'if' block, on its line ({shape})"
            + (f", or after the condition of a require or a parameter's 'where' {where}" if word == "else" else "")
            + "; nothing it could continue comes right before it")


# what holds no brackets: a text in quotes (to its closing quote or the end of its line) and a
# comment; newlines are matched to count lines
_BRACKET = re.compile(r'"[^"\n]*"?|#[^\n]*|[(){}\[\]\n]')


def _brackets(text: str) -> Iterator[tuple[int, int, str]]:
    """Every bracket outside text and comments, in order, as (line, column, char)."""
    line, start = 1, 0
    for m in _BRACKET.finditer(text):
        ch = m.group()
        if ch == "\n":
            line, start = line + 1, m.end()
        elif ch in "({[)}]":
            yield line, m.start() - start + 1, ch


def _unclosed_brace(text: str, line: int, column: int) -> tuple[int, int] | None:
    """When the file has more '{' than '}', the '{' most likely left open before
    ``line``:``column``, as (line, column): the innermost block that a later line,
    indented no deeper than the block's first line, leaves without its '}'; else the
    innermost '{' still open there."""
    opened: dict[int, list[tuple[int, str]]] = {}
    balance = 0
    for ln, col, ch in _brackets(text):
        if ch in "{}":
            opened.setdefault(ln, []).append((col, ch))
            balance += 1 if ch == "{" else -1
    if balance <= 0:
        return None
    stack: list[tuple[int, int, int]] = []  # (line, column, indentation of its line)
    for ln, row in enumerate(text.split("\n"), 1):   # (lines as the parser counts them)
        if (ln, 1) > (line, column):
            break
        body = row.strip()
        indent = len(row) - len(row.lstrip())
        if body and not body.startswith(("#", "}")) and stack and stack[-1][0] < ln \
                and indent <= stack[-1][2]:
            return stack[-1][:2]
        for col, ch in opened.get(ln, ()):
            if (ln, col) >= (line, column):
                break
            if ch == "{":
                stack.append((ln, col, indent))
            elif stack:
                stack.pop()
    return stack[-1][:2] if stack else None


def _open_bracket(text: str, line: int, column: int) -> tuple[int, int, str] | None:
    """The innermost bracket still open before ``line``:``column``, as (line, column, char)."""
    stack: list[tuple[int, int, str]] = []
    for ln, col, ch in _brackets(text):
        if (ln, col) >= (line, column):
            break
        if ch in "({[":
            stack.append((ln, col, ch))
        elif stack:
            stack.pop()
    return stack[-1] if stack else None


def tokens_passing(texts: list[str], most: int) -> re.Match[str] | None:
    """Where the rule ``texts`` together pass ``most`` tokens (words, numbers, symbols; comments
    do not count), in the last text counted, counted no further; None when they hold no more."""
    if sum(map(len, texts)) <= most:   # (a token takes a character at least: no need to count)
        return None
    count = 0
    for text in texts:
        for m in _TOKEN.finditer(text):
            count += m.group()[0] != "#"
            if count > most:
                return m
    return None


def _tokens_diagnostic(path: str, text: str) -> Diagnostic | None:
    """Where a file of more than LIMITS.max_tokens tokens passes the limit (counted before parsing)."""
    m = tokens_passing([text], LIMITS.max_tokens)
    if m is None:
        return None
    line = text.count("\n", 0, m.start()) + 1
    column = m.start() - text.rfind("\n", 0, m.start())
    return Diagnostic(A.Span(path, line, column, line, column + 1),
                      f"rule file has more than {LIMITS.max_tokens} words, numbers and symbols",
                      "split it into several files", text)


def _nesting_diagnostic(path: str, text: str) -> Diagnostic | None:
    depth = 0
    for line, column, ch in _brackets(text):
        if ch in "({[":
            depth += 1
            if depth > LIMITS.max_nesting:
                return Diagnostic(A.Span(path, line, column, line, column + 1),
                                  f"brackets nested deeper than {LIMITS.max_nesting} levels",
                                  "split the rule into smaller declarations", text)
        else:
            depth = max(depth - 1, 0)
    return None


def _depth_diagnostic(path: str, text: str, tree: lark.Tree[Token]) -> Diagnostic | None:
    """The first place the tree is deeper than LIMITS.max_tree_depth (measured without recursion)."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > LIMITS.max_tree_depth:
            meta = node.meta
            line, column = (meta.line, meta.column) if not meta.empty else (1, 1)
            end = meta.end_column if not meta.empty and meta.end_line == line else column + 1
            return Diagnostic(A.Span(path, line, column, line, end),
                              f"this rule is nested deeper than {LIMITS.max_tree_depth} levels "
                              "(a very long chain of operators or of 'not' and '-')",
                              "split it into smaller parts with 'let NAME = ...'", text)
        step = 1 + ((len(node.children) - 1) // 2 if node.data in reduce.CHAINS else 0)
        stack.extend((c, depth + step) for c in node.children if isinstance(c, lark.Tree))
    return None


def parse_text(text: str, path: str = "<rules>") -> A.RuleFile:
    """Parse rule text into a :class:`~boardrules.lang.ast.RuleFile`.

    Raises :class:`~boardrules.errors.RulesError` with one diagnostic on a syntax
    error, or past a limit of :mod:`boardrules.limits` (defaults: a file over 1 MiB or of more
    than 50,000 words, numbers and symbols, brackets nested deeper than 48 levels, a rule nested
    deeper than 200 levels: long chains of operators, ``not`` or ``-``).
    The AST is immutable, so results are cached per (text, path, those limits): rebuilding a
    ruleset with other options or modules does not parse its files again.
    """
    return _parse_cached(text, path, (LIMITS.max_file_bytes, LIMITS.max_tokens, LIMITS.max_nesting,
                                      LIMITS.max_tree_depth))


@functools.lru_cache(maxsize=256)
def _parse_cached(text: str, path: str, limits: tuple[int, ...]) -> A.RuleFile:
    """The parse of ``text`` under the limits in force (``limits``: the ones it reads, the key)."""
    text = as_read(text)   # (every later pass sees one kind of line break, no byte-order mark)
    lone = lone_surrogate(text)
    if lone is not None:
        raise RulesError([_lone_surrogate(path, text, lone)])
    if len(text.encode("utf-8")) > LIMITS.max_file_bytes:
        raise _too_large(path, text)
    deep = _nesting_diagnostic(path, text) or _tokens_diagnostic(path, text)
    if deep:
        raise RulesError([deep])
    source = text if text.endswith("\n") else text + "\n"
    to_ast = _ToAst(path, text)
    try:
        items, height = _parse_ast(source, to_ast)
    except lark.exceptions.UnexpectedInput as err:
        raise RulesError([_syntax_diagnostic(path, text, err)]) from None
    if height > LIMITS.max_tree_depth:   # (rare: the parse tree says where, as it always did)
        deep = _depth_diagnostic(path, text, _parser().parse(source))
        if deep:
            raise RulesError([deep])
    if to_ast.errors:
        raise RulesError(to_ast.errors)
    return A.RuleFile(path=path, text=text, items=items)


def _lone_surrogate(path: str, text: str, at: int) -> Diagnostic:
    """The diagnostic for the lone surrogate at index ``at`` of ``text`` (a text from Python or
    a record's JSON escape ``\\ud800``; a file read as UTF-8 cannot hold one)."""
    start = text.rfind("\n", 0, at) + 1
    line, column = text.count("\n", 0, at) + 1, at - start + 1
    return Diagnostic(A.Span(path, line, column, line, column + 1),
                      f"a lone surrogate ({escape(text[at])}) is not a character: the rule text is "
                      f"not Unicode", "give rule texts as Unicode (a file is read as UTF-8)", text)


def _too_large(path: str, text: str, regular: bool = True) -> RulesError:
    """A file over :data:`LIMITS.max_file_bytes`, at its start: a regular file's first line is
    quoted; a device or pipe (``/dev/zero``) is named as such, its bytes not shown."""
    if not regular:
        return RulesError([Diagnostic(A.Span(path, 1, 1, 1, 2), f"rule file is larger than "
                                      f"{LIMITS.max_file_bytes} bytes: it is not a regular file (a device "
                                      f"or a pipe that may never end)", "give the path of a rule file")])
    return RulesError([Diagnostic(A.Span(path, 1, 1, 1, 2),
                                  f"rule file is larger than {LIMITS.max_file_bytes} bytes",
                                  "split it into several files", text.split("\n", 1)[0][:80])])


def unreadable(path: str | Path, err: OSError | UnicodeDecodeError) -> str:
    """The message for rule file ``path`` that :func:`read_rule_file` could not read (``err``):
    ``cannot read rule file PATH: WHY`` (:func:`~boardrules.files.not_readable`), as check, play
    and house rules all say it."""
    return f"cannot read rule file {path}: {not_readable(err)}"


def read_rule_file(path: str | Path) -> str:
    """The text of rule file ``path`` (UTF-8), reading no more than the largest rule file:
    a longer one (or an endless one, ``/dev/zero``) is refused without reading it all.

    Raises :class:`~boardrules.errors.RulesError` (a file over 1 MiB), ``OSError`` (a file
    that cannot be read) and ``UnicodeDecodeError`` (a file that is not UTF-8)."""
    data, regular = read_bounded(path, LIMITS.max_file_bytes + 4)   # (a byte-order mark of 3 bytes does not count)
    if len(data) > LIMITS.max_file_bytes + 3:
        raise _too_large(str(path), data[:200].decode("utf-8", errors="replace"), regular)
    return data.decode("utf-8")


@functools.cache
def _reductions() -> reduce.Reductions:
    return reduce.Reductions(reduce.shapes(_parser().rules, maybe_placeholders=True), _ToAst)


def _parse_ast(source: str, to_ast: _ToAst) -> tuple[tuple[object, ...], int]:
    """The file's items and the depth of its parse tree (as :func:`_depth_diagnostic` counts
    it), by lark's LALR parser reducing straight to AST nodes (no parse tree is built).
    Raises lark's UnexpectedInput on a syntax error."""
    run = _parser().parse_interactive(source)
    with _reductions().running(to_ast, to_ast.path) as callbacks:
        run.parser_state.parse_conf.callbacks = callbacks
        top = run.resume_parse()  # type: ignore[no-untyped-call]
    return top[0], top[5]


def parse_file(path: str | Path) -> A.RuleFile:
    """Read and parse a rule file (UTF-8). Errors as :func:`parse_text`."""
    try:
        text = read_rule_file(path)
    except UnicodeDecodeError as err:
        raise RulesError([Diagnostic(A.Span(str(path), 1, 1, 1, 2),
                                     f"cannot read it: {not_readable(err)}")]) from None
    return parse_text(text, str(path))


def _s(token: object) -> str | None:
    return None if token is None else str(token)


class _ToAst:
    """The AST node of each grammar rule, built as the parser reduces it (lang/reduce.py): each
    method receives the node's span and its children (already AST values, tokens, or None for
    an absent ``[item]``)."""

    def __init__(self, path: str, text: str):
        self.path = path
        self.text = text
        self.errors: list[Diagnostic] = []  # what the grammar lets through but the AST refuses

    # --- top level ---
    def start(self, span: A.Span, items: list[Any]) -> tuple[object, ...]:
        return tuple(i for i in items if i is not None)

    def override(self, span: A.Span, _: object) -> str:
        return "override"

    def extend(self, span: A.Span, _: object) -> str:
        return "extend"

    def decl(self, span: A.Span, c: list[Any]) -> Any:
        modifier, kind, name, *entries = c
        return A.Decl(modifier=modifier, kind=str(kind), name=str(name),
                      entries=tuple(e for e in entries if e is not None), span=span)

    def property(self, span: A.Span, c: list[Any]) -> Any:
        return A.Property(name=str(c[0]), values=tuple(c[1:]), span=span)

    def field_def(self, span: A.Span, c: list[Any]) -> Any:
        return A.FieldDef(name=str(c[0]), type=c[1], default=c[2] if len(c) > 2 else None, span=span)

    def slot_def(self, span: A.Span, c: list[Any]) -> Any:
        return A.SlotDef(name=str(c[0]), body=c[1], span=span)

    def at_def(self, span: A.Span, c: list[Any]) -> Any:
        return A.AtDef(level=int(c[0]), body=c[1], span=span)

    def slot_use(self, span: A.Span, c: list[Any]) -> Any:
        return A.SlotUse(name=str(c[0]), body=c[1], span=span)

    def slot_extend(self, span: A.Span, c: list[Any]) -> Any:
        return A.SlotExtend(name=str(c[0]), body=c[1], span=span)

    def option_decl(self, span: A.Span, c: list[Any]) -> Any:
        modifier, name, default, domain, doc = c
        return A.OptionDecl(modifier=modifier, name=str(name), default=default, domain=domain,
                            doc=self._text(doc) if doc else "", span=span)

    def option_domain(self, span: A.Span, c: list[Any]) -> Any:
        return c[0]

    def var_decl(self, span: A.Span, c: list[Any]) -> Any:
        modifier, name, type_, *rest = c
        per = tuple(x for x in rest if isinstance(x, tuple) and x and x[0] == "per")
        flags = [x for x in rest if x in ("hidden", "private")]
        default = next((x for x in rest if not (isinstance(x, tuple) and x and x[0] == "per")
                        and x not in ("hidden", "private")), None)
        return A.VarDecl(modifier=modifier, name=str(name), type=type_,
                         per=tuple(p[1] for p in per), default=default,
                         hidden="hidden" in flags, private="private" in flags, span=span)

    def per(self, span: A.Span, c: list[Any]) -> Any:
        return ("per", str(c[0]))

    def hidden(self, span: A.Span, c: list[Any]) -> Any:
        return "hidden"

    def private(self, span: A.Span, c: list[Any]) -> Any:
        return "private"

    def event_decl(self, span: A.Span, c: list[Any]) -> Any:
        return A.EventDecl(name=str(c[0]), params=tuple(p for p in c[1:] if p is not None),
                           span=span)

    def remove_decl(self, span: A.Span, c: list[Any]) -> Any:
        return A.RemoveDecl(kind=str(c[0]), name=str(c[1]), span=span)

    def simple_type(self, span: A.Span, c: list[Any]) -> Any:
        return A.TypeRef(name=str(c[0]), span=span)

    def optional_type(self, span: A.Span, c: list[Any]) -> Any:
        return A.TypeRef(name=str(c[0]), optional=True, span=span)

    def list_type(self, span: A.Span, c: list[Any]) -> Any:
        return A.TypeRef(name="list", list_of=c[0], span=span)

    def trigger(self, span: A.Span, c: list[Any]) -> Any:
        event, *rest = c
        cond, body = rest[-2], rest[-1]
        names = tuple(str(n) for n in rest[:-2] if n is not None)
        return A.Trigger(event=str(event), names=names, cond=cond, body=body, span=span)

    def action_decl(self, span: A.Span, c: list[Any]) -> Any:
        modifier, name, *rest = c
        body = rest[-1]
        params = tuple(x for x in rest[:-1] if isinstance(x, A.Param))
        tags = tuple(x for x in rest[:-1] if isinstance(x, str))
        return A.ActionDecl(modifier=modifier, name=str(name), params=params, tags=tags,
                            body=body, span=span)

    def param(self, span: A.Span, c: list[Any]) -> Any:
        return A.Param(name=str(c[0]), type=c[1], domain=c[2], where=c[3],
                       message=self._text(c[4]) if c[4] else "", span=span)

    def tag(self, span: A.Span, c: list[Any]) -> Any:
        return str(c[0])

    # --- flow ---
    def flow_decl(self, span: A.Span, c: list[Any]) -> Any:
        modifier, *stages = c
        return A.FlowDecl(modifier=modifier, stages=tuple(s for s in stages if s is not None),
                          span=span)

    def setup_stage(self, span: A.Span, c: list[Any]) -> Any:
        return A.Stage(kind="setup", count=None, steps=c[0], span=span)

    def rounds_stage(self, span: A.Span, c: list[Any]) -> Any:
        return A.Stage(kind="rounds", count=c[0], steps=c[1], span=span)

    def finish_stage(self, span: A.Span, c: list[Any]) -> Any:
        return A.Stage(kind="finish", count=None, steps=c[0], span=span)

    def steps(self, span: A.Span, c: list[Any]) -> Any:
        return tuple(s for s in c if s is not None)

    def step(self, span: A.Span, c: list[Any]) -> Any:
        name, title, body = c
        return self._step(str(name), body, span, self._text(title) if title else "")

    def _step(self, name: str, body: tuple[Any, ...], span: A.Span,
              title: str = "") -> A.DoStep | A.TurnsStep:
        if body[0] == "do":
            return A.DoStep(name=name, body=body[1], title=title, span=span)
        _, order, mode, rules = body
        return A.TurnsStep(name=name, order=order, mode=mode, rules=rules, title=title, span=span)

    def do_body(self, span: A.Span, c: list[Any]) -> Any:
        return ("do", c[0])

    def turns_body(self, span: A.Span, c: list[Any]) -> Any:
        order, mode, *rules = c
        return ("turns", order, str(mode), tuple(r for r in rules if r is not None))

    def step_edit(self, span: A.Span, c: list[Any]) -> Any:
        modifier, name, title, place, body = c
        return A.StepEdit(modifier=modifier, name=str(name), place=place,
                          step=self._step(str(name), body, span, self._text(title) if title else ""),
                          span=span)

    def step_extend(self, span: A.Span, c: list[Any]) -> Any:
        modifier, name, *rules = c
        return A.StepExtend(modifier=modifier, name=str(name),
                            rules=tuple(r for r in rules if r is not None), span=span)

    def place_before(self, span: A.Span, c: list[Any]) -> Any:
        return ("before", str(c[0]))

    def place_after(self, span: A.Span, c: list[Any]) -> Any:
        return ("after", str(c[0]))

    def order_named(self, span: A.Span, c: list[Any]) -> Any:
        return ("named", str(c[0]))

    def order_reverse(self, span: A.Span, c: list[Any]) -> Any:
        return ("reverse", str(c[0]))

    def order_var(self, span: A.Span, c: list[Any]) -> Any:
        return ("by", c[0])

    def turn_rule(self, span: A.Span, c: list[Any]) -> Any:
        return (str(c[0]), tuple(str(x) for x in c[1:]), span)

    def lanes_rule(self, span: A.Span, c: list[Any]) -> Any:
        return ("lanes", c[0], span)

    # --- statements ---
    def body(self, span: A.Span, c: list[Any]) -> Any:
        return c[0] if isinstance(c[0], A.Block) else A.Block(stmts=(c[0],), span=span)

    def block(self, span: A.Span, c: list[Any]) -> Any:
        return A.Block(stmts=tuple(s for s in c if s is not None), span=span)

    def amount(self, span: A.Span, c: list[Any]) -> Any:
        return A.Amount(count=c[0], resource=str(c[1]), per=c[2], span=span)

    def amount_list(self, span: A.Span, c: list[Any]) -> Any:
        return tuple(c)

    def amount_expr(self, span: A.Span, c: list[Any]) -> Any:
        return A.AmountExpr(expr=c[0], span=span)

    def gain(self, span: A.Span, c: list[Any]) -> Any:
        return A.Gain(amounts=c[0], to=c[1], span=span)

    def pay(self, span: A.Span, c: list[Any]) -> Any:
        return A.Pay(amounts=c[0], span=span)

    def lose(self, span: A.Span, c: list[Any]) -> Any:
        return A.Lose(amounts=c[0], to=c[1], span=span)

    def target(self, span: A.Span, c: list[Any]) -> Any:
        return A.Target(name=str(c[0]), index=c[1], of=c[2], span=span)

    def set_stmt(self, span: A.Span, c: list[Any]) -> Any:
        return A.Set(target=c[0], value=c[1], span=span)

    def let_stmt(self, span: A.Span, c: list[Any]) -> Any:
        return A.Let(name=str(c[0]), value=c[1], span=span)

    def advance(self, span: A.Span, c: list[Any]) -> Any:
        return A.Advance(track=str(c[0]), by=c[1], span=span)

    def if_stmt(self, span: A.Span, c: list[Any]) -> Any:
        cond, block, *rest = c
        orelse = rest[-1] if rest and isinstance(rest[-1], A.Block) or (rest and rest[-1] is None) else None
        elifs = tuple(r for r in rest if isinstance(r, tuple))
        return A.If(branches=((cond, block),) + elifs, orelse=orelse, span=span)

    def elif_clause(self, span: A.Span, c: list[Any]) -> Any:
        return (c[0], c[1])

    def for_stmt(self, span: A.Span, c: list[Any]) -> Any:
        return A.For(var=str(c[0]), domain=c[1], where=c[2], body=c[3], span=span)

    def require(self, span: A.Span, c: list[Any]) -> Any:
        return A.Require(cond=c[0], message=self._text(c[1]), span=span)

    def optional(self, span: A.Span, c: list[Any]) -> Any:
        return True

    def choose(self, span: A.Span, c: list[Any]) -> Any:
        var, domain, where, by, optional, prompt, body = c
        return A.Choose(var=str(var), domain=domain, where=where, by=by, optional=bool(optional),
                        prompt=self._text(prompt) if prompt else "", body=body, span=span)

    def draw(self, span: A.Span, c: list[Any]) -> Any:
        return A.Draw(var=str(c[0]), bag=str(c[1]), body=c[2], span=span)

    def emit(self, span: A.Span, c: list[Any]) -> Any:
        return A.Emit(event=str(c[0]), args=tuple(a for a in c[1:] if a is not None),
                      span=span)

    def run_stmt(self, span: A.Span, c: list[Any]) -> Any:
        return A.Run(target=c[0], for_=c[1], span=span)

    def after_turn(self, span: A.Span, c: list[Any]) -> Any:
        return A.AfterTurn(body=c[0], span=span)

    def queue_stmt(self, span: A.Span, c: list[Any]) -> Any:
        return A.Queue(body=c[0], span=span)

    def take(self, span: A.Span, c: list[Any]) -> Any:
        return A.Take(entity=c[0], span=span)

    def give(self, span: A.Span, c: list[Any]) -> Any:
        return A.Give(entity=c[0], to=c[1], span=span)

    def discard(self, span: A.Span, c: list[Any]) -> Any:
        return A.Discard(entity=c[0], span=span)

    def call_stmt(self, span: A.Span, c: list[Any]) -> Any:
        return A.CallStmt(fn=str(c[0]), args=tuple(a for a in c[1:] if a is not None),
                          span=span)

    def pass_stmt(self, span: A.Span, c: list[Any]) -> Any:
        return A.Pass(span=span)

    def use_stmt(self, span: A.Span, c: list[Any]) -> Any:
        return A.Use(component=str(c[0]), span=span)

    def restore_stmt(self, span: A.Span, c: list[Any]) -> Any:
        return A.Restore(component=str(c[0]), span=span)

    # --- expressions ---
    def count_of(self, span: A.Span, c: list[Any]) -> Any:
        return A.Quant(kind="count", var=str(c[0]), domain=c[1], where=c[2], span=span)

    def any_of(self, span: A.Span, c: list[Any]) -> Any:
        return A.Quant(kind="any", var=str(c[0]), domain=c[1], where=c[2], span=span)

    def all_of(self, span: A.Span, c: list[Any]) -> Any:
        return A.Quant(kind="all", var=str(c[0]), domain=c[1], where=c[2], span=span)

    def sum_of(self, span: A.Span, c: list[Any]) -> Any:
        return A.SumOf(expr=c[0], var=str(c[1]), domain=c[2], where=c[3], span=span)

    def or_expr(self, span: A.Span, c: list[Any]) -> Any:
        return A.BoolOp(op="or", items=tuple(c), span=span)

    def and_expr(self, span: A.Span, c: list[Any]) -> Any:
        return A.BoolOp(op="and", items=tuple(c), span=span)

    def not_(self, span: A.Span, c: list[Any]) -> Any:
        return A.Not(operand=c[0], span=span)

    def comp_op(self, span: A.Span, c: list[Any]) -> Any:
        return "notin" if len(c) == 2 else str(c[0])

    def comparison(self, span: A.Span, c: list[Any]) -> Any:
        return A.Compare(op=c[1], left=c[0], right=c[2], span=span)

    def range(self, span: A.Span, c: list[Any]) -> Any:
        return A.Range(low=c[0], high=c[1], span=span)

    def _chain(self, span: A.Span, c: list[Any]) -> Any:
        node = c[0]
        for i in range(1, len(c), 2):
            node = A.BinOp(op=str(c[i]), left=node, right=c[i + 1], span=span)
        return node

    sum = _chain
    product = _chain

    def neg(self, span: A.Span, c: list[Any]) -> Any:
        return A.Neg(operand=c[0], span=span)

    def field(self, span: A.Span, c: list[Any]) -> Any:
        return A.Field(obj=c[0], name=str(c[1]), span=span)

    def index(self, span: A.Span, c: list[Any]) -> Any:
        return A.Index(obj=c[0], index=c[1], span=span)

    def of_player(self, span: A.Span, c: list[Any]) -> Any:
        return A.Of(expr=c[0], player=c[1], span=span)

    def int(self, span: A.Span, c: list[Any]) -> Any:
        if len(c[0]) > MAX_DIGITS:
            self.errors.append(Diagnostic(span, f"a number of {len(c[0])} digits is "
                                          f"too long (rules use at most {MAX_DIGITS} digits)",
                                          "rule numbers stay within about a billion billion",
                                          self.text))
            return A.Int(value=0, span=span)
        return A.Int(value=int(c[0]), span=span)

    def _text(self, token: Token) -> str:
        """A quoted text's value; one holding a control character (which would reach messages
        and terminals raw) is an error at its place."""
        span = A.Span(self.path, token.line or 1, token.column or 1, token.end_line or 1,
                      token.end_column or 2)
        bad = control_character(str(token))
        if bad is not None:
            self.errors.append(Diagnostic(span, f"a text holds the control character '{escape(bad)}'",
                                          "write \\n for a new line; other control characters "
                                          "cannot be written in a text", self.text))
        return _unquote(token)

    def string(self, span: A.Span, c: list[Any]) -> Any:
        return A.Str(value=self._text(c[0]), span=span)

    def true(self, span: A.Span, c: list[Any]) -> Any:
        return A.Bool(value=True, span=span)

    def false(self, span: A.Span, c: list[Any]) -> Any:
        return A.Bool(value=False, span=span)

    def none(self, span: A.Span, c: list[Any]) -> Any:
        return A.NoneLit(span=span)

    def name(self, span: A.Span, c: list[Any]) -> Any:
        return A.Name(id=str(c[0]), span=span)

    def call(self, span: A.Span, c: list[Any]) -> Any:
        return A.Call(fn=str(c[0]), args=tuple(a for a in c[1:] if a is not None),
                      span=span)

    def list(self, span: A.Span, c: list[Any]) -> Any:
        return A.ListLit(items=tuple(a for a in c if a is not None), span=span)


_ESCAPE = re.compile(r"\\(.)")
_UNESCAPED = {'"': '"', "\\": "\\", "n": "\n"}   # any other escape stands for itself: \x is \x


def _unquote(token: object) -> str:
    """A quoted text's value, its escapes read in one pass (``\\\\n`` is a backslash and an n)."""
    return _ESCAPE.sub(lambda m: _UNESCAPED.get(m.group(1), m.group(0)), str(token)[1:-1])
