"""The first ruleset a process builds moves what is then alive out of the garbage collector's
generations (``gc.freeze``), once: later builds freeze nothing more (games alive then must stay
collectable). Run in a fresh interpreter, so the test does not depend on what ran before it."""

import os
import subprocess
import sys

SCRIPT = """
import gc
import boardrules
from boardrules.ruleset import build_ruleset
assert gc.get_freeze_count() == 0, gc.get_freeze_count()
build_ruleset(texts={"a.rules": TEXT})
first = gc.get_freeze_count()
kept = [[i] for i in range(1000)]   # (alive at the next build: must not be frozen)
build_ruleset(texts={"b.rules": TEXT + "# another file\\n"})
boardrules.new_game(texts={"c.rules": TEXT}, players=2)
print(first, gc.get_freeze_count(), all(gc.is_tracked(x) for x in kept))
"""

TEXT = """game g { players 1..2 }
resource coins { start 0; scored true }
action work main { gain 1 coins }
flow { rounds 2 { step play: turns seat once { main work } } }
"""


def test_first_build_freezes_once():
    code = f"TEXT = {TEXT!r}\n" + SCRIPT
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=dict(os.environ), check=True).stdout.split()
    first, after, tracked = int(out[0]), int(out[1]), out[2]
    assert first > 1000 and after == first and tracked == "True"
