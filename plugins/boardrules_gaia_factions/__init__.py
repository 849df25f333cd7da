"""Gaia Project's 14 factions as a module (``-m factions``, on by default; issue 7).

The base game (:mod:`boardrules_gaia`) keeps what every faction shares: the kind ``faction``
with its fields and slots, income, power and the procedures the factions call. This module
adds the 14 standard factions (gaia-project.md §4; seed 002, 種族), their once-per-round
actions and their own conversions: ``rules/factions.rules``, hooked into the base through its
generic extension points (docs/plugins.md, "Gaia Project's extension points"); the site
notation of their actions for the export, :mod:`.export`, and for the replay of site records,
:mod:`.replay`.
"""

from __future__ import annotations

from boardrules.plugins import ModuleSpec, hookimpl, rule_files_dir

NAME = "factions"


@hookimpl
def boardrules_modules():
    from .export import BALANCED_EXPORT, BETA_EXPORT, EXPORT
    from .replay import REPLAY
    modules = rule_files_dir(__file__).parent / "modules"
    return [ModuleSpec(NAME, "gaia-project", (rule_files_dir(__file__) / "factions.rules",),
                       "the 14 standard factions with their abilities, planetary institutes and "
                       "academies", title="Factions", default=True, extras={**EXPORT, **REPLAY}),
            # the site's faction-board variants (its option factionVariant; docs/gaia-project.md)
            ModuleSpec("more-balanced", "gaia-project", (modules / "more-balanced.rules",),
                       "the site's more-balanced faction boards (factionVariant more-balanced)",
                       title="More-balanced boards", requires=(NAME,), conflicts=("beta",),
                       extras=BALANCED_EXPORT),
            ModuleSpec("beta", "gaia-project", (modules / "beta.rules",),
                       "the site's beta faction boards, option beta_version 0-2 (factionVariant beta)",
                       title="Beta boards", requires=(NAME,), conflicts=("more-balanced",),
                       extras=BETA_EXPORT)]
