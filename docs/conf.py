"""Sphinx configuration of msjax's documentation site.

Built with Sphinx + MyST-NB (the tools of JAX, Flax and Optax's own sites): pages are
Markdown (MyST), the notebooks in ../notebooks are rendered by MyST-NB, and the API
reference is Sphinx autodoc run on the live msjax modules, one page per MindSpore
namespace (docs/_ext/msjax_api.py). Build: ``python -m sphinx -W docs docs/_build``.
"""
import gc
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "_ext"))
sys.path.insert(0, os.path.dirname(HERE))

project = "msjax"
author = "the msjax authors"
copyright = "the msjax authors"

extensions = [
    "myst_nb",               # MyST Markdown pages and the rendered notebooks
    "sphinx.ext.autodoc",    # the API reference, from the docstrings
    "msjax_api",             # one autodoc page per MindSpore namespace
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"
# ARCHITECTURE.md stays where tests and readers find it; architecture.md includes it.
exclude_patterns = ["_build", "ARCHITECTURE.md", "notebooks/data", "**.ipynb_checkpoints"]

myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

# The notebooks carry outputs recorded from MindSpore 2.10 on a real kernel
# (tests/test_notebooks.py runs each under msjax and compares every cell with them).
# The site shows those stored outputs; MSJAX_DOCS_EXECUTE=1 re-executes every
# notebook under msjax at build time instead (about a minute on 2 cores).
nb_execution_mode = "force" if os.environ.get("MSJAX_DOCS_EXECUTE") == "1" else "off"
nb_execution_timeout = 300
nb_execution_raise_on_error = True

autodoc_default_options = {}
# thousands of API entries: keep them out of the navigation (it is built for every page)
toc_object_entries = False
autodoc_typehints = "none"
autodoc_inherit_docstrings = True
# msjax has no type comments: autodoc need not parse every function's source for them
# (the same pages, 5-10 CPU-s less of tests/test_docs_build.py)
autodoc_use_type_comments = False

html_theme = "furo"
html_title = "msjax"
html_static_path = []


def _freeze_read_documents(app, doctree):
    """Python's cyclic collector rescans every object the build keeps each time their number grows
    by a quarter (17 % of the build's CPU, 2026-11-30); the doctrees read so far are kept until the
    build ends, so they go to the permanent generation as each page is read (same HTML)."""
    gc.freeze()


def setup(app):
    app.connect("doctree-read", _freeze_read_documents)
