"""A game where nobody can act while it is not over: listing or sampling the legal actions of
everyone to act raises GameStuckError naming the flow step and the turn or decision, the
bots pass it on, and `boardrules play` prints it (never an empty list in silence, nor a hang)."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

import boardrules
from boardrules import GameStuckError
from boardrules.bots import play_out, seat_bots
from boardrules.cli import app

HEAD = """game stuck { title "Stuck"; players 2..3 }
resource coins { start 0 }
resource vp { start 0; scored true }
"""
TURN = HEAD + """action work main { pay 1 coins; gain 1 vp }
flow { rounds 2 { step play: turns seat once { main work } } }
"""
DECISION = HEAD + """action work main {
  gain 1 vp
  choose n in [1, 2] "spend how many coins" { pay n coins }
}
flow { rounds 2 { step play: turns seat once { main work } } }
"""
SIMULTANEOUS = HEAD + """action bid(n: int in 1..3) main { pay n coins }
flow { setup { step start: do { gain 1 vp to 0 } }
       rounds 1 { step bids: turns seat simultaneous { main bid } } }
"""


def _game(text: str, backend: str = "compiled") -> boardrules.Game:
    return boardrules.new_game(texts={"stuck.rules": text}, players=2, seed=1, backend=backend)


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
@pytest.mark.parametrize("text, where", [
    (TURN, "rounds (round 1), step 'play': it is p1's turn and none of its actions (work) is legal"),
    (SIMULTANEOUS, "rounds (round 1), step 'bids': none of its players to act has a legal action (bid)"),
])
def test_listing_or_sampling_when_nobody_can_act_names_the_step(backend, text, where):
    g = _game(text, backend)
    state = g.state
    for attempt in (lambda: list(g.legal_actions()), lambda: len(g.legal_actions()),
                    lambda: bool(g.legal_actions()), lambda: g.legal_actions().sample(random.Random(1))):
        with pytest.raises(GameStuckError) as info:
            attempt()
        assert f"nobody can act and the game is not over: {where}" in str(info.value)
    assert "(e.g. p1 " in str(info.value)            # why the first candidate is refused
    assert g.state is state and not g.over
    assert list(g.legal_actions(player=1)) == [] and repr(g.legal_actions()) == "<LegalActions 0: nobody can act>"


def test_a_decision_with_no_legal_option_is_named():
    g = _game(DECISION)
    g.play("p1 work")                       # legal: the decision comes after
    with pytest.raises(GameStuckError, match="p1's decision 'n' \\(spend how many coins\\) has no legal option"):
        list(g.legal_actions())


REFUSED_DRAW = HEAD + """var deck: list[int] = [1, 2, 3]
action work main { gain 1 vp }
flow { setup { step deal: do { draw c from deck { require c > 5 else "too small" } } }
       rounds 1 { step play: turns seat once { main work } } }
"""


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
@pytest.mark.parametrize("auto_chance", [True, False])
def test_a_chance_draw_refusing_every_outcome_in_a_do_step_is_named(backend, auto_chance):
    """A `do` step's draw whose body refuses every card waits after the step (the flow's step
    index is past the setup's last): the error read the step there, an IndexError."""
    rs = boardrules.build_ruleset(texts={"stuck.rules": REFUSED_DRAW}, backend=backend)
    g = boardrules.Game(rs, 2, 1, auto_chance=auto_chance)
    with pytest.raises(GameStuckError, match=r"not over: setup: chance's decision 'c' has no legal "
                                             r"option \(e\.g\. chance c 1: too small"):
        list(g.legal_actions())


@pytest.mark.parametrize("bot", ["random", "greedy", "mcts:3"])
def test_bots_pass_the_error_on(bot):
    g = _game(TURN)
    with pytest.raises(GameStuckError, match="step 'play'"):
        play_out(g, seat_bots([bot], 2))
    with pytest.raises(GameStuckError, match="step 'play'"):
        seat_bots([bot], 2)[0].choose(g)


def test_a_game_that_ends_or_is_mid_game_is_not_stuck():
    g = boardrules.new_game("harvest", players=3, seed=2)
    assert len(g.legal_actions()) > 0
    play_out(g)
    assert g.over and list(g.legal_actions()) == [] and len(g.legal_actions()) == 0
    with pytest.raises(IndexError, match="no legal action to sample"):
        g.legal_actions().sample(random.Random(1))


