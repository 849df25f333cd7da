"""Starting the ``boardrules`` command: ``import boardrules`` loads no engine until a name is
asked for, so Ctrl-C in the command's first second (the engine loading) ends it as Ctrl-C in a
game does, not with a traceback (trial of 3 December)."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_import_loads_no_engine_until_a_name_is_asked_for():
    done = _python(
        "import sys, boardrules\n"
        "assert 'boardrules.game' not in sys.modules, 'the engine was loaded'\n"
        "assert boardrules.new_game('harvest', players=2).players == 2\n"
        "assert boardrules.plugins.game_spec('harvest').rule_files\n"   # (a submodule, as before)
        "from boardrules import RulesError, hookimpl\n"
        "assert {'Game', 'new_game', 'plugins'} <= set(dir(boardrules))\n"
        "try:\n"
        "    boardrules.no_such_name\n"
        "except AttributeError as err:\n"
        "    print(err)\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "module 'boardrules' has no attribute 'no_such_name'\n"


@pytest.mark.parametrize("module", ["boardrules.cli", "boardrules_eclipse"])
def test_ctrl_c_while_the_command_loads_ends_it_without_a_traceback(module):
    # (a KeyboardInterrupt raised where the command imports its CLI, or a plugin (which imports
    # numpy, say): Ctrl-C in that second; the plugins' was a traceback, trial of 4 December)
    done = _python(
        "import sys\n"
        "class Interrupt:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        f"        if name == {module!r}:\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Interrupt())\n"
        "sys.argv = ['boardrules', 'plugins']\n"
        "from boardrules.__main__ import main\n"
        "main()\n")
    assert (done.returncode, done.stderr) == (130, "\ninterrupted while boardrules was loading\n")


@pytest.mark.parametrize("how", [["-m", "boardrules"], ["-c", "from boardrules.__main__ import main; main()"]])
def test_the_command_runs_as_a_module_and_as_its_script(how):
    done = subprocess.run([sys.executable, *how, "--version"], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout.split()[0]) == (0, "boardrules"), done.stderr
