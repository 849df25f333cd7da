"""The installed wheel works outside the checkout: build it, install it into a fresh
virtual environment, run the command line and one game from there."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_wheel_installs_and_plays(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                    "--no-build-isolation", "-w", str(wheels), str(REPO)], check=True)
    (wheel,) = wheels.glob("boardrules-*.whl")
    env_dir = tmp_path / "venv"
    # System site packages provide the dependencies (already installed for the tests);
    # boardrules itself comes only from the wheel, installed into the new environment.
    venv.EnvBuilder(with_pip=True, system_site_packages=True).create(env_dir)
    py = env_dir / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--no-deps", str(wheel)], check=True)
    run_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"COLUMNS": "120"}
    where = subprocess.run([str(py), "-c", "import boardrules, boardrules_demo; "
                            "print(boardrules.__file__); print(boardrules_demo.__file__)"],
                           cwd=tmp_path, env=run_env, capture_output=True, text=True, check=True)
    assert all(str(env_dir) in line for line in where.stdout.split()), where.stdout
    cli = env_dir / "bin" / "boardrules"
    listed = subprocess.run([str(cli), "plugins"], cwd=tmp_path, env=run_env,
                            capture_output=True, text=True, check=True)
    assert "harvest" in listed.stdout
    played = subprocess.run([str(cli), "play", "harvest", "--players", "2", "--seed", "3", "--quiet",
                             "--out", str(tmp_path / "out")], cwd=tmp_path, env=run_env,
                            capture_output=True, text=True, check=True)
    assert "Harvest: final scores" in played.stdout and "total" in played.stdout
    (record,) = (tmp_path / "out").glob("*.json")
    replayed = subprocess.run([str(cli), "replay", str(record)], cwd=tmp_path, env=run_env,
                              capture_output=True, text=True, check=True)
    assert "final state matches" in replayed.stdout
