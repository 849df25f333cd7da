"""``docs/adapters.md``: its Python blocks run, in order, as one program."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the 'rl' extra is not installed (CI installs it)")
pytest.importorskip("pyspiel", reason="the 'openspiel' extra is not installed (CI installs it)")

PAGE = Path(__file__).resolve().parents[2] / "docs" / "adapters.md"


def test_the_python_blocks_run():
    blocks = re.findall(r"^```python\n(.*?)^```", PAGE.read_text(encoding="utf-8"), re.S | re.M)
    assert len(blocks) == 3
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(PAGE), "exec"), namespace)  # the page's own examples
