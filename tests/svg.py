"""Reading the SVG pictures the renderers draw, for the render tests of every game."""

from __future__ import annotations

import xml.etree.ElementTree as ET


def elements(svg: str) -> list:
    """(tag without namespace, set of classes, attributes) of every element of the SVG."""
    root = ET.fromstring(svg)
    return [(e.tag.rsplit("}", 1)[-1], set(e.get("class", "").split()), e.attrib)
            for e in root.iter()]


def count(els, *classes) -> int:
    """How many elements carry all of ``classes``."""
    return sum(1 for _, cls, _ in els if set(classes) <= cls)


def var(g, name, *index, default=None):
    """A rules variable's stored value in ``g``'s state."""
    return g.state.values.get(("v", name, *index), default)