def test_play_prints_where_it_is_stuck(tmp_path):
    rules = tmp_path / "stuck.rules"
    rules.write_text(TURN)
    result = CliRunner().invoke(app, ["play", str(rules), "--players", "2", "--quiet", "--out", str(tmp_path)],
                                env={"COLUMNS": "300"})
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "the game is stuck after 0 actions: nobody can act and the game is not over: rounds (round 1), " \
           "step 'play': it is p1's turn and none of its actions (work) is legal " \
           "(e.g. p1 work: needs 1 coins, has 0" in result.output


def test_play_and_simulate_name_a_game_that_never_ends(tmp_path):
    rules = tmp_path / "endless.rules"
    rules.write_text(HEAD + """action work main { gain 1 vp }
flow { rounds 999999999 { step play: turns seat once { main work } } }
""")
    for command in (["play", str(rules), "--players", "2", "--quiet", "--out", str(tmp_path)],
                    ["simulate", str(rules), "--players", "2", "--games", "1", "--workers", "1",
                     "--quiet", "--out", str(tmp_path / "r.csv")]):
        result = CliRunner().invoke(app, command, env={"COLUMNS": "300"})
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        assert "the game did not end within 100000 actions" in result.output


@pytest.mark.parametrize("bug", [KeyError(0), IndexError("list index out of range")])
def test_a_python_error_in_play_is_not_called_stuck(bug, monkeypatch, tmp_path):
    """A KeyError or IndexError out of the game (a bug in a primitive) is no stuck game: the
    command line lets it through with its traceback instead of 'the game is stuck'."""
    import boardrules.cli as cli

    def broken(*args, **kwargs):
        raise bug
    monkeypatch.setattr(cli, "play_out", broken)
    result = CliRunner().invoke(app, ["play", "harvest", "--players", "2", "--quiet", "--out", str(tmp_path)])
    assert result.exception is bug and "stuck" not in result.output


def test_a_where_that_breaks_a_rule_for_every_value_is_named(tmp_path):
    """Every value's ``where`` breaks a rule (so none is legal): the error says which rule, with
    its position, and the command line shows the bracketed rule (rich markup must not eat it)."""
    text = HEAD + """var xs: list[int] = []
action work(n: int in 0..3 where xs[n] > 0) main { gain n vp }
flow { rounds 1 { step play: turns seat once { main work } } }
"""
    with pytest.raises(GameStuckError, match=r"\(e\.g\. p1 work 0: index 0 is outside a list of 0 "
                                             r"\[rule: work \(stuck\.rules:5:34\)\]\)"):
        list(_game(text).legal_actions())
    rules = tmp_path / "stuck.rules"
    rules.write_text(text)
    result = CliRunner().invoke(app, ["play", str(rules), "--players", "2", "--quiet", "--out", str(tmp_path)],
                                env={"COLUMNS": "300"})
    assert result.exit_code == 1 and "[rule: work" in result.output, result.output


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
@pytest.mark.parametrize("mode, actions", [("once", "work, idle"), ("until_pass", "work, stop")])
def test_a_flow_step_that_breaks_a_rule_is_named_before_the_actions_own_refusals(backend, mode, actions):
    """Every candidate of p2 is refused: its first (work) by its own rule, the one that ends the
    turns step by the flow step run after it. The error names the flow step and its position,
    where the rules must be mended, not the first candidate's own refusal."""
    text = HEAD + """action work main { pay 1 coins; gain 1 vp }
action idle main { gain 1 vp }
action stop main { pass }
flow { rounds 2 {
  step play: turns seat MODE { main ACTIONS }
  step audit: do { require round > 2 else "the audit always fails" }
} }
""".replace("MODE", mode).replace("ACTIONS", actions)
    g = _game(text, backend)
    g.play("p1 " + actions.split(", ")[1])
    with pytest.raises(GameStuckError) as info:
        list(g.legal_actions())
    assert "it is p2's turn and none of its actions" in str(info.value)
    assert "the game cannot go on: step 'audit' breaks a rule (the audit always fails) " \
           "[rule: audit (stuck.rules:9:20)]" in str(info.value)


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
@pytest.mark.parametrize("event, cond", [("round_ends", "n > 1"), ("round_begins", "n < 2"),
                                         ("step_ends", 'n != "play"')])
