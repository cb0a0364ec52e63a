"""The templates' loader: every template read through roce_cfg/safepath.py."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import jinja2

from roce_cfg.errors import InputError
from roce_cfg.safepath import read_bytes

# A section template is a few KB; an overlay's larger than this is not one.
MAX_TEMPLATE_BYTES = 1 << 20


class TemplateLoader(jinja2.FileSystemLoader):
    """jinja's file loader with every template read through roce_cfg/safepath.py: a regular
    file of at most ``MAX_TEMPLATE_BYTES`` that stays, links followed, inside the folder it was
    found in. jinja's own loader follows links: an overlay's template that was a symlink to any
    readable file, or an include through a linked folder, copied that file into every
    generated config (which push --apply would send to switches). ``root`` is the folder no
    template may leave: the overlay's, or the bundled templates'."""

    def __init__(self, searchpath: list[str], roots: list[Path]) -> None:
        super().__init__(searchpath)
        self.roots = roots

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str, Callable[[], bool]]:
        pieces = jinja2.loaders.split_template_path(template)
        for searchpath, root in zip(self.searchpath, self.roots, strict=True):
            path = Path(searchpath, *pieces)
            if os.path.lexists(path):
                data = read_bytes(path, what="template", max_bytes=MAX_TEMPLATE_BYTES, root=root)
                try:
                    return data.decode("utf-8"), str(path), lambda: True
                except UnicodeDecodeError as exc:
                    raise InputError(f"not UTF-8 text (byte {exc.start})", file=str(path)) from None
        raise jinja2.TemplateNotFound(template)
