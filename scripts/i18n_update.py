"""Collect the interface's strings into ui/i18n/*.ts and compile them to .qm.

    python scripts/i18n_update.py

Runs ``pyside6-lupdate`` over ui/ (new strings arrive in the .ts marked unfinished; translate
them with ``pyside6-linguist`` or by hand) and then ``pyside6-lrelease``.  Commit the .ts and
the .qm together; tests/ui/test_i18n.py fails while a string is missing or unfinished.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ui.i18n.catalog import update


def main() -> int:
    for line in update():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