def test_an_engine_event_the_flow_raises_that_breaks_a_rule_is_named(backend, event, cond):
    """A trigger of an engine event raised as the flow runs on (here at the end of round 1) is
    the flow's failure, named as such with the trigger's position, like a step's."""
    text = HEAD + f"""action work main {{ pay 1 coins; gain 1 vp }}
action idle main {{ gain 1 vp }}
when {event}(n) {{ require {cond} else "the audit always fails" }}
flow {{ rounds 2 {{ step play: turns seat once {{ main work, idle }} }} }}
"""
    g = _game(text, backend)
    g.play("p1 idle")
    with pytest.raises(boardrules.IllegalActionError) as played:
        g.play("p2 idle")
    assert str(played.value) == (f"p2 idle: the game cannot go on: event '{event}' breaks a rule (the audit "
                                 f"always fails) [rule: when {event} (stuck.rules:6:{12 + len(event)})]")
    with pytest.raises(GameStuckError) as info:
        list(g.legal_actions())
    assert f"(e.g. {played.value})" in str(info.value)


def test_simulate_names_the_stuck_game_and_shows_the_bracketed_rule(tmp_path):
    """simulate prints a stuck game's error as text (rich markup must not eat '[rule: …]')
    and says which game, by its seed, so that it can be played again alone."""
    rules = tmp_path / "stuck.rules"
    rules.write_text(TURN)
    result = CliRunner().invoke(app, ["simulate", str(rules), "--players", "2", "--games", "1", "--seed", "7",
                                      "--workers", "1", "--quiet", "--out", str(tmp_path / "r.csv")],
                                env={"COLUMNS": "300"})
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert "error: the game of seed 7: nobody can act and the game is not over" in result.output
    assert f"(e.g. p1 work: needs 1 coins, has 0 [rule: work ({rules}:4:1)])" in result.output


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
def test_a_failure_inside_a_step_inside_the_flow_is_said_once_with_its_places(backend):
    """A trigger of 'step_begins' failing as a do step runs said 'breaks a rule' twice ("step
    'audit' breaks a rule (event 'step_begins' breaks a rule (...))"): one message now, the
    places innermost first."""
    text = HEAD + """action work main { gain 1 vp }
when step_begins(n) { require n != "audit" else "the audit always fails" }
flow { rounds 2 { step play: turns seat once { main work }
  step audit: do { gain 1 vp to 0 } } }
"""
    g = _game(text, backend)
    g.play("p1 work")
    with pytest.raises(boardrules.IllegalActionError) as played:
        g.play("p2 work")
    assert str(played.value) == ("p2 work: the game cannot go on: event 'step_begins' in step 'audit' breaks "
                                 "a rule (the audit always fails) [rule: when step_begins (stuck.rules:5:23)]")
    assert str(played.value).count("breaks a rule") == 1


def test_a_house_rules_trigger_names_its_file_once(tmp_path):
    """A house rule's trigger is named after its file ('when round_ends (house.rules)'), and
    its position names the file again: "[rule: when round_ends (house.rules) (…/house.rules:1:22)]";
    the file is named once now, in the position."""
    house = tmp_path / "house.rules"
    house.write_text('when round_ends(n) { require n > 5 else "the audit always fails" }\n')
    g = boardrules.new_game("harvest", players=2, seed=1, rules=[house])
    rng = random.Random(1)
    with pytest.raises(GameStuckError) as info:
        for _ in range(500):
            g.play(rng.choice(list(g.legal_actions())))
    assert f"[rule: when round_ends ({house}:1:22)]" in str(info.value)
    assert str(info.value).count("house.rules") == 1


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
def test_an_argument_whose_values_cannot_be_listed_is_shown_by_its_name(backend):
    """A parameter whose domain breaks a rule has no value to show: the example action showed
    ``none`` for it (a value rules may hold); it shows the parameter's name, ``<n>``."""
    text = HEAD + """var xs: list[int] = []
action work(m: int in 0..2, n: int in [xs[m]]) main { gain n vp }
flow { rounds 1 { step play: turns seat once { main work } } }
"""
    with pytest.raises(GameStuckError) as info:
        list(_game(text, backend).legal_actions())
    assert "(e.g. p1 work 0 <n>: index 0 is outside a list of 0 [rule: work (stuck.rules:5:39)])" \
        in str(info.value)
    assert " none" not in str(info.value).split("(e.g.")[1]


# ---- a rule failing at run time, hidden behind another action's refusal ----------------------

BROKEN = HEAD + """var xs: list[int] = []
action work main { pay 1 coins; gain 1 vp }
action boom main { gain xs[0] vp }
flow { rounds 2 { step play: turns seat once { main work, boom } } }
"""
BOOM = "p1 boom: index 0 is outside a list of 0 [rule: boom (stuck.rules:6:25)]"


