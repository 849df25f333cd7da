"""Engagement-round values under optimal play without regeneration, vectorised with NumPy.

The values live in one table ``V[k, a, d]``: the attacker's value (win + half a draw) before
cannon activation ``k`` when the attacker's damage pattern is ``a`` and the defender's ``d``
(local indices into each side's reachable patterns, the last one being "every ship destroyed").
A volley changes one side's pattern and always adds damage, so the pairs whose summed progress
is ``L`` depend only on pairs of larger progress: the pairs are solved one such wave at a time,
every wave in a few array operations. Per activation, the volleys are kept as flat arrays
(compressed rows): per (shooters, target pattern) its roll outcomes ("entries", with their
probability), per entry the patterns the firing side may leave; the firing side takes the best
(the attacker the largest value, the defender the smallest), and the round's "nothing hit" cycle
is solved in closed form, as in the scalar description of :mod:`.optimal`.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np

from .outcomes import Number, Stalemate

WAVE = 40_000
"""Most battle-state pairs solved in one array operation (bounds the temporary arrays)."""


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The concatenation of ``range(s, s + n)`` for every start ``s`` and length ``n``."""
    total = int(lengths.sum())
    if not total:
        return np.zeros(0, dtype=np.int64)
    offsets = np.cumsum(lengths) - lengths
    return np.repeat(starts - offsets, lengths) + np.arange(total)


def _segment_sums(values: np.ndarray, lengths: np.ndarray, zero: Number) -> np.ndarray:
    """Per segment (consecutive runs of ``lengths`` items of ``values``), the sum; ``zero`` for
    an empty segment. Works for floats and for exact ``Fraction`` objects alike."""
    out = np.full(len(lengths), zero, dtype=values.dtype if len(values) else object)
    full = lengths > 0
    if full.any():
        starts = (np.cumsum(lengths) - lengths)[full]
        out[full] = np.add.reduceat(values, starts)
    return out


class _Volleys:
    """One cannon activation's volleys as flat arrays, for :func:`solve_rounds`."""

    def __init__(self, battle, k: int, members: Sequence[Sequence[int]], local: Sequence[dict[int, int]],
                 dtype: type) -> None:
        act = battle.cannon_acts[k]
        self.side = act.side
        target = 1 - act.side
        self.width = len(members[target])
        most = battle.fleets[act.side].counts[act.index]
        keys = (most + 1) * self.width
        self.count = np.zeros(keys, dtype=np.int64)
        self.miss = np.full(keys, battle.one, dtype=dtype)
        probs: list[Number] = []
        lengths: list[int] = []
        options: list[int] = []
        to_local = local[target]
        for s in range(1, most + 1):
            for t, sid in enumerate(members[target][:-1]):  # the last pattern: nothing left to hit
                tr = battle.trans(k, s, sid)
                key = s * self.width + t
                self.miss[key] = tr.miss
                self.count[key] = len(tr.forced) + len(tr.choices)
                for p, e in zip(tr.forced_p, tr.forced):
                    probs.append(p)
                    lengths.append(1)
                    options.append(to_local[e])
                for p, ids in zip(tr.choice_p, tr.choices):
                    probs.append(p)
                    lengths.append(len(ids))
                    options.extend(to_local[e] for e in ids)
        self.start = np.cumsum(self.count) - self.count
        self.prob = np.array(probs, dtype=dtype)
        self.length = np.array(lengths, dtype=np.int64)
        self.first = np.cumsum(self.length) - self.length
        self.option = np.array(options, dtype=np.int64)
        self.shooters = np.array(
            [battle._counts[act.side][sid][act.index] for sid in members[act.side]], dtype=np.int64
        )

    def values(self, table: np.ndarray, a: np.ndarray, d: np.ndarray, zero: Number) -> tuple[np.ndarray, np.ndarray, int]:
        """For the pairs ``(a[i], d[i])``: the value this activation's hits bring (each roll's
        best option, weighted by the roll's probability) and the probability nothing is hit,
        given the values ``table[a, d]`` after it; and the number of roll outcomes read (work)."""
        own, other = (a, d) if self.side == 0 else (d, a)
        keys = self.shooters[own] * self.width + other
        count = self.count[keys]
        entries = _ranges(self.start[keys], count)
        pair = np.repeat(np.arange(len(a)), count)
        length = self.length[entries]
        opts = self.option[_ranges(self.first[entries], length)]
        mine = np.repeat(own[pair], length)
        vals = table[mine, opts] if self.side == 0 else table[opts, mine]
        if len(vals):
            starts = np.cumsum(length) - length
            best = (np.maximum if self.side == 0 else np.minimum).reduceat(vals, starts)
            gained = _segment_sums(self.prob[entries] * best, count, zero)
        else:
            gained = np.full(len(a), zero, dtype=table.dtype)
        return gained, self.miss[keys], len(entries)


