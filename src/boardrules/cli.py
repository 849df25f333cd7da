"""The ``boardrules`` command line: plugins, check, play, replay (and plugin commands).

    boardrules plugins
    boardrules check house.rules --game gaia-project
    boardrules play gaia-project --players 4 --seed 1
    boardrules replay game.json
"""

from __future__ import annotations

import hashlib
import inspect
import io
import re
import sys
import time
from pathlib import Path
from typing import Any, Callable, Iterable, List, Mapping, NoReturn, Optional

import typer
from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .limits import LIMITS
from . import plugins
from .adapters.encoding import whole_seed
from .bots import BOT_HELP, play_out, seat_bots
from .errors import SHOWN, BoardrulesError, ExecutionBudgetError, GameStuckError, PluginError, RulesError
from .game import Action, Game, new_game
from .quoting import QUOTE, brief_text, brief_value, counted, escape as escape_text, read_whole
from .lang.checker import describe_domain
from .lang.diagnostics import INCOMPLETE
from .files import make_folder
from .lang.parser import read_rule_file, unreadable as rule_file_unreadable
from .replay import replay_file
from .ruleset import Ruleset, build_ruleset, freeze_once
from .runtime import BUDGET_HELP, F_ROUND, MAX_NUMBER, budget_hint
from .simulate import entity_title, player_role, step_title


_OPTION_LIKE = re.compile(r"-[A-Za-z]+")


def values_apart(command: Any, ctx: Any, args: List[str]) -> List[str]:
    """``args`` of ``command`` with its options (and their values) first and every other word
    after a ``--``, in its order: a word that begins with '-' but is none of the command's
    options is a value (click read ``odds "-1 interceptor" ...`` as an option '-1' and said "No
    such option"; a file named ``-x.rules`` too). A word beginning with '--', or a '-' and
    letters only (``-x``), stays an option (click names a mistyped one); after a ``--`` given,
    every word is a value."""
    takes = {name: 0 if getattr(p, "is_flag", False) or getattr(p, "count", False) else p.nargs
             for p in command.get_params(ctx) if p.param_type_name == "option"
             for name in (*p.opts, *p.secondary_opts)}
    options: List[str] = []
    values: List[str] = []
    words, whole = iter(args), True

    def option(word: str, taken: int) -> bool:   # (and the ``taken`` words after it, its value)
        value = [w for _, w in zip(range(taken), words)]
        options.extend([word, *value])
        return len(value) == taken

    for word in words:
        if word == "--":
            values.extend(words)
        elif word.startswith("--") or (word[:2] not in takes and _OPTION_LIKE.fullmatch(word)):
            name, given, _ = word.partition("=")
            whole = option(word, 0 if given else takes.get(name, 0))
        elif len(word) > 1 and word[0] == "-" and word[:2] in takes:
            # a cluster of flags, the first that takes a value taking the rest or the next word
            taking = next((i for i, letter in enumerate(word[1:], 2) if takes.get("-" + letter) != 0), None)
            whole = option(word, takes.get("-" + word[taking - 1], 0) if taking == len(word) else 0)
        else:
            values.append(word)
        if not whole:   # (an option's value missing: the words as given, for click to say so)
            return list(args)
    return options + (["--", *values] if values else [])


class _Commands(typer.core.TyperGroup):
    """The commands, each reading a word that begins with '-' as a value where it is no option
    of the command (:func:`values_apart`)."""

    def resolve_command(self, ctx: Any, args: List[str]) -> Any:
        name, command, rest = super().resolve_command(ctx, args)
        return name, command, rest if command is None else values_apart(command, ctx, rest)


app = typer.Typer(cls=_Commands, add_completion=False, no_args_is_help=True,
                  help="Play heavy board games by their exact rules.")
console = Console()
err_console = Console(stderr=True)


def _version(value: bool) -> None:
    if value:
        from . import __version__
        console.print(f"boardrules {__version__}", highlight=False)
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="print the version and exit")) -> None:
    """Play heavy board games by their exact rules."""


HEARTBEAT = 60.0
"""Seconds between the lines on stderr that say a game or simulation is still running when no
live progress bar shows it (``--quiet``, or output to a file or pipe): a greedy or MCTS game of
Eclipse may take a quarter of an hour (the help of ``--quiet`` says "every minute")."""


