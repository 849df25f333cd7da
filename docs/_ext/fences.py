"""A MkDocs hook for the docs site: fenced blocks whose info string says more than the
language (```` ```rules house ````, ```` ```python demo ````: tags the documentation tests
read) are shown as blocks of that language. Markdown's fences would not open on them,
and the rest of the page would be swallowed into one code block."""

from __future__ import annotations

import re
from typing import Any

TAGGED_FENCE = re.compile(r"^(\s*```)([\w-]+)[ \t]+[^`\n]*$", re.M)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    return TAGGED_FENCE.sub(r"\1\2", markdown)
