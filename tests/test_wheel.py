"""The installed wheel works outside the checkout: build it, install it into a fresh
virtual environment, run the command line and one game from there."""

from __future__ import annotations

import site
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fresh_env import RUN_ENV, make_venv, run

REPO = Path(__file__).resolve().parents[1]


def test_fresh_env_sees_nothing_of_the_base_interpreter(tmp_path):
    """The kind of fault that broke the quick start: a test venv that reads the base
    interpreter's site packages passes on a machine where someone installed the
    dependencies there by hand, and fails on a fresh one."""
    py = make_venv(tmp_path / "venv")
    paths = run(py, "-c", "import sys; print('\\n'.join(sys.path))", cwd=tmp_path).stdout.split()
    base_sites = set(site.getsitepackages([sys.base_prefix])) - {sys.prefix}
    assert not base_sites & set(paths), (base_sites & set(paths))
    run(py, "-c", "import lark, attrs, pluggy, typer", cwd=tmp_path)
    missing = subprocess.run([str(py), "-c", "import boardrules.game"], cwd=tmp_path, env=RUN_ENV,
                             capture_output=True)
    assert missing.returncode != 0, "boardrules must come only from what the test installs"


@pytest.mark.slow
def test_wheel_installs_and_plays(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "-w", str(wheels), str(REPO)], check=True)
    (wheel,) = wheels.glob("boardrules-*.whl")
    env_dir = tmp_path / "venv"
    py = make_venv(env_dir)
    run(py, "-m", "pip", "install", "--quiet", "--no-deps", str(wheel), cwd=tmp_path)
    where = run(py, "-c", "import boardrules, boardrules_demo; "
                "print(boardrules.__file__); print(boardrules_demo.__file__)", cwd=tmp_path)
    assert all(str(env_dir) in line for line in where.stdout.split()), where.stdout
    cli = env_dir / "bin" / "boardrules"
    assert "harvest" in run(cli, "plugins", cwd=tmp_path).stdout
    played = run(cli, "play", "harvest", "--players", "2", "--seed", "3", "--quiet",
                 "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert "Harvest: final scores" in played.stdout and "total" in played.stdout
    (record,) = (tmp_path / "out").glob("*.json")
    assert "final state matches" in run(cli, "replay", str(record), cwd=tmp_path).stdout
