"""Every notebook runs top to bottom (DESIGN.md: "Notebooks: all executed in the test run,
committed without outputs")."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    names = {nb.name for nb in NOTEBOOKS}
    assert {"explorer.ipynb", "replay.ipynb"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert not cell.outputs and cell.execution_count is None, f"{path.name} has outputs"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_heading_is_a_heading_not_a_paragraph(path):
    """Issue 46's list: the War Chest explainer showed "Control and the end\\n\\nControl
    (bezetting) puts your marker…" as one huge heading: its cell held the two characters
    backslash and n where it meant a line break. No markdown cell holds them, and every
    heading is one short line."""
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "markdown":
            continue
        assert "\\n" not in cell.source, f"{path.name}: a literal backslash-n in {cell.source[:60]!r}"
        headings = [line for line in cell.source.splitlines() if line.startswith("#")]
        assert all(len(line) <= 90 for line in headings), f"{path.name}: {headings}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path):
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute()
    errors = [
        out
        for cell in nb.cells
        if cell.cell_type == "code"
        for out in cell.outputs
        if out.output_type == "error"
    ]
    assert not errors
    shown = [out for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs]
    assert shown, f"{path.name} shows nothing"
