"""The ttp parse templates of a vendor, compiled once per process (and per overlay)."""

from __future__ import annotations

import logging
import threading
from functools import cache
from pathlib import Path
from typing import Any

from ttp import ttp

from roce_cfg.errors import InputError
from roce_cfg.parse.plain import Readers, plains
from roce_cfg.parse.ttp_internals import drop_last_reader, parsed_templates
from roce_cfg.resources import templates_dir
from roce_cfg.vendor import Vendor
from roce_cfg.yamlsrc import read_text

AREAS = (
    "system",
    "interfaces",
    "vlans",
    "qos_maps",
    "pfc",
    "ecn",
    "buffers",
    "watchdog",
    "bgp",
    "static_routes",
)


# A parse template is a few KB of ttp; an overlay's larger than this is not one.
MAX_TEMPLATE_BYTES = 1 << 20


def template_text(path: Path, overlay: Path | None) -> str:
    """A parse template's text, read through roce_cfg/safepath.py: a regular file that stays,
    links followed, inside the overlay it came from (or the bundled templates)."""
    root = overlay if overlay is not None and path.is_relative_to(overlay) else templates_dir()
    return read_text(path, "parse template", MAX_TEMPLATE_BYTES, root)


def template_files(vendor: Vendor, overlay: Path | None) -> dict[str, Path]:
    """Area -> .ttp file; an overlay's ``templates/<vendor>/parse/<area>.ttp`` wins."""
    files: dict[str, Path] = {}
    for root in (templates_dir(), overlay / "templates" if overlay else None):
        if root is None:
            continue
        folder = root / vendor.value / "parse"
        if folder.is_dir():
            files.update({p.stem: p for p in folder.glob("*.ttp")})
    return dict(sorted(files.items()))


# ttp's match functions (to_int and the like) log every value they cannot convert, once per
# template that sees it: dozens of unlocated lines on stderr. The normaliser reports such a
# value itself, as one line naming the config line. Template errors (ttp.ttp) stay visible.
logging.getLogger("ttp.match").setLevel(logging.CRITICAL)


class Runner:
    """One ttp parser holding every area template of a vendor; reused for each config."""

    def __init__(self, vendor: Vendor, overlay: Path | None) -> None:
        self._parser = ttp()
        self._vendor = vendor.value
        self._lock = threading.Lock()
        files = template_files(vendor, overlay)
        if not files:
            raise InputError(f"no parse templates for {vendor.value}", file=str(templates_dir()))
        for area, path in files.items():
            try:
                self._parser.add_template(template_text(path, overlay), template_name=area)
            except (OSError, UnicodeDecodeError, SyntaxError, ValueError, TypeError) as exc:
                # An overlay's own template: broken XML (ElementTree's ParseError is a
                # SyntaxError), an empty file, binary bytes, a folder by that name.
                reason = getattr(exc, "strerror", None) or f"{type(exc).__name__}: {exc}"
                raise InputError(
                    f"cannot load the parse template: {reason}", file=str(path)
                ) from None

        # the templates of the plain shape, read without ttp's result engine (parse/plain.py)
        self._plain = Readers(plains(parsed_templates(self._parser)))

    def run(self, text: str) -> dict[str, Any]:
        with self._lock:
            templates = parsed_templates(self._parser)
            read = self._plain.read(text)
            rest = [t.name for t, own in zip(templates, read, strict=True) if own is None]
            by_ttp = self._ttp(text, rest) if rest else {}
            merged: dict[str, Any] = {}
            for template, own in zip(templates, read, strict=True):
                for item in [own] if own is not None else by_ttp.get(template.name, []):
                    if isinstance(item, dict):
                        merged.update(item)
        return merged

    def _ttp(self, text: str, names: list[str]) -> dict[str, list[Any]]:
        """ttp's results of the templates ``names`` over ``text``, per template."""
        self._parser.clear_input()
        self._parser.clear_result()
        for name in names:
            self._parser.add_input(text, template_name=name)
        try:
            self._parser.parse(one=True)
            result = self._parser.result(structure="dictionary")
        except Exception as exc:
            # ttp runs a template's <macro> code as is (an overlay's templates are code,
            # docs/parse.md); its failure is the template's, named as one line.
            raise InputError(
                f"the {self._vendor} parse templates failed: {type(exc).__name__}: {exc}"
            ) from None
        finally:
            # the parser would keep the input (a copy per template) and its results until
            # the next config: 45 MB of a config of 100,000 ports
            self._parser.clear_input()
            # and its last template's reader, which holds yet another copy of the input
            drop_last_reader(self._parser)
        out = {
            name: list(found) if isinstance(found, list) else [found]
            for name, found in (result.items() if isinstance(result, dict) else ())
        }
        # after copying: the parser's result lists are emptied in place, not their items
        self._parser.clear_result()
        return out


@cache
def runner(vendor: Vendor, overlay: Path | None) -> Runner:
    return Runner(vendor, overlay)
