"""A plugin that does not fit is refused with a PluginError naming it and what is wrong, never a
traceback: a misspelt hook name, a hook without ``@hookimpl`` (pluggy ignored it silently: the
plugin did nothing), a plugin that fails to import (docs/plugins.md, "A complete plugin")."""

from __future__ import annotations

import sys
import types

import pluggy
import pytest

from boardrules import PluginError, cli, hookimpl, hookspecs, plugins


def _manager_with(module: types.ModuleType) -> pluggy.PluginManager:
    pm = pluggy.PluginManager("boardrules")
    pm.add_hookspecs(hookspecs)
    pm.register(module, "mine")
    return pm


def _plugin(**functions) -> types.ModuleType:
    module = types.ModuleType("boardrules_mine")
    for name, fn in functions.items():
        setattr(module, name, fn)
    return module


def test_the_bundled_and_installed_plugins_pass():
    plugins.check_hooks(plugins.manager())


def test_a_hook_without_hookimpl_is_refused_not_ignored():
    def boardrules_games():
        return []
    with pytest.raises(PluginError, match=r"boardrules_games in plugin 'mine' is not marked "
                                          r"@boardrules.hookimpl: pluggy would ignore it"):
        plugins.check_hooks(_manager_with(_plugin(boardrules_games=boardrules_games)))


def test_a_misspelt_hook_is_refused_with_or_without_hookimpl():
    def boardrules_modulez():
        return []
    with pytest.raises(PluginError, match=r"nor a hook's name \(misspelt\?\)"):
        plugins.check_hooks(_manager_with(_plugin(boardrules_modulez=boardrules_modulez)))
    with pytest.raises(PluginError, match=r"unknown hook 'boardrules_modulez'.*docs/plugins.md"):
        plugins.check_hooks(_manager_with(_plugin(boardrules_modulez=hookimpl(boardrules_modulez))))


def test_other_names_and_marked_hooks_pass():
    def boardrules_games():
        return []
    plugins.check_hooks(_manager_with(_plugin(boardrules_games=hookimpl(boardrules_games),
                                              helper=lambda: None, boardrules_title="a text")))


@pytest.mark.parametrize("error, said", [
    (SyntaxError("'(' was never closed", ("/x/boardrules_mine/__init__.py", 16, 5, "x = (")),
     "SyntaxError: '(' was never closed (/x/boardrules_mine/__init__.py:16)"),
    (ImportError("No module named 'numpyy'"), "ImportError: No module named 'numpyy'"),
])
def test_an_installed_plugin_that_fails_to_import_is_named_by_the_command_line(monkeypatch, capsys,
                                                                               error, said):
    def load(self, group, name=None):
        raise error
    monkeypatch.setattr(pluggy.PluginManager, "load_setuptools_entrypoints", load)
    monkeypatch.setattr(plugins, "manager", plugins.manager.__wrapped__)   # (not the cached one)
    with pytest.raises(PluginError, match=r"cannot load the installed plugins"):
        plugins.manager()
    monkeypatch.setattr(sys, "argv", ["boardrules", "plugins"])
    with pytest.raises(SystemExit) as exit_:
        cli.main()
    assert exit_.value.code == 1
    err = " ".join(capsys.readouterr().err.split())
    assert "error: cannot load the installed plugins (entry-point group 'boardrules'): " + said in err
    assert "Traceback" not in err


def test_a_hook_with_arguments_its_spec_lacks_is_named(monkeypatch):
    @hookimpl
    def boardrules_games(flavour):
        return []

    def load(self, group, name=None):
        self.register(_plugin(boardrules_games=boardrules_games), "mine")
    monkeypatch.setattr(pluggy.PluginManager, "load_setuptools_entrypoints", load)
    with pytest.raises(PluginError, match=r"a plugin does not fit boardrules: .*boardrules_games.*flavour"):
        plugins.manager.__wrapped__()
