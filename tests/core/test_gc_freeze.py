"""Freezing the garbage collector's generations (``gc.freeze``) is the process's choice: building
rulesets and playing leaves the heap alone (a freeze would keep a caller's reference cycles from
ever being collected); ``freeze_once``, which ``boardrules play`` and simulate's workers call after
their rulesets are built, freezes once a process. Run in a fresh interpreter, so the test does not
depend on what ran before it."""

import os
import subprocess
import sys

SCRIPT = """
import gc
import boardrules
from boardrules.ruleset import build_ruleset, freeze_once
build_ruleset(texts={"a.rules": TEXT})
boardrules.new_game(texts={"c.rules": TEXT}, players=2)
library = gc.get_freeze_count()
freeze_once()
first = gc.get_freeze_count()
kept = [[i] for i in range(1000)]   # (alive at the second call: must not be frozen)
freeze_once()
print(library, first, gc.get_freeze_count(), all(gc.is_tracked(x) for x in kept))
"""

TEXT = """game g { players 1..2 }
resource coins { start 0; scored true }
action work main { gain 1 coins }
flow { rounds 2 { step play: turns seat once { main work } } }
"""


def test_library_leaves_the_heap_and_freeze_once_freezes_once():
    code = f"TEXT = {TEXT!r}\n" + SCRIPT
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ), check=True).stdout.split()
    library, first, after, tracked = int(out[0]), int(out[1]), int(out[2]), out[3]
    assert library == 0 and first > 1000 and after == first and tracked == "True"


def test_simulate_workers_freeze_after_their_setups():
    code = ("import gc\nfrom boardrules import simulate_pool\n"
            "simulate_pool._init_worker(simulate_pool.LIMITS.copy(), ())\nprint(gc.get_freeze_count())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ), check=True).stdout
    assert int(out) > 1000