def bar_shown(quiet: bool) -> bool:
    """Whether ``play`` and ``simulate`` draw a live progress bar: not with ``--quiet``, nor when
    the output goes to a file or pipe (a bar drawn there is never seen, and rich ends it with an
    empty line: the scores written to a file began with one). The heartbeat stands in for it."""
    return not quiet and console.is_terminal


def heartbeat(live: bool) -> Callable[[Callable[[], str]], None]:
    """``beat(describe)``, to call as the work goes on: unless ``live`` (a progress bar shows
    it), every :data:`HEARTBEAT` seconds it prints ``still running: DESCRIBE(), M:SS so far``
    on stderr (``describe`` is called only then; rich markup: rules text through :func:`rules_text`)."""
    start = last = time.monotonic()

    def beat(describe: Callable[[], str]) -> None:
        nonlocal last
        now = time.monotonic()
        if not live and now - last >= HEARTBEAT:
            last = now
            minutes, seconds = divmod(int(now - start), 60)
            err_console.print(f"still running: {describe()}, {minutes}:{seconds:02d} so far",
                              highlight=False, soft_wrap=True)
    return beat


def rules_text(text: str) -> str:
    """Text of the rules (a game's or an entity's title, a score source) as rich prints it: at
    most about :data:`~boardrules.quoting.QUOTE` characters (rich's highlighting of a title of
    100,000 characters took minutes), control characters escaped, brackets shown as written
    (a title '[/bold]' was read as markup: a traceback)."""
    return escape(brief_value(text, QUOTE))


def print_error(message: str) -> None:
    """Print ``error: MESSAGE`` to stderr as every command says an error, a plugin's too: never
    read as markup, never cut into lines (a path or a name in it stays whole)."""
    err_console.print(f"[red]error:[/red] {escape(message)}", highlight=False, markup=True,
                      soft_wrap=True)


def fail(message: str, code: int = 1) -> NoReturn:
    """:func:`print_error` and end the command with exit code ``code``."""
    print_error(message)
    raise typer.Exit(code)


@app.command("plugins")
def plugins_cmd() -> None:
    """List installed plugins: their games and each game's modules."""
    table = Table(title="Games")
    for col in ("game", "title", "players", "modules"):
        table.add_column(col)
    for name, spec in sorted(plugins.games().items()):
        mods = ", ".join(sorted(plugins.modules(name))) or "-"
        table.add_row(name, spec.title, f"{spec.players[0]}-{spec.players[1]}", mods)
    console.print(table)
    console.print("Modules (-m ID switches one on, -m -ID switches a default one off):")
    for game in sorted(plugins.games()):
        for name, mod in sorted(plugins.modules(game).items()):
            facts = [f"{'on' if mod.default else 'off'} by default",
                     "players " + ("-".join(map(str, mod.players)) if mod.players else "any")]
            facts += [f"requires {', '.join(mod.requires)}"] if mod.requires else []
            facts += [f"conflicts with {', '.join(mod.conflicts)}"] if mod.conflicts else []
            try:
                # checked as it is played (with what it requires and the defaults): the
                # checker's errors (an unknown name, a wrong type) as well as the parser's,
                # and a rule file that cannot be read, before its options are read from it;
                # interpreted: the same checks at half the cost of compiling the blocks
                build_ruleset(game, modules=plugins.resolve_modules(game, [name]), backend="interpreted")
                options = plugins.module_options(mod)
            except RulesError as err:   # a broken module is named; the others are still listed
                options = {}
                facts += [f"its rules have errors, the first at {err.diagnostics[0].span}: "
                          f"'boardrules play {game} -m {name}' shows them"]
            except BoardrulesError as err:
                options = {}
                facts += [str(err)]
            facts += [f"options {', '.join(options)}"] if options else []
            title = f"{mod.title}: " if mod.title else ""
            console.print(f"  {game} {name}: {title}{mod.description} ({'; '.join(facts)})",
                          highlight=False, markup=False, soft_wrap=True)
    pm = plugins.manager()
    names = sorted(n for n, _ in pm.list_name_plugin() if n)
    console.print("plugins: " + ", ".join(names))


