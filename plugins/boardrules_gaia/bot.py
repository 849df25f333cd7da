"""Gaia Project's evaluation for the bots (:mod:`boardrules.bots`): victory points now plus
what the position is worth in victory points at the end, as a strong player reckons it.

``evaluate(game, player) -> float`` (VP). The parts, each discounted by the rounds left
(``left``: the rounds whose income is still to come, 6 during setup, 0 in round 6):

* resources held, at a worth that falls from what they buy early in the game to the end-game
  exchange (1 VP per 3 credits, ore or knowledge, §12.6; power in bowl III becomes credits,
  two tokens of bowl II one of bowl III by burning; a token spent from bowl III is worth more
  than a credit in every round);
  the early worths follow the exchange rates of the free actions and power actions (3 power
  from bowl III for an ore is about even, a power action's 4 power for 2 ore pays, burning a
  token loses), and what a player holds beyond ``HOARD`` (more than the next builds use) is
  worth only its end-game exchange;
* income per round times the rounds left: the faction board's incomes for what is built
  (the building and faction fields of ``rules/buildings.rules`` and the factions module), the
  economy and science levels (the tables ``econ_c``/``econ_o``/``econ_pw``/``sci_k`` of
  ``rules/research.rules``), income tech tiles and the booster held for the next round;
* structures beyond their income (planets, power value for federations, the way up to the
  planetary institute and the academies);
* research levels: the end-game research VP (4/8/12 VP at levels 3/4/5, §12.5) and the reach
  or Gaia projects they give; terraforming levels by the ore per step they save (the table
  ``ore_per_step`` of ``rules/research.rules``: levels 2 and 3 save one each, 1, 4 and 5 none)
  on the steps still to pay;
* the VP still to come from passing: the held booster's and tech tiles' pass bonus of this
  round (a player who has not passed gets it whenever it passes, so passing early gains
  nothing) and of the rounds left, tech tiles that score events, tile actions per round; the
  booster a player takes when passing, counted before it passes as the best one left (so a
  pass gains nothing over an action that pays);
* Gaiaformers: on the faction board (Gaia projects to come) and on transdim planets (mine
  sites without terraforming);
* federations formed (what they open: final scoring, green tokens for level 5) and power in
  structures not yet federated (the next federation);
* the two final scoring tiles: a unit's worth early, blending into the expected 18/12/6 VP of
  the ranking among the players as the game goes on (§10).

The parts are named terms (:func:`terms`, a dict per player and position) and the evaluation
is their sum weighted by ``WEIGHTS``. The numbers inside the terms are our estimates (no
source), tuned by games of greedy bots (``bench/bench_bots.py``); ``WEIGHTS`` are 1 for them
(``HAND_WEIGHTS``). ``bench/fit_gaia_eval.py`` fits ``WEIGHTS`` to the real players' moves of
the team's records (comparison training); the fitted weights agree more often with the real
moves on held-out records but played worse in paired bot games, so they are not used (see
the script's docstring). Content numbers (booster and tech tile effects) are those of
``rules/tiles.rules``; they are restated here only as the worth a player sees in them.
"""

from __future__ import annotations

from functools import lru_cache

ROUNDS = 6
# resource: (worth at the end: 1 VP per 3 after conversion, worth early in the game)
RESOURCE = {"credits": (0.33, 0.35), "ore": (0.33, 1.05), "knowledge": (0.33, 0.55),
            "qic": (0.33, 1.6), "bowl1": (0.0, 0.18), "bowl2": (0.165, 0.38),
            "bowl3": (0.33, 0.65), "gaia_power": (0.0, 0.1)}
