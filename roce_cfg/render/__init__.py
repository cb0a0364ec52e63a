"""Render a DeviceConfig to a vendor's CLI text with jinja2. Templates format; they never decide.

``templates/<vendor>/device.j2`` is an ordered list of ``section('name')`` calls; each section is
``templates/<vendor>/sections/<name>.j2`` (port-level parts are ``<name>.port.j2``). An operator's
overlay directory is searched first, so a user partial replaces ours section by section. The
renderer records which sections produced text, so the provenance of every emitted line is known.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from ipaddress import IPv4Interface, IPv4Network
from operator import attrgetter
from pathlib import Path
from typing import Any

import jinja2
import jinja2.runtime
from jinja2 import nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment
from pydantic import BaseModel

from roce_cfg.errors import InputError
from roce_cfg.grammar import load_grammar
from roce_cfg.model import numbers
from roce_cfg.model.device import DeviceConfig, Interface
from roce_cfg.platforms.profile import ModelSpec, VendorProfile
from roce_cfg.platforms.timers import watchdog_steps
from roce_cfg.resources import templates_dir
from roce_cfg.safepath import read_bytes


def _mask(value: IPv4Interface | IPv4Network) -> str:
    """``10.1.0.1/31`` -> ``10.1.0.1 255.255.255.254`` (a network prints its address)."""
    if isinstance(value, IPv4Network):
        return f"{value.network_address} {_netmask(value.prefixlen)}"
    return f"{value.ip} {_netmask(value.network.prefixlen)}"


@cache
def _netmask(prefixlen: int) -> str:
    """The dotted mask of a prefix length, worked out once (not per port)."""
    return str(IPv4Network(f"0.0.0.0/{prefixlen}").netmask)


def _units(value: int, unit: int) -> int:
    if value % unit:
        raise ValueError(f"{value} bytes is not a whole number of {unit}-byte units")
    return value // unit


def _ranges(values: list[int] | tuple[int, ...], joiner: str = " to ") -> list[str]:
    """The ``ranges`` filter: ``[0, 1, 2, 5]`` -> ``['0 to 2', '5']`` (model/numbers.py)."""
    return numbers.render(numbers.of(values), joiner)


def _port_reads(source: str, env: jinja2.Environment) -> tuple[str, ...] | None:
    """The ``iface`` attributes a port section reads, or None when it uses ``iface`` otherwise
    (bare, subscripted, passed on), so that its output can be reused for every port that agrees
    on those attributes."""
    tree = env.parse(source)
    attrs = [
        g.attr
        for g in tree.find_all(nodes.Getattr)
        if isinstance(g.node, nodes.Name) and g.node.name == "iface"
    ]
    names = sum(1 for n in tree.find_all(nodes.Name) if n.name == "iface")
    return tuple(sorted(set(attrs))) if names == len(attrs) else None


_PortKey = Callable[[Interface], object]
# Interface fields holding a frozen model (PortQos): ports of one kind share one object, so a
# port section's input is told by the object's identity, not by hashing every field of it.
_BY_IDENTITY = frozenset(
    name
    for name, f in Interface.model_fields.items()
    if isinstance(f.annotation, type) and issubclass(f.annotation, BaseModel)
)


def _port_key(reads: tuple[str, ...] | None) -> _PortKey | None:
    """What tells one port's input to a section from another's: the attributes it reads."""
    if reads is None:
        return None
    if not reads:
        return lambda iface: ()
    if not _BY_IDENTITY.intersection(reads):
        return attrgetter(*reads)
    if len(reads) == 1:
        (attr,) = reads
        return lambda iface: id(getattr(iface, attr))
    kinds = [(a, a in _BY_IDENTITY) for a in reads]
    return lambda iface: tuple(
        id(getattr(iface, a)) if by_id else getattr(iface, a) for a, by_id in kinds
    )


@dataclass
class Rendered:
    text: str
    sections: set[str] = field(default_factory=set)


def _template_frame(exc: BaseException) -> str:
    """'sections/pfc.port.j2:3: ' for the innermost template frame of a traceback, if any."""
    where = ""
    tb = exc.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if name.endswith(".j2"):
            where = f"{name}:{tb.tb_lineno}: "
        tb = tb.tb_next
    return where


class _Sections:
    """``section(name, iface)`` as one switch's templates call it. A 128-port switch renders
    each port section 128 times with two or three distinct inputs; calling jinja once per
    distinct input is most of the render time saved."""

    def __init__(self, renderer: Renderer, context: dict[str, Any]) -> None:
        self.renderer = renderer
        self.templates = renderer._templates
        self.context = context
        self.done: dict[tuple[str, object], str] = {}
        self.emitted: set[str] = set()

    def __call__(self, name: str, iface: Interface | None = None) -> str:
        template, reads = self.templates.get(name) or self.renderer._template(name)
        key: tuple[str, object] | None = None
        if iface is not None and reads is not None:
            key = (name, reads(iface))
            found = self.done.get(key)
            if found is not None:
                return found
        text = template.render({**self.context, "iface": iface, "section": self})
        if text.strip():
            self.emitted.add(name.split(".")[0])
        if key is not None:
            self.done[key] = text
        return text


class _Context(jinja2.runtime.Context):
    """Our templates' calls of ``section`` skip jinja's inspection of every callable for a
    context or environment to pass (a million calls on xl, a fifth of render time); anything
    else is called as jinja calls it. Not for overlay templates: those run sandboxed."""

    def call(__self, __obj: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if __obj.__class__ is _Sections:
            kwargs.pop("_loop_vars", None)
            kwargs.pop("_block_vars", None)
            return __obj(*args, **kwargs)
        return super().call(__obj, *args, **kwargs)


# A section template is a few KB; an overlay's larger than this is not one.
MAX_TEMPLATE_BYTES = 1 << 20


class _Loader(jinja2.FileSystemLoader):
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


class Renderer:
    """One jinja environment per vendor (and overlay)."""

    def __init__(self, profile: VendorProfile, overlay: Path | None = None) -> None:
        self.profile = profile
        self.grammar = load_grammar(profile.vendor.value, overlay)
        paths, roots = [], []
        foreign = overlay is not None and (overlay / "templates" / profile.vendor.value).is_dir()
        if overlay is not None:
            paths.append(overlay / "templates" / profile.vendor.value)
            roots.append(overlay)
        paths.append(templates_dir() / profile.vendor.value)
        roots.append(templates_dir())
        # Overlay templates come from outside the product (a colleague's repository, a vendor's
        # kit): sandboxed, they cannot reach Python internals ('cycler.__init__.__globals__.os'),
        # mutate the profile or loop past 100,000 range() items. The bundled templates are
        # ours and render 75% faster unsandboxed (bench/fabric-large: 3.2 s against 5.6 s).
        env_class = ImmutableSandboxedEnvironment if foreign else jinja2.Environment
        self.env = env_class(
            loader=_Loader([str(p) for p in paths], roots),
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            autoescape=False,
            auto_reload=False,  # templates do not change during a run; skip a stat per section
        )
        if not foreign:
            self.env.context_class = _Context
        self._templates: dict[str, tuple[jinja2.Template, _PortKey | None]] = {}
        self.env.filters["mask"] = _mask
        self.env.filters["units"] = _units
        self.env.filters["ranges"] = _ranges
        self.env.globals["watchdog_steps"] = watchdog_steps

    def render(self, device: DeviceConfig, model: ModelSpec) -> Rendered:
        context: dict[str, Any] = {
            "d": device,
            "p": self.profile,
            "m": model,
            "headroom_unit": self.profile.unit_bytes(self.profile.headroom_unit_bytes, model),
            "ecn_unit": self.profile.unit_bytes(self.profile.ecn_unit_bytes, model),
            # templates pick a command form by what the grammar says the model supports
            "supports": lambda name, named=False: self.grammar.supports(name, device.model, named),
        }

        sections = context["section"] = _Sections(self, context)
        try:
            text = self.env.get_template("device.j2").render(context)
        except jinja2.TemplateError as exc:
            where = (
                f"{exc.filename}:{exc.lineno}"
                if isinstance(exc, jinja2.TemplateSyntaxError)
                else ""
            )
            raise InputError(f"template error {where} {exc}".replace("  ", " ")) from None
        except (ArithmeticError, LookupError, TypeError, ValueError, AttributeError) as exc:
            # An overlay template that divides by zero or misuses a filter: one line naming
            # the template and the Python error, as for a jinja error.
            frame = _template_frame(exc)
            raise InputError(f"template error {frame}{type(exc).__name__}: {exc}") from None
        except RecursionError:
            raise InputError("template error: sections include each other endlessly") from None
        return Rendered(text=text, sections=sections.emitted)

    def _template(self, name: str) -> tuple[jinja2.Template, _PortKey | None]:
        found = self._templates.get(name)
        if found is None:
            path = f"sections/{name}.j2"
            try:
                source, _, _ = self.env.loader.get_source(self.env, path)  # type: ignore[union-attr]
                template = self.env.get_template(path)
            except jinja2.TemplateNotFound:
                raise InputError(
                    f"template section '{name}' missing for {self.profile.vendor.value}"
                ) from None
            found = self._templates[name] = (template, _port_key(_port_reads(source, self.env)))
        return found