@app.command()
def check(files: List[Path] = typer.Argument(..., help="rule files to check"),
          game: Optional[str] = typer.Option(None, help="check FILES as house rules of this game "
                                                        "(a name, or a .rules file of your own, as play takes)"),
          module: List[str] = typer.Option([], "--module", "-m", help=plugins.MODULE_HELP),
          all_errors: bool = typer.Option(False, "--all",
                                          help=f"show every error (default: the first {SHOWN})")) -> None:
    """Check rule files; print the errors with their places (the first few, then how many
    more) and exit 1 if any (a file that cannot be read is one error; the others are still
    checked)."""
    texts, unreadable = {}, []
    for f in files:
        try:
            texts[str(f)] = read_rule_file(f)
        except (OSError, UnicodeDecodeError) as err:
            unreadable.append(escape_text(rule_file_unreadable(f, err)))
        except RulesError as err:   # (a file too large to read)
            unreadable.append(str(err))
    for line in unreadable:
        err_console.print(line, highlight=False, markup=False, soft_wrap=True)
    n = len(unreadable)
    try:
        if texts:
            if game:
                own = _game_texts(game)   # (a game of one's own, as play and simulate take it)
                build_ruleset(None if own else game, modules=module, rules=[Path(t) for t in texts], texts=own)
            else:   # a game of one's own: it must be playable too
                build_ruleset(None, texts=texts).check_playable()
    except RulesError as err:
        err_console.print(err.format(limit=None if all_errors else SHOWN), highlight=False,
                          markup=False, soft_wrap=True)
        n += len(err.diagnostics)
        if not all_errors and len(err.diagnostics) > SHOWN:
            err_console.print("(--all shows every one)", highlight=False, markup=False)
        if not game:
            _house_rules_hint(err, lambda: "check them with '--game GAME', e.g. 'boardrules check --game "
                                           f"{_game_for(texts.values())} {escape_text(str(files[0]))}'")
    except PluginError as err:
        _unknown_game(err, game or "")
    except BoardrulesError as err:
        fail(str(err))
    if n:
        err_console.print(counted(n, "error"), style="red")
        raise typer.Exit(1)
    console.print(f"ok: {', '.join(map(str, files))}")


def _options(pairs: List[str], declared: Callable[[], Mapping[str, Any]] | None = None) -> dict[str, object]:
    """``-o NAME=VALUE`` pairs as option values: a whole number, true/false, else the text; for
    an option whose default is a list (``declared()``: the rules' options, asked only when
    options are given), the items between commas, each read the same way (``factions=terrans,
    xenos``; empty: no item), as no text could reach a list option. An option given twice is
    refused (exit 1)."""
    out: dict[str, object] = {}
    given: dict[str, str] = {}
    for pair in pairs:
        if "=" not in pair:
            fail(f"option {pair!r} must be NAME=VALUE")
        k, v = pair.split("=", 1)
        if k in given:   # (the last one was taken without a word, as a seat's second --bot is not)
            fail(f"-o {brief_text(pair)}: option {brief_text(k)} is given already (-o "
                  f"{brief_text(given[k])}); give each option once")
        given[k] = pair
        out[k] = _option_value(v)
    options = declared() if out and declared is not None else {}
    for k, value in out.items():
        if isinstance(value, str) and _NUMBER.fullmatch(value):   # (too long for read_whole)
            allowed = getattr(options.get(k), "allowed", None)
            fail(f"-o {brief_text(given[k])}: option {brief_text(k)} may not be a number of "
                 f"{len(value.lstrip('-'))} digits: " + (f"allowed {describe_domain(allowed)}" if allowed
                 else f"rules use whole numbers from {-MAX_NUMBER} to {MAX_NUMBER}"))
    for k, value in out.items():
        if k in options and isinstance(options[k].default, tuple) and isinstance(value, (str, int)):
            out[k] = tuple(_option_value(item) for item in str(value).split(",")) if value != "" else ()
    return out


_NUMBER = re.compile(r"-?[1-9][0-9]*")   # (ASCII digits, any length)


def _option_value(text: str) -> object:
    number = read_whole(text)
    return number if number is not None else {"true": True, "false": False}.get(text, text)


def _house_rules_hint(err: RulesError, how: Callable[[], str]) -> None:
    """After ``err`` of rule files given as a game of their own: when they fail as house rules
    or a module do (they change what is not there, ``override``/``extend``/``remove``, or have
    no flow step), say ``how()`` to give them to an installed game."""
    if any(d.kind == INCOMPLETE for d in err.diagnostics):
        err_console.print(f"(house rules or a module of an installed game? {how()})",
                          highlight=False, markup=False, soft_wrap=True)


