"""Shared fixtures: where the team's reference material (`../shared/`) lives.

Tests that read `../shared/` skip with a reason when it is absent, except under
``CI=true``, where its absence is a failure (CI always has it beside the checkout).
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import settings

# No deadline per example: a test must not depend on the machine's speed (a first example may
# build the parser with its grammar cache cold, 350 ms against the default 200 ms, and the
# machine is shared). CI replays the same examples on every run (derandomised, no example
# database), so a submission is judged on its code, not on the draw; locally every run explores
# new examples.
settings.register_profile("local", deadline=None)
settings.register_profile("ci", settings.get_profile("local"), derandomize=True, database=None)
settings.load_profile("ci" if os.environ.get("CI") == "true" else "local")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def shared_path(*parts: str) -> Path:
    """Return ``../shared/<parts>``; skip (or fail under CI) when it is missing."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{path} is missing; CI must have ../shared beside the checkout")
        pytest.skip(f"{path} is not here (the team's ../shared/ is beside the checkout in CI)")
    return path


def bench_script(name: str) -> ModuleType:
    """The script ``bench/<name>.py`` loaded as a module (the bench folder is not a package)."""
    spec = importlib.util.spec_from_file_location(name, REPO / "bench" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def shared() -> Path:
    """The ``../shared/`` folder as a Path (skips or fails as :func:`shared_path`)."""
    return shared_path()


@pytest.fixture
def limits() -> Iterator[Callable[..., object]]:
    """``limits(max_moves=3, ...)``: boardrules' limits changed for the rest of the test (every
    check reads them from :data:`boardrules.limits.LIMITS`); the ones before are back after it."""
    from boardrules.limits import LIMITS
    with ExitStack() as stack:
        yield lambda **changes: stack.enter_context(LIMITS.changed(**changes))


_files: list[pytest.TempPathFactory] = []   # (the session's, once a test has asked for it)


@pytest.fixture(scope="session", autouse=True)
def _session_files(tmp_path_factory: pytest.TempPathFactory) -> None:
    _files.append(tmp_path_factory)


def rules_file(text: str, name: str = "house.rules") -> Path:
    """A rule file holding ``text`` in a new folder of pytest's temporary ones (removed with its
    old runs, as ``tmp_path``'s), for helpers that have no fixture (Hypothesis tests): the
    ``tempfile.mkdtemp()`` folders they made stayed in /tmp after every run."""
    path = _files[0].mktemp("rules") / name
    path.write_text(text, encoding="utf-8")
    return path
