"""A fresh virtual environment for tests that install a wheel, as a user would.

The new environment must not depend on what happens to be installed in the base
interpreter (on a fresh machine it has nothing; on a developer's machine it may have
anything), so it never uses system site packages. It sees the *test environment's*
installed dependencies through a ``.pth`` line instead; ``.pth`` files inside that
folder are not processed, so the test environment's editable install of boardrules
stays invisible and boardrules comes only from what the test installs.
"""

from __future__ import annotations

import os
import subprocess
import sysconfig
import venv
from pathlib import Path

RUN_ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")} | {
    "COLUMNS": "120", "PYTHONNOUSERSITE": "1"}


def make_venv(env_dir: Path) -> Path:
    """Create a venv at ``env_dir`` that sees this environment's dependencies; return its python."""
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(env_dir)
    py = env_dir / "bin" / "python"
    site_dir = Path(subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                   capture_output=True, text=True, check=True).stdout.strip())
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site_dir / "_test_dependencies.pth").write_text("".join(f"{p}\n" for p in sorted(ours)))
    return py


def run(py_or_cli: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run a program of the fresh environment outside the checkout; fail with its output."""
    done = subprocess.run([str(py_or_cli), *args], cwd=cwd, env=RUN_ENV, capture_output=True, text=True)
    assert done.returncode == 0, f"{py_or_cli.name} {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done