def _rules_failed(err: RulesError, command: str, game: str, players: int) -> NoReturn:
    """Print ``err`` (rules of ``play`` or ``simulate``) and exit 1; for a GAME that is a rule
    file, the hint to play house rules with ``--rules``."""
    err_console.print(str(err), highlight=False, markup=False, soft_wrap=True)
    if game.endswith(".rules"):
        _house_rules_hint(err, lambda: f"give them with '--rules', e.g. 'boardrules {command} "
                                       f"{_game_for([read_rule_file(game)])} --players {players} "
                                       f"--rules {escape_text(game)}'")
    raise typer.Exit(1)


def _game_for(texts: Iterable[str]) -> str:
    """The installed game house rules given as a game of their own change (Gaia Project's for
    ``extend faction gleens``; the hint named Harvest for every file), else ``harvest``."""
    return plugins.game_changed_by(texts) or "harvest"


def _unknown_game(err: BoardrulesError, game: str) -> NoReturn:
    """Fail with ``err``; for a GAME that is a file, what a rule file's name must be."""
    hint = (" (a rule file of your own? its name must end in .rules)"
            if not game.endswith(".rules") and Path(game).is_file() else "")
    fail(f"{err}{hint}")


def _game_texts(game: str) -> dict[str, str] | None:
    """A GAME argument that is a rule file of one's own: ``{path: text}``; else None."""
    if not game.endswith(".rules"):
        return None
    try:
        return {game: read_rule_file(game)}
    except (OSError, UnicodeDecodeError) as err:
        fail(rule_file_unreadable(game, err))
    except RulesError as err:   # (a file too large to read)
        err_console.print(str(err), highlight=False, markup=False, soft_wrap=True)
        raise typer.Exit(1)