# power: a token of bowl III becomes a credit at the end (§12.6), two of bowl II one of bowl
# III (burnt); earlier a token spent from bowl III (to bowl I) is worth more than the credit
# the 1:1 conversion gives and about what the power actions buy (4 for 2 ore or 7 credits):
# bots that valued it below a credit turned their power into credits round after round
# what a player can put to use in a round or two: units beyond are worth only their end-game
# exchange (bots hoarded 30 credits, the cap, for want of ore)
HOARD = {"credits": 15, "ore": 10, "knowledge": 10}
POWER_CHARGE = 0.15     # a unit of power charged (a token one bowl up)
POWER_TOKEN = 0.15      # a new token in bowl I
# building: worth at once beyond its income (planet, power value, the path to bigger buildings)
BUILDING = {"mine": 3.0, "ts": 5.0, "lab": 7.0, "pi": 13.0, "ac1": 8.0, "ac2": 8.0}
TRACKS = ("terraforming", "navigation", "intelligence", "gaia", "economy", "science")
# per level and round left, beyond the income (economy, science) it pays: reach, Gaia projects
# (terraforming: TERRA_STEPS instead)
TRACK_PER_ROUND = {"economy": 0.15, "science": 0.1, "terraforming": 0.0, "navigation": 0.35,
                   "intelligence": 0.3, "gaia": 0.3}
# terraforming steps a player pays per round left: a terraforming level is worth the ore per
# step it saves on them (a flat worth per level overrated level 1, which saves nothing)
TERRA_STEPS = 0.6
LEVEL = 1.6             # a level now (towards the research VP and the tiles on level 5)
RESEARCH_VP = (0, 0, 0, 4, 8, 12)
FEDERATION = 4.0        # a federation formed, beyond its token
GREEN_TOKEN = 1.5       # a federation token still green (level 5, some tile actions)
FED_POWER = 0.35        # per unit of power value in structures not federated (up to 7)
GAIAFORMER = 0.3        # a Gaiaformer on the faction board, per round left (a Gaia project to come)
GF_SITE = 3.0           # a Gaiaformer on a transdim planet: a mine site needing no terraforming
FINAL = 1.5             # per unit a final scoring tile counts, early in the game
PASS_BOOSTER = 1.0      # the share of the best booster left counted before passing
NEXT_ROUND = 0.85       # what VP or income of the next round are worth now
# tiles (``rules/tiles.rules``): income per round; VP per round from the events they score
TECH_INCOME = {"tech5": {"ore": 1, "pw": 1}, "tech6": {"knowledge": 1, "credits": 1},
               "tech8": {"credits": 4}}
TECH_ACTION = {"tech9": {"pw": 4}, "advtech3": {"qic": 1, "credits": 5}, "advtech11": {"ore": 3},
               "advtech13": {"knowledge": 3}}
TECH_EVENTS = {"tech7": 1.5, "advtech2": 3.0, "advtech14": 4.0, "advtech15": 3.0}
TECH_BIG = {"tech3": 1.0}    # per PI or academy (power value 4)
BOOSTER_INCOME = {"booster1": {"knowledge": 1, "ore": 1}, "booster2": {"ore": 1, "tokens": 2},
                  "booster3": {"qic": 1, "credits": 2}, "booster4": {"credits": 2, "ore": 1},
                  "booster5": {"pw": 2, "ore": 1}, "booster6": {"ore": 1}, "booster7": {"ore": 1},
                  "booster8": {"knowledge": 1}, "booster9": {"pw": 4}, "booster10": {"credits": 4}}
# (booster4's free terraforming step and booster5's range count as about an ore)

# the weight of each of :func:`terms` in the evaluation: 1 for the hand-made terms, 0 for the
# terms they lacked
RES_TERM = {r: "res_" + r for r in RESOURCE}
INC_TERM = {r: "inc_" + r for r in ("credits", "ore", "knowledge", "qic", "tokens", "pw")}
BLD_TERM = {b: "bld_" + b for b in BUILDING}
TRACK_TERM = {t: "track_" + t for t in TRACKS}
TERMS = ("vp", *RES_TERM.values(), *INC_TERM.values(), *BLD_TERM.values(), "tech", "pass_now",
         "pass_later", "booster", *TRACK_TERM.values(), "research_vp", "level", "terra", "fed", "green",
         "fed_power", "final", "gaiaformer", "gf_site")
NEW_TERMS = ("mines_left", "levels_left", "terra1", "power_cycle", "structures")
HAND_WEIGHTS = {**dict.fromkeys(TERMS, 1.0), **dict.fromkeys(NEW_TERMS, 0.0)}
WEIGHTS = dict(HAND_WEIGHTS)


