"""docs/python.md's examples run: every ```python block, in order, in one namespace, in a folder
where ../shared/assets is the shared sample assets (as beside the repository's checkout)."""
import os
import re

import pytest

from conftest import SOURCE_DIR

DOC = SOURCE_DIR / "docs" / "python.md"


def python_blocks():
    text = DOC.read_text()
    for match in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M):
        yield text.count("\n", 0, match.start(1)) + 1, match.group(1)


def test_docs_have_examples():
    assert len(list(python_blocks())) >= 8


def test_docs_examples_run(assets, tmp_path, monkeypatch, capsys):
    work = tmp_path / "marrow"
    work.mkdir()
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "assets").symlink_to(os.path.abspath(assets))
    monkeypatch.chdir(work)
    namespace = {"__name__": "docs_python_md"}
    for line, block in python_blocks():
        # Blank lines first so tracebacks name the line in docs/python.md.
        exec(compile("\n" * (line - 1) + block, str(DOC), "exec"), namespace)
    assert (work / "robot.glb").exists() and (work / "fox.marrow").exists()