@app.command()
def play(game: str = typer.Argument(..., help="game name (see 'boardrules plugins'), or a .rules file"),
         players: int = typer.Option(..., help="number of players"),
         seed: int = typer.Option(1, help="seed for chance and the bots"),
         module: List[str] = typer.Option([], "--module", "-m", help=plugins.MODULE_HELP),
         option: List[str] = typer.Option([], "--option", "-o", help="NAME=VALUE"),
         rules: List[Path] = typer.Option([], help="house-rule files"),
         out: Path = typer.Option(Path("out"), help="folder for the record and the SVG"),
         bot: List[str] = typer.Option([], help=BOT_HELP),
         quiet: bool = typer.Option(False, help="no progress bar: a line on stderr every minute "
                                                "instead"),
         max_steps: Optional[int] = typer.Option(None, "--max-steps", min=1, help=BUDGET_HELP)) -> None:
    """Let bots play a whole game; print the scores and write the record (and the map as
    SVG when the game has a renderer). GAME may also be a rule file of your own. Ctrl-C stops
    the game and writes its record so far, as does a game that cannot go on after a move
    (stuck, or a rule over its budget: the error names the record)."""
    texts = _game_texts(game)
    try:
        whole_seed(seed, "--seed")   # (the engine's own message offers a text, which --seed does not take)
        options = _options(option, lambda: build_ruleset(None if texts else game, modules=module, rules=rules,
                                                         texts=texts).options)
        g = new_game(None if texts else game, players=players, seed=seed, modules=module,
                     options=options, rules=rules, texts=texts, max_steps=max_steps)
        freeze_once()   # (this process's rulesets live until it ends)
    except RulesError as err:
        _rules_failed(err, "play", game, players)
    except PluginError as err:
        _unknown_game(err, game)
    except (BoardrulesError, ValueError) as err:
        fail(str(err))
    try:
        bots = seat_bots(bot, players, seed)
    except ValueError as err:
        fail(str(err))
    try:
        make_folder(out)   # a folder it cannot write: said before the game
    except OSError as err:
        fail(f"cannot write the record to {out}: {err.strerror or err}")
    start = time.perf_counter()
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.fields[info]}"),
                  TimeElapsedColumn(), console=console, disable=not bar_shown(quiet),
                  transient=True) as progress:
        task = progress.add_task(rules_text(g.ruleset.title), total=None, info="")
        beat = heartbeat(live=bar_shown(quiet))

        def where(g: Game) -> str:
            rnd = g.state.values.get(F_ROUND, 0)
            return f"{f'round {rnd}' if rnd else 'setup'} · {counted(len(g.record.actions), 'action')}"

        def shown(g: Game, action: Action) -> None:
            progress.update(task, info=where(g))
            beat(lambda: f"{rules_text(g.ruleset.title)}, {where(g)}")
        interrupted = False
        failed = None   # (why the game stopped short: said once its record so far is written)
        try:
            play_out(g, bots, on_action=shown)
        except KeyboardInterrupt:       # (Ctrl-C: the game so far is kept, its record written)
            interrupted = True
        except LookupError as err:      # a stuck game (GameStuckError), a bot that found nothing
            if isinstance(err, (KeyError, IndexError)) and not isinstance(err, GameStuckError):
                raise   # not a stuck game: a bug in Python the rules call (a primitive); its traceback
            failed = ((err.headline(f"after {counted(len(g.record.actions), 'action')}")
                       if isinstance(err, GameStuckError) else
                       f"the game is stuck after {counted(len(g.record.actions), 'action')}: {err}")
                      + budget_hint(max_steps))
        except BoardrulesError as err:  # e.g. a flow step over the execution budget
            failed = f"after {counted(len(g.record.actions), 'action')}: {err}"
        except RuntimeError as err:     # play_out's bound on a game's length
            failed = str(err)
    elapsed = time.perf_counter() - start
    if failed is not None and not g.record.actions:   # (stopped at its start: no moves to keep)
        fail(failed)
    record = g.save()
    # GAME-Np-seedS+MODULE…, ~2… while the name holds another game (other options, house rules
    # or bots)
    stem = free_name(out, f"{Path(game).stem if texts else game}-{players}p-seed{seed}"
                     f"{modules_named(g.ruleset)}", ".json", record)
    record_path = out / f"{stem}.json"
    try:
        make_folder(out)
        record_path.write_text(record, encoding="utf-8")
    except OSError as err:
        fail(f"cannot write the record to {out}: {err.strerror or err}")
    if failed is not None:   # (the record so far: replayed, it shows where the rules went wrong)
        fail(f"{failed} (the record so far: {record_path})")
    try:   # (after the record is written: a final_score or tiebreak that breaks a rule keeps it)
        _print_scores(g)
    except BoardrulesError as err:
        fail(f"{err} (the record: {record_path})")
    console.print(f"{counted(len(g.record.actions), 'action')} in {elapsed:.2f} s · record: {record_path}",
                  soft_wrap=True)
    if interrupted:
        err_console.print(f"interrupted: the record holds the game so far ('boardrules replay "
                          f"{escape_text(str(record_path))}' shows it)", highlight=False, markup=False,
                          soft_wrap=True)
        raise typer.Exit(130)
    renderers: dict[str, Callable[[Game], str]] = {}
    for group in plugins.manager().hook.boardrules_renderers(game=game):
        renderers.update(group or {})
    if "map" in renderers:
        svg_path = out / f"{stem}.svg"
        svg_path.write_text(renderers["map"](g), encoding="utf-8")
        console.print(f"map: {svg_path}", soft_wrap=True)


#: How many players tied for first the line under the scores names (the rest counted).
SHOWN_TIED = 10


def _print_scores(g: Game) -> None:
    scores = g.scores()
    sources = sorted({s for sc in scores for s in sc["sources"]})
    if g.over:
        console.print(f"[bold]{rules_text(g.ruleset.title)}: final scores[/bold]")
    else:
        console.print(f"[bold]{rules_text(g.ruleset.title)}: scores so far[/bold] (the game is not finished: "
                      f"{counted(len(g.record.actions), 'move')})")
    names = [rules_text(_player_name(g, p)) for p in range(g.players)]
    rows = [(rules_text(_source_label(g, s)), [str(sc["sources"].get(s, 0)) for sc in scores]) for s in sources]
    rows.append(("[bold]total[/bold]", [f"[bold]{sc['total']}[/bold]" for sc in scores]))
    if g.ruleset.final_score is not None:
        rows.append(("[bold]final score[/bold]", [f"[bold]{v}[/bold]" for v in g.final_scores()]))
    tables, short = _score_tables(names, rows)
    for table in tables:
        console.print(table)
    if short != names:
        console.print(" · ".join(names))   # (whom the short headings stand for)
    if g.over:
        places = g.ranking()
        tied = [names[p] for p in places[0]]   # (a rules file's game of 4,000 players tied them all)
        shown = tied[:SHOWN_TIED] + ([counted(len(tied) - SHOWN_TIED, "more player")]
                                     if len(tied) > SHOWN_TIED else [])
        first = f"{', '.join(shown[:-1])} and {shown[-1]}" if len(shown) > 1 else shown[0]
        console.print(f"winner: {first}" if len(places[0]) == 1 else f"tie for first: {first}")


