"""The few exceptions boardrules raises, all under :class:`BoardrulesError`.

* :class:`RulesError` — rule files that do not parse or check; carries every
  :class:`~boardrules.lang.diagnostics.Diagnostic` found, formatted as
  ``file:line:column: message`` with the source line, a caret and a hint.
* :class:`IllegalActionError` (a ``ValueError``) — an action the rules forbid now;
  names the rule it breaks. The game state is unchanged when it is raised.
* :class:`ExecutionBudgetError` (an :class:`IllegalActionError`) — rules that ran past
  the execution budget; names the rule and its position.
* :class:`PrimitiveError` (an :class:`IllegalActionError`) — a plugin's primitive whose Python
  code raised; names the primitive, the rule that called it with its position, and the action.
* :class:`RuleFailedError` (an :class:`IllegalActionError`) — a rule that failed at run time
  on a value it cannot take (a defect of the rules, not a rule saying no).
* :class:`NotationError` (a ``ValueError``) — action text that does not parse.
* :class:`ReplayMismatch` — a replayed record ends in a state other than the one it claims.
* :class:`OptionError` (a ``ValueError``) — an unknown option or a value of the wrong kind.
* :class:`PluginError` — a plugin, game or module that cannot be found or loaded.
* :class:`GameStuckError` (an ``IndexError``) — nobody can act and the game is not over;
  names the flow step and the turn or decision that has no legal action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from .quoting import counted, printable

if TYPE_CHECKING:
    from .lang.diagnostics import Diagnostic


class BoardrulesError(Exception):
    """Base class of every error boardrules raises on purpose. Its text shows a lone surrogate
    of what it quotes as an escape (``\\ud800``: a text from Python or a record's JSON escape),
    and control characters other than line breaks and tabs (``\\x1b``), so that it can be
    printed as it is (:func:`~boardrules.quoting.printable`)."""

    def __str__(self) -> str:
        return printable(super().__str__())


#: How many diagnostics a :class:`RulesError`'s message shows (a file of thousands of errors
#: printed them all: 780 KB); every one stays in ``RulesError.diagnostics``.
SHOWN = 20


class RulesError(BoardrulesError):
    """Rule files with errors. ``diagnostics`` lists all of them, file by file in the order the
    files load (the game's, its modules', then house rules), each by line and column; the message
    (``str(err)``) shows the first :data:`SHOWN` and counts the rest (:meth:`format`)."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = tuple(diagnostics)
        super().__init__(self.format())

    def format(self, limit: int | None = SHOWN) -> str:
        """The first ``limit`` diagnostics (None: all), each as ``file:line:column: message``
        with its line, caret and hint, then a line counting those not shown."""
        shown = self.diagnostics if limit is None else self.diagnostics[:limit]
        rest = len(self.diagnostics) - len(shown)
        more = [f"... and {counted(rest, 'more error')} "
                f"({len(self.diagnostics)} in all)"] if rest else []
        return "\n".join([d.format() for d in shown] + more)


class IllegalActionError(BoardrulesError, ValueError):
    """An action that is not legal now.

    ``rule`` names the rule broken (the declaration and, where there is one, the
    ``require`` message); ``action`` is the action as given.
    """

    def __init__(self, message: str, *, rule: str = "", action: object = None):
        self.rule = rule
        self.action = action
        super().__init__(message)


class ExecutionBudgetError(IllegalActionError):
    """Rules that ran past the execution budget (``max_steps`` of :func:`boardrules.new_game`):
    a loop too long or rules calling each other without end. The message names the
    rule and its position; the game state is unchanged."""


class PrimitiveError(IllegalActionError):
    """A primitive (a plugin's Python function the rules call) raised a Python exception
    instead of a rule violation: a defect of the plugin. The message names the primitive, the
    exception, the rule and the position of its call, and the action; the game state is
    unchanged (play is atomic), and the legal actions leave such an action out."""


class RuleFailedError(IllegalActionError):
    """A rule that failed at run time on a value it cannot take: an index outside a list, a
    text or none where a number is needed (``'amount' needs numbers``), no entity where one is,
    a value of another type set to a variable, a player that is none. A defect of the rules
    (the checker could not see it), not a rule saying no (``require``, a cost not met). The
    message names the rule and the position of the construct that failed; the game state is
    unchanged."""


class NotationError(BoardrulesError, ValueError):
    """Action or record text that cannot be read."""


class ReplayMismatch(BoardrulesError):
    """A replay diverged from its record; ``move`` is the 1-based move number or None for the end state."""

    def __init__(self, message: str, *, move: int | None = None):
        self.move = move
        super().__init__(message)


class OptionError(BoardrulesError, ValueError):
    """An unknown option, or an option value of the wrong kind."""


class PluginError(BoardrulesError):
    """An unknown game or module, or a plugin that failed to load."""


class GameStuckError(BoardrulesError, IndexError):
    """Nobody can act and the game is not over: every player to act has no legal action (a
    rule that can never be met, or one that fails at run time: an index outside a list, a
    primitive that raises...). The message names the flow step (stage, round, step), the turn
    or decision waiting and why its actions are refused: ``refusals`` holds that error
    (:class:`IllegalActionError`: the rule broken, its file:line:column) for each action tried,
    one per action's name, the defects (:class:`ExecutionBudgetError`, :class:`PrimitiveError`)
    first, or the flow step's failure alone when a step run after them breaks a rule. Raised
    by listing or sampling the legal actions of everyone to act; an ``IndexError`` (so a
    ``LookupError``), as an empty sample always was."""

    def __init__(self, message: str, *, refusals: tuple[IllegalActionError, ...] = ()):
        self.refusals = refusals
        super().__init__(message)

    @property
    def failed(self) -> RuleFailedError | None:
        """The first refusal that is a rule failing at run time (:class:`RuleFailedError`: the
        game is stuck by a defect of the rules), else None (the rules say no to every action)."""
        return next((err for err in self.refusals if isinstance(err, RuleFailedError)), None)

    def headline(self, after: str = "") -> str:
        """The failure as the command line says it: "a rule failed" with the failure and its
        place when a rule failed at run time (:attr:`failed`), else "the game is stuck";
        ``after`` (e.g. "after 3 actions") follows those words."""
        failed = self.failed
        lead = f"a rule failed{' ' + after if after else ''}: {failed}; so " if failed is not None \
            else f"the game is stuck{' ' + after if after else ''}: "
        return lead + str(self)
