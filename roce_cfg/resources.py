"""The one module that knows where bundled templates and vendor profiles live."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PKG = Path(__file__).resolve().parent


@cache  # where the package is does not change while it runs; a stat per profile or grammar did
def data_root() -> Path:
    """Directory holding ``templates/`` and ``vendors/``.

    A wheel carries them in ``roce_cfg/_data`` (see pyproject's force-include); a source checkout
    or an editable install reads them from the repository root beside the package.
    """
    bundled = _PKG / "_data"
    if (bundled / "vendors").is_dir():
        return bundled
    return _PKG.parent


def templates_dir() -> Path:
    return data_root() / "templates"


def vendors_dir() -> Path:
    return data_root() / "vendors"