def _score_table(names: list[str], rows: list[tuple[str, list[str]]], seats: range) -> Table:
    """The score rows for the players of ``seats``, under the headings ``names``."""
    table = Table()
    table.add_column("source")
    for p in seats:
        table.add_column(names[p], justify="right")
    for label, cells in rows:
        table.add_row(label, *(cells[p] for p in seats))
    return table


def fits(table: Table, on: Console | None = None) -> bool:
    """Whether ``table`` fits console ``on`` (the standard output's by default) without
    cutting a word: drawn at its width, no line is longer and nothing is cut to ``…``
    (headings and labels wrap between words; figures, which never wrap, would stick out).
    (It is drawn, not measured: a table's measure counts a figure's words, not its width.)"""
    on = on or console
    probe = Console(file=io.StringIO(), width=on.width, color_system=None, legacy_windows=False)
    probe.print(table)
    drawn = probe.file.getvalue()   # type: ignore[attr-defined]
    return "…" not in drawn and all(cell_len(line) <= on.width for line in drawn.splitlines())


def _score_tables(names: list[str], rows: list[tuple[str, list[str]]]) -> tuple[list[Table], list[str]]:
    """The score table and its headings: the players' names when it fits the console (at 80
    columns, 4 players of Gaia Project), else ``p1``, ``p2`` … (for the names to be listed
    below), in tables of as many players as fit (a 9-player game of Eclipse cut every name
    and the sources to 'Terr…', 'sour…'), each table tried."""
    seats = range(len(names))
    # (each column takes at least 4 characters, a figure's one, its padding and a rule, so at
    # most this many players' columns fit beside the sources': a rules file's game of 20,000
    # players tried tables of 20,000, 19,999 … columns, each drawn whole, for minutes)
    most = max(1, (console.width - 1) // 4 - 1)
    if len(names) <= most:
        table = _score_table(names, rows, seats)
        if fits(table):
            return [table], names
    short = [f"p{p + 1}" for p in seats]
    tables: list[Table] = []
    start, per = 0, min(len(names), most)
    while start < len(names):   # (each table tried: later headings are wider, 'p10' than 'p9')
        n = min(per, len(names) - start)
        while n > 1 and not fits(table := _score_table(short, rows, range(start, start + n))):
            n = per = n - 1
        tables.append(_score_table(short, rows, range(start, start + n)))
        start += n
    return tables, short


def modules_named(rs: Ruleset) -> str:
    """The modules of ``rs`` in a file name: ``+MODULE`` for each switched on, ``-MODULE`` for
    each default one switched off (``+market-day``; '' for the game as it comes)."""
    defaults = set(plugins.resolve_modules(rs.game)) if rs.game else set()
    on = set(rs.modules)
    return "".join(f"+{m}" for m in sorted(on - defaults)) + "".join(f"-{m}" for m in sorted(defaults - on))


MAX_STEM_BYTES = 200
"""The longest name ``play`` and ``simulate`` give a file before ``~N`` and the suffix, in UTF-8
bytes: file systems take names of at most 255 bytes (a 9-player Eclipse game with every module
on names 14 of them)."""


def bounded_stem(stem: str) -> str:
    """``stem``, or when it is longer than :data:`MAX_STEM_BYTES` its start and ``_`` and 12
    hex digits of its SHA-256 (two long names alike at the start stay two)."""
    data = stem.encode("utf-8")
    if len(data) <= MAX_STEM_BYTES:
        return stem
    head = data[:MAX_STEM_BYTES - 13].decode("utf-8", "ignore")   # (not half a character)
    return f"{head}_{hashlib.sha256(data).hexdigest()[:12]}"


def free_name(folder: Path, stem: str, suffix: str, text: str | None = None) -> str:
    """``stem`` (:func:`bounded_stem`), or ``stem~2``, ``stem~3``… the first whose file
    ``folder/NAME SUFFIX`` does not exist or holds ``text`` already (None: the first that does
    not exist): a file is only ever written over by the same content (``play``'s record of the
    same game played again)."""
    stem = bounded_stem(stem)
    name, n = stem, 1
    while True:
        path = folder / f"{name}{suffix}"
        if not path.exists():
            return name
        if text is not None:
            try:
                if path.read_text(encoding="utf-8") == text:
                    return name
            except (OSError, UnicodeDecodeError):   # (a folder, a file it cannot read: not ours)
                pass
        n += 1
        name = f"{stem}~{n}"


def _source_label(g: Game, source: str) -> str:
    """A score source as players read it: an entity's ``title`` field or a flow step's title
    when it has one; the engine's own sources in words (``start``: a scored resource's
    starting amount; ``TRACK N``: the reward of a track's level N; ``when EVENT (MODULE)``: a
    module's top-level reaction, under the module's title)."""
    title = entity_title(g.ruleset, source) or step_title(g.ruleset, source)
    if title is not None:
        return title
    if source == "start":
        return "starting score"
    trigger, _, origin = source.removesuffix(")").partition(" (")
    if origin and trigger.startswith("when "):
        spec = plugins.modules(g.ruleset.game).get(origin) if origin in g.ruleset.modules else None
        return f"{spec.title or spec.name if spec else origin}: {trigger}"
    track, _, level = source.rpartition(" ")
    if track in g.ruleset.tracks and read_whole(level) is not None:
        return f"{track.replace('_', ' ')} track, level {level}"
    return source


def _player_name(g: Game, p: int) -> str:
    role = player_role(g, p)
    return f"p{p + 1}" + (f" {_source_label(g, role)}" if role else "")


@app.command()
def replay(file: Path = typer.Argument(..., help="a record: boardrules JSON or a format a plugin reads"),
           unchecked: bool = typer.Option(False, help="skip legality checks (trusted records)"),
           max_steps: Optional[int] = typer.Option(None, "--max-steps", min=1, help=BUDGET_HELP)) -> None:
    """Replay a record; exit 1 naming the first difference if it does not match its final state."""
    try:
        report = replay_file(file, check=not unchecked, max_steps=max_steps)
    except ExecutionBudgetError as err:   # (a record of play --max-steps needs the same budget)
        fail(f"{err}; a game played with a larger budget replays with the same: --max-steps N "
             f"(now {LIMITS.max_steps if max_steps is None else max_steps})")
    except BoardrulesError as err:   # (an illegal move, a record that cannot be read, ...)
        fail(str(err))
    shown = escape_text(str(file))   # (a file name may hold control characters or rich markup)
    for note in report.notes:
        err_console.print(f"{shown}: note: {note}", highlight=False, markup=False)
    if report.differences:
        err_console.print(f"{shown}: {counted(report.moves, 'move')} replayed; the final state differs:", markup=False)
        for d in report.differences[:20]:
            err_console.print(f"  {d}", highlight=False, markup=False)
        raise typer.Exit(1)
    state = "final state matches" if report.game.over else "the game is not finished"
    console.print(f"{shown}: {counted(report.moves, 'move')} replayed, {state}", soft_wrap=True, markup=False)
    _print_scores(report.game)


from .simulate_cli import simulate_command  # noqa: E402  (it uses this module's helpers)

app.command("simulate")(simulate_command)


def add_plugin_commands() -> None:
    """Add the plugins' commands (``boardrules_cli``) to ``app``; give every command without a
    ``short_help`` its docstring's first paragraph on one line (typer's rich help keeps the
    docstring's line breaks in the list of commands, which then breaks mid-sentence)."""
    plugins.manager().hook.boardrules_cli(app=app)
    for info in app.registered_commands:
        doc = info.help or (info.callback.__doc__ if info.callback else None) or ""
        if info.short_help is None and doc:
            info.short_help = " ".join(inspect.cleandoc(doc).split("\n\n")[0].split())


def main() -> None:
    """The CLI (the ``boardrules`` script runs it through :func:`boardrules.__main__.main`)."""
    try:
        try:
            add_plugin_commands()   # (a plugin that fails to load: a PluginError, said below)
        except KeyboardInterrupt:   # (the plugins import their code here: numpy, for one)
            from .__main__ import loading_interrupted
            loading_interrupted()
        app()
    except BoardrulesError as err:  # last resort: never a traceback for a user's mistake
        print_error(str(err))
        sys.exit(1)


if __name__ == "__main__":
    main()

