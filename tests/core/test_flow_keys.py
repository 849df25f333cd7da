"""The keys of the flow's values (``("f", "turn")``...) and of the player count are objects
made once (boardrules.runtime), which every module of the engine uses: a state's table holds
these very objects, so the flow's reads match at the identity test, not by comparing an equal
tuple item by item."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import boardrules
from boardrules import runtime

SRC = Path(boardrules.__file__).resolve().parent
SHARED = {key: name for name, key in vars(runtime).items()
          if name.startswith("F_") or name == "NPLAYERS"}


def _literal_keys(tree: ast.AST) -> list[tuple[int, tuple[str, ...]]]:
    """The tuples of strings written out in ``tree`` that equal a shared key (line, key)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple) and all(isinstance(e, ast.Constant) for e in node.elts):
            key = tuple(e.value for e in node.elts)   # type: ignore[attr-defined]
            if key in SHARED:
                found.append((node.lineno, key))
    return found


def test_the_shared_keys_are_the_flows_own():
    assert set(runtime.FLOW_KEYS) <= set(SHARED) and runtime.NPLAYERS in SHARED
    assert len(SHARED) == len(runtime.FLOW_KEYS) + 1   # (each one object: no two names for one key)


def test_no_module_of_the_engine_writes_a_flow_key_out():
    written = {str(path.relative_to(SRC)): keys for path in sorted(SRC.rglob("*.py"))
               if path.name != "runtime.py"
               and (keys := _literal_keys(ast.parse(path.read_text(encoding="utf-8"))))}
    assert written == {}


def _played(name: str, seed: int, moves: int) -> boardrules.Game:
    game = boardrules.new_game(name, players=3, seed=seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        if game.over:
            break
        game.play(rnd.choice(list(game.legal_actions())), check=False)
    return game


def test_a_states_flow_keys_are_the_shared_objects():
    shared = {key: key for key in SHARED}   # (an equal key finds the object itself)
    for seed in range(4):
        game = _played("harvest", seed, 200)   # (through rounds, 'after turn' blocks, the game's end)
        for state, _, _ in [*game._history, (game.state, 0, 0)]:
            assert state is not None
            for key in state.values:
                if key in shared:
                    assert key is shared[key], (seed, key)
        for key in game.ruleset.key_defaults:
            if key in shared:
                assert key is shared[key], key