def solve_rounds(battle, closure: Sequence[list[int]], empty: Sequence[int]) -> tuple[np.ndarray, list[dict]]:
    """The table ``V[k, a, d]`` (see the module docstring) for the reachable damage patterns
    ``closure`` (side ids, per side) and the side ids of the empty patterns ``empty``; and per
    side the map from a pattern to its local index. Raises :class:`CombatTooLarge` through
    ``battle.tick`` when the work would exceed the budget."""
    one = battle.one
    zero = 0 * one
    n = len(battle.cannon_acts)
    members = [list(closure[side]) + [empty[side]] for side in (0, 1)]
    local = [{sid: i for i, sid in enumerate(m)} for m in members]
    dtype = object if isinstance(one, Fraction) else float
    size = (n, len(members[0]), len(members[1]))
    battle.tick(size[0] * size[1] * size[2] // 16)  # the table itself
    stale = one / 2 if battle.stalemate is Stalemate.DRAW else zero
    table = np.full(size, stale, dtype=dtype)
    table[:, :, -1] = one  # no defending ship left: the attacker wins
    table[:, -1, :] = zero  # no attacking ship left: the defender wins
    volleys = [_Volleys(battle, k, members, local, dtype) for k in range(n)]
    cannon_types = [[a.index for a in battle.cannon_acts if a.side == side] for side in (0, 1)]
    armed = [np.array([any(battle._counts[side][sid][t] for t in cannon_types[side]) for sid in members[side][:-1]],
                      dtype=bool) for side in (0, 1)]
    progress = [np.array([battle.side_progress(side, battle._states[side][sid]) for sid in members[side][:-1]],
                         dtype=np.int64) for side in (0, 1)]
    a_all, d_all = np.nonzero(armed[0][:, None] | armed[1][None, :])
    total = progress[0][a_all] + progress[1][d_all]
    order = np.argsort(-total, kind="stable")
    a_all, d_all, total = a_all[order], d_all[order], total[order]
    cuts = np.flatnonzero(np.diff(total)) + 1
    for a_wave, d_wave in zip(np.split(a_all, cuts), np.split(d_all, cuts)):
        for lo in range(0, len(a_wave), WAVE):
            a, d = a_wave[lo:lo + WAVE], d_wave[lo:lo + WAVE]
            gains, misses = [], []
            work = len(a)
            for k, v in enumerate(volleys):
                g, q, w = v.values(table[(k + 1) % n], a, d, zero)
                gains.append(g)
                misses.append(q)
                work += w
            battle.tick(work)
            # x_k = c_k + q_k x_{k+1} around the round (x_n = x_0), solved in closed form.
            num = np.full(len(a), zero, dtype=dtype)
            loop = np.full(len(a), one, dtype=dtype)
            for k in range(n):
                num = num + loop * gains[k]
                loop = loop * misses[k]
            x = nxt = num / (one - loop)
            table[0, a, d] = x
            for k in range(n - 1, 0, -1):
                nxt = gains[k] + misses[k] * nxt
                table[k, a, d] = nxt
    states = [{battle._states[side][sid]: i for sid, i in local[side].items()} for side in (0, 1)]
    return table, states
