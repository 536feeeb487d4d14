"""``python -m msjax.conformance [--mode pynative|graph|both] [--python EXE]
[--reference] [--root DIR] [-k SUBSTR] [-j N] [--timeout S] [-v]``

Can also be run by path without importing msjax's top level (useful for
``--reference`` runs): ``python msjax/conformance/__main__.py --reference ...``.
"""

import os
import sys

if __package__:
    from .runner import main
else:  # run by path
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from runner import main  # type: ignore

if __name__ == "__main__":
    sys.exit(main())
