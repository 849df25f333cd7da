"""A Griffe extension for the docs site: the Sphinx cross-reference roles of the
docstrings (``:class:`~boardrules.Game```, ``:func:`new_game```) become code that links
to the API reference where it documents the name, so the docstrings read well both in
``help()`` and on the site."""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|func|meth|attr|mod|data|exc|obj):`(~?)([\w.]+)`")


class SphinxRoles(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is None:
            return

        def link(match: re.Match[str]) -> str:
            short, path = match.groups()
            title = path.rsplit(".", 1)[-1] if short else path
            if not path.startswith(("boardrules.", "boardrules_")):
                path = f"boardrules.{path}"       # a name the package exports (Game, Game.play)
            # optional: a link where the reference documents the name, else plain code
            return f'<autoref identifier="{path}" optional><code>{title}</code></autoref>'


        obj.docstring.value = ROLE.sub(link, obj.docstring.value)
