"""Monte-Carlo battles."""

from __future__ import annotations

import random


from .outcomes import Outcome
from .engine import MAX_SIM_ROUNDS, BattleState, CombatTooLarge
from .notation import format_fleet


class _MonteCarlo:
    """Monte-Carlo methods of :class:`~.battle._Battle`."""

    sim_work = 0
    sim_budget = 0

    def fire_random(self, state: BattleState, pos: int, rng: random.Random, missile: bool) -> BattleState:
        act = (self.missile_acts if missile else self.cannon_acts)[pos]
        shooters = len(state[act.side][act.index])
        if shooters == 0:
            return state
        enemy = state[1 - act.side]
        table = self.faces(act, enemy, missile)
        per_die = act.ship.missiles if missile else act.ship.cannons
        rnd = rng.random
        rolled = [(d, table[int(rnd() * 6)]) for _ in range(shooters) for d in per_die]
        self.sim_tick(1 + len(rolled))
        hits = self.make_hits(act, rolled, missile)
        if missile and hits and self.point_defense(act, enemy):
            if self.optimal[act.side]:
                placement = self.pd_volley(state, pos, hits)[2]
            else:
                placement = self.placements(act, enemy, hits, False)[0]
            k = sum(kills for f, kills in self.pd_faces(1 - act.side, enemy) if int(rnd() * 6) < f)
            new_enemy = self.pd_land(state, pos, placement, k)
        elif self.optimal[act.side] and hits:
            new_enemy = self.choose(state, act, pos, missile, hits)[0]
        else:
            new_enemy = self.assign(act, enemy, hits)
        return self.merge(state, act, new_enemy)

    def sim_tick(self, amount: int) -> None:
        """Count Monte-Carlo work against ``sim_budget``; :class:`CombatTooLarge` past it."""
        self.sim_work += amount
        if self.sim_work > self.sim_budget:
            raise CombatTooLarge(
                f"Monte-Carlo odds of {format_fleet(self.fleets[0])} vs {format_fleet(self.fleets[1])} "
                f"need more than {self.sim_budget:,} steps of work (dice rolled and activations "
                "fired); run fewer battles"
            )

    def simulate(self, rng: random.Random) -> Outcome:
        state = self.start
        for pos in range(len(self.missile_acts)):
            if self.finished(state):
                return self.outcome(state)
            state = self.fire_random(state, pos, rng, missile=True)
        for _ in range(MAX_SIM_ROUNDS):
            if self.finished(state):
                return self.outcome(state)
            if not self.armed(state):
                return self.outcome(state, stalemate=True)
            for pos in range(len(self.cannon_acts)):
                state = self.fire_random(state, pos, rng, missile=False)
                if self.finished(state):
                    return self.outcome(state)
            state = self.regenerated(state)
        return self.outcome(state, stalemate=True)
