"""The documentation site: every page is in the navigation and ``mkdocs build --strict``
passes (broken links and anchors, missing pages, docstrings mkdocstrings cannot read)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def nav_pages(nav) -> list[str]:
    out: list[str] = []
    for item in nav:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        out.extend(nav_pages(value) if isinstance(value, list) else [value])
    return out


def test_every_page_is_in_the_navigation():
    yaml = pytest.importorskip("yaml", reason="the 'docs' extra is not installed (CI installs it)")
    config = yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    pages = nav_pages(config["nav"])
    assert sorted(pages) == sorted(p.name for p in (REPO / "docs").glob("*.md"))
    assert len(pages) == len(set(pages))


def test_the_site_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs", reason="the 'docs' extra is not installed (CI installs it)")
    pytest.importorskip("mkdocstrings", reason="the 'docs' extra is not installed (CI installs it)")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                          str(tmp_path / "site")], cwd=REPO, capture_output=True, text=True,
                         env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr[-3000:]
    for page in sorted((tmp_path / "site").glob("*/index.html")):
        # no markdown left unrendered (a fence that did not open swallows the rest of a page)
        raw = [line for line in page.read_text(encoding="utf-8").splitlines()
               if line.startswith(("```", "## ", "### "))]
        assert raw == [], f"{page.parent.name}: {raw[:3]}"
    reference = (tmp_path / "site" / "reference" / "index.html").read_text(encoding="utf-8")
    for name in ("boardrules.new_game", "boardrules.Game.play", "boardrules.adapters.pettingzoo"):
        assert f'id="{name}"' in reference
    # the docstrings' Sphinx roles become links (docs/_ext/sphinx_roles.py), never raw text
    assert ":class:" not in reference and "<autoref" not in reference
    assert 'href="#boardrules.IllegalActionError"><code>IllegalActionError</code>' in reference