@pytest.mark.parametrize("backend", ["compiled", "interpreted"])
def test_every_actions_refusal_is_named_not_only_the_first(backend):
    """p1's work is refused (no coins) and boom fails at run time (an index outside a list):
    the error named work's refusal alone, "(e.g. p1 work: needs 1 coins, has 0 ...)", so the
    rule to mend (boom's, with its file:line:column) was not said anywhere. Boom's failure is a
    defect of the rules (a RuleFailedError), named first."""
    g = _game(BROKEN, backend)
    state = g.state
    with pytest.raises(GameStuckError) as info:
        list(g.legal_actions())
    assert str(info.value).endswith(
        "(work, boom) is legal (e.g. " + BOOM + "; p1 work: needs 1 coins, has 0 [rule: work (stuck.rules:5:1)])")
    assert [str(err) for err in info.value.refusals] == [
        BOOM, "p1 work: needs 1 coins, has 0 [rule: work (stuck.rules:5:1)]"]
    assert [type(err) for err in info.value.refusals] == [boardrules.RuleFailedError, boardrules.IllegalActionError]
    assert info.value.failed is info.value.refusals[0]
    with pytest.raises(boardrules.IllegalActionError) as played:   # the API names it, nothing played
        g.play("p1 boom")
    assert str(played.value) == BOOM and g.state is state and g.record.actions == []


def test_play_simulate_and_replay_name_the_rule_that_fails_at_run_time(tmp_path):
    rules = tmp_path / "stuck.rules"
    rules.write_text(BROKEN)
    boom = BOOM.replace("stuck.rules", str(rules))
    play = CliRunner().invoke(app, ["play", str(rules), "--players", "2", "--quiet", "--out", str(tmp_path)],
                              env={"COLUMNS": "300"})
    simulate = CliRunner().invoke(app, ["simulate", str(rules), "--players", "2", "--games", "1", "--workers",
                                        "1", "--quiet", "--out", str(tmp_path / "r.csv")], env={"COLUMNS": "300"})
    for result in (play, simulate):
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        assert boom in result.output, result.output
    # a rule failed at run time (a defect of the rules), not a rule saying no: said so, with its place
    assert " ".join(play.output.split()).startswith(f"error: a rule failed after 0 actions: {boom}; so nobody can act")
    assert " ".join(simulate.output.split()).startswith(f"error: a rule failed: {boom}; so the game of seed")
    record = tmp_path / "r.json"
    record.write_text(boardrules.new_game(texts={str(rules): BROKEN}, players=2).save().replace(
        '"actions": []', '"actions": ["p1 boom"]'), encoding="utf-8")
    replay = CliRunner().invoke(app, ["replay", str(record)], env={"COLUMNS": "300"})
    assert replay.exit_code == 1 and "Traceback" not in replay.output, replay.output
    assert f"move 1: {boom}" in replay.output


def test_a_defect_is_named_first_and_the_rest_are_counted():
    """A primitive's failure or the execution budget (defects, not rules saying no) come first,
    even when tried last; past four actions, the others are counted."""
    names = [f"a{i}" for i in range(6)]
    text = HEAD + "".join(f"action {n} main {{ pay 1 coins }}\n" for n in names) \
        + "action spin main { for i in 1..100000 { gain 0 vp } }\n" \
        + f"flow {{ rounds 1 {{ step play: turns seat once {{ main {', '.join(names)}, spin }} }} }}\n"
    g = boardrules.new_game(texts={"stuck.rules": text}, players=2, max_steps=1000)
    with pytest.raises(GameStuckError) as info:
        list(g.legal_actions())
    assert isinstance(info.value.refusals[0], boardrules.ExecutionBudgetError)
    assert len(info.value.refusals) == 7
    assert str(info.value).startswith("nobody can act")
    assert "(e.g. p1 spin: the rules ran more than" in str(info.value)
    assert str(info.value).endswith("; and 3 other actions)")


def test_an_action_of_many_arguments_does_not_hide_the_next_ones_refusal():
    """The error tried the first 200 candidates: all of 'many' (500 values), never boom's."""
    text = BROKEN.replace("action work main { pay 1 coins; gain 1 vp }",
                          "action work(n: int in 1..500) main { pay n coins; gain 1 vp }")
    with pytest.raises(GameStuckError) as info:
        list(_game(text).legal_actions())
    assert [str(err) for err in info.value.refusals] == [
        BOOM, "p1 work 1: needs 1 coins, has 0 [rule: work (stuck.rules:5:1)]"]