def _pass_vp(game, player: int, holder: str) -> int:
    """The VP ``holder`` (a booster or tech tile) gives ``player`` when passing (its
    ``on_pass``, ``rules/tiles.rules``)."""
    if holder in ("booster6",):
        return sum(1 for h in game.get("my_hexes", player)
                   if game.get("bld", index=h) == "mine" or game.get("owner_at", index=h) != player)
    if holder == "booster7":
        return 2 * game.get("built", player, "ts")
    if holder in ("booster8", "advtech5"):
        return 3 * game.get("built", player, "lab")
    if holder == "booster9":
        return 4 * sum(game.get("built", player, b) for b in ("pi", "ac1", "ac2"))
    if holder == "booster10":
        return sum(1 for h in game.get("my_hexes", player)
                   if game.get("planet", index=h) == "g" and game.get("owner_at", index=h) == player)
    if holder == "advtech1":
        return 3 * game.get("fed_count", player)
    if holder == "advtech7":
        return len(game.get("ptypes", player))
    return 0


def booster_worth(game, player: int, booster: str, weights: dict[str, float]) -> float:
    """What ``booster``, taken when passing, is worth to ``player`` now: the next round's
    income from it and its pass bonus then (at today's counts), at ``NEXT_ROUND``."""
    income = sum(weights[r] * n for r, n in BOOSTER_INCOME.get(booster, {}).items())
    return NEXT_ROUND * (income + _pass_vp(game, player, booster))


def later_weights(left: int) -> dict[str, float]:
    """The weights of income received in the ``left`` rounds to come (mid-way through them)."""
    return _weights(max(0, left - 1) // 2 + (1 if left else 0))


@lru_cache(maxsize=8)
def _tables(ruleset) -> dict:
    """What the evaluation reads from a ruleset once: incomes by level and building."""
    from boardrules.game import Game
    g = Game(ruleset, 2, 0, auto_chance=False)
    ent = ruleset.entities
    return {"econ": [(g.get("econ_c")[i], g.get("econ_o")[i], g.get("econ_pw")[i]) for i in range(6)],
            "sci": list(g.get("sci_k")),
            "mine_o": list(ent["mine"].fields.get("inc_o", ())),
            "boosters": set(ruleset.by_kind.get("booster", ())),
            "techs": tuple(t for t in ruleset.by_kind.get("tech", ())),
            "final_vp": list(g.get("final_vp")),
            "ore_per_step": list(g.get("ore_per_step"))}


def _weights(left: int) -> dict[str, float]:
    w = {name: end + (early - end) * left / ROUNDS for name, (end, early) in RESOURCE.items()}
    w["pw"] = POWER_CHARGE * left / ROUNDS
    w["tokens"] = POWER_TOKEN * left / ROUNDS
    return w


def _income(game, player: int, tables: dict) -> dict[str, float]:
    """``player``'s income per round from its faction board, research and tiles."""
    faction = game.get("myfaction", player)
    f = game.ruleset.entities[faction].fields if faction is not None else {}
    built = {b: game.get("built", player, b) for b in BUILDING}
    inc = {"credits": f.get("base_c", 0), "ore": f.get("base_o", 1), "knowledge": f.get("base_k", 1),
           "qic": f.get("base_q", 0), "tokens": f.get("base_t", 0), "pw": 0}
    mine_o = tables["mine_o"]
    if built["mine"]:
        inc["ore"] += mine_o[min(built["mine"], len(mine_o)) - 1]
    for b, c_field, k_field in (("ts", "ts_c", "ts_k"), ("lab", "lab_c", "lab_k")):
        n = built[b]
        if n:
            cs, ks = f.get(c_field, ()), f.get(k_field, ())
            inc["credits"] += cs[min(n, len(cs)) - 1] if cs else 0
            inc["knowledge"] += ks[min(n, len(ks)) - 1] if ks else 0
    if built["pi"]:
        inc["pw"] += f.get("pi_pw", 4)
        inc["tokens"] += f.get("pi_t", 1)
        inc["qic"] += f.get("pi_q", 0)
        inc["ore"] += f.get("pi_o", 0)
    if built["ac1"]:
        inc["knowledge"] += f.get("ac1_k", 2)
    if built["ac2"]:
        inc["qic"] += f.get("ac2_q", 1)
        inc["credits"] += f.get("ac2_c", 0)
    c, o, pw = tables["econ"][min(game.get("economy", player), 5)]
    inc["credits"] += c
    inc["ore"] += o
    inc["pw"] += pw
    inc["knowledge"] += tables["sci"][min(game.get("science", player), 5)]
    return inc


def _final_count(game, player: int, tile: str) -> int:
    """What final scoring tile ``tile`` counts for ``player`` (``rules/tiles.rules``), roughly:
    federated structures are the structures in the player's federation groups."""
    hexes = game.get("my_hexes", player)
    if tile == "structure":
        return len(hexes)
    if tile == "structureFed":
        fed = {h for group in game.get("fed_groups", player) for h in group.split(",")}
        return sum(1 for h in hexes if h in fed)
    if tile == "planetType":
        return len(game.get("ptypes", player))
    if tile == "gaia_planets":
        return sum(1 for h in hexes if game.get("planet", index=h) == "g")
    if tile == "sectors":
        return len({h.rstrip("0123456789")[:-1] for h in hexes})   # "10A11" lies in sector 10
    if tile == "satellite":
        return len(game.get("satellites", player)) + len(game.get("stations", player))
    return 0


def _final_tiles(game, player: int, progress: float, final_vp: list[int]) -> float:
    """The final scoring tiles' worth for ``player``: ``FINAL`` per unit early, the expected
    18/12/6 VP of its rank among the players (ties share, §10) as ``progress`` reaches 1."""
    value = 0.0
    for tile in game.get("final_tiles"):
        counts = [_final_count(game, p, tile) for p in range(game.players)]
        mine = counts[player]
        better = sum(1 for c in counts if c > mine)
        tied = sum(1 for c in counts if c == mine)
        ranked = sum(final_vp[i] for i in range(better, better + tied) if i < len(final_vp)) / tied
        value += (1 - progress) * FINAL * mine + progress * (ranked if mine else 0.0)
    return value


def terms(game, player: int) -> dict[str, float]:
    """The evaluation's parts for ``player``, by name (VP each; see the module): the
    evaluation is ``sum(WEIGHTS[name] * value)`` over them. At the end of the game only
    ``vp``, the score. Names: ``vp``; ``res_R`` (resource R held); ``inc_R`` (income of R for
    the rounds left); ``bld_B`` (building B's worth beyond its income); ``tech`` (tech tiles'
    income, actions, events); ``pass_now`` and ``pass_later`` (pass bonuses of this round and
    the next ones); ``booster`` (the booster held for the next round, or the best one left);
    ``research_vp``, ``level`` and ``track_T`` (research); ``terra`` (ore saved by
    terraforming); ``fed``, ``green``, ``fed_power`` (federations); ``final`` (final scoring
    tiles); ``gaiaformer``, ``gf_site``; and terms the hand-made weights did not have (weight
    0 there): ``mines_left`` (mines built times rounds left), ``levels_left`` (research levels
    times rounds left), ``terra1`` (terraforming level 1 or more, times rounds left),
    ``power_cycle`` (power that can be spent: bowl III plus half of bowl II, times rounds
    left), ``structures`` (structures built)."""
    vp = game.get("vp", player)
    if game.over:
        return {"vp": float(vp)}
    game = game.reader()   # (many reads of one position: Game.reader)
    tables = _tables(game.ruleset)
    rnd = game.get("round") or 0
    left = ROUNDS - rnd if rnd else ROUNDS      # rounds whose income is still to come
    w = _weights(left)
    t: dict[str, float] = {"vp": float(vp)}
    for name, (end, _) in RESOURCE.items():
        n = game.get(name, player)
        spare = max(0, n - HOARD.get(name, n))      # beyond what the next builds use
        t[RES_TERM[name]] = w[name] * (n - spare) + end * spare
    # income per round, for the rounds left (valued at the weights of mid-way through them)
    later = later_weights(left)
    for r, n in _income(game, player, tables).items():
        t[INC_TERM[r]] = left * later[r] * n
    built = {b: game.get("built", player, b) for b in BUILDING}
    for b, now in BUILDING.items():
        t[BLD_TERM[b]] = built[b] * now
    techs = [x for x in tables["techs"] if game.get("has_tech", player, x) and not game.get("covered", player, x)]
    tech = 0.0
    for tile in techs:
        for src, per in ((TECH_INCOME, left), (TECH_ACTION, left + (1 if rnd else 0))):
            if tile in src:
                tech += per * sum(later[r] * n for r, n in src[tile].items())
        tech += TECH_EVENTS.get(tile, 0.0) * left
        tech += TECH_BIG.get(tile, 0.0) * (built["pi"] + built["ac1"] + built["ac2"])
    t["tech"] = tech
    # passing: this round's bonus is the player's whenever it passes; the next rounds' too
    passed = rnd and _passed(game, player)
    held = [b for b in tables["boosters"] if game.owner(b) == player] if rnd else []
    pass_tiles = sum(_pass_vp(game, player, tile) for tile in techs)
    t["pass_now"] = pass_tiles + sum(_pass_vp(game, player, b) for b in held) if rnd and not passed else 0.0
    t["pass_later"] = pass_tiles * left * NEXT_ROUND
    booster = 0.0
    if (passed or not rnd) and left:
        booster = sum(booster_worth(game, player, b, later) for b in held)
    elif left:
        # the booster it takes when it passes (the best one left now) is the player's whenever
        # it passes too: passing gains nothing while a profitable action is left
        free = [b for b in game.get("booster_pool") if game.owner(b) is None]
        booster = PASS_BOOSTER * max((booster_worth(game, player, b, later) for b in free), default=0.0)
    t["booster"] = booster
    levels = research_vp = 0
    for track in TRACKS:
        level = game.get(track, player)
        levels += level
        research_vp += RESEARCH_VP[min(level, 5)]
        t[TRACK_TERM[track]] = level * TRACK_PER_ROUND[track] * left
    t["research_vp"] = float(research_vp)
    t["level"] = levels * LEVEL
    steps = tables["ore_per_step"]
    terra = game.get("terraforming", player)
    t["terra"] = (steps[0] - steps[min(terra, 5)]) * TERRA_STEPS * later["ore"] * left
    groups = game.get("fed_groups", player)
    t["fed"] = FEDERATION * len(groups)
    t["green"] = GREEN_TOKEN * game.get("green_feds", player)
    loose = 0
    if left:
        fed = {h for group in groups for h in group.split(",")}
        loose = sum(game.get("pval", index=h) for h in game.get("my_hexes", player) if h not in fed)
    t["fed_power"] = FED_POWER * min(loose, 7) * min(1.0, left / 2)
    t["final"] = _final_tiles(game, player, rnd / ROUNDS, tables["final_vp"])
    t["gaiaformer"] = GAIAFORMER * left * game.get("gaiaformers", player) if left else 0.0
    t["gf_site"] = GF_SITE * len(game.get("gf_hexes", player)) if left else 0.0
    # terms the hand-made evaluation lacked (weights fitted to the records)
    t["mines_left"] = built["mine"] * left / ROUNDS
    t["levels_left"] = levels * left / ROUNDS
    t["terra1"] = (terra >= 1) * left / ROUNDS
    t["power_cycle"] = (game.get("bowl3", player) + game.get("bowl2", player) / 2) * left / ROUNDS
    t["structures"] = float(sum(built.values()))
    return t


def evaluate(game, player: int) -> float:
    """Victory points of ``player`` plus the estimated worth of the position (see the module):
    :func:`terms` weighted by ``WEIGHTS``; at the end of the game, the score."""
    weights = WEIGHTS
    return sum(weights[name] * value for name, value in terms(game, player).items())


def _passed(game, player: int) -> bool:
    """Whether ``player`` has passed in this round's action phase (the flow's passed players,
    the rules' ``passed(p)``; ``pass_order`` once the phase is over)."""
    return game.passed(player) or player in game.get("pass_order")
