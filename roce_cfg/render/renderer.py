"""The renderer: one jinja environment per vendor (and overlay) turning a DeviceConfig into the
vendor's CLI text, section by section, recording which sections produced text."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import jinja2.bccache
import jinja2.runtime
from jinja2.sandbox import ImmutableSandboxedEnvironment

from roce_cfg.errors import InputError
from roce_cfg.grammar import load_grammar
from roce_cfg.model.device import DeviceConfig, Interface
from roce_cfg.platforms.profile import ModelSpec, VendorProfile
from roce_cfg.platforms.timers import watchdog_steps
from roce_cfg.render.filters import FILTERS
from roce_cfg.render.loader import TemplateLoader
from roce_cfg.render.reuse import SectionKey, section_key, section_reads
from roce_cfg.resources import templates_dir


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


class _PortSections:
    """``port_sections(iface, name, ...)``: port sections of one port in a row, their text that
    of ``section(name, iface)`` for each, joined. One call, and one key for all of them (the
    port attributes any of them reads), in place of a call and a key each: five such calls a
    port (QoS maps, scheduling, ECN, PFC, watchdog) were a third of rendering a switch."""

    def __init__(self, sections: _Sections) -> None:
        self.sections = sections
        self.keys: dict[tuple[str, ...], SectionKey | None] = {}
        self.done: dict[tuple[tuple[str, ...], object], str] = {}

    def __call__(self, iface: Interface, *names: str) -> str:
        key_of = self.keys.get(names, _UNKNOWN)
        if key_of is _UNKNOWN:
            key_of = self.keys[names] = self.sections.renderer._joint_key(names)
        if key_of is None:  # a section that reads the port otherwise: each rendered for it
            return "".join([self.sections(name, iface) for name in names])
        key = (names, key_of(iface))
        found = self.done.get(key)
        if found is None:
            found = self.done[key] = "".join([self.sections(name, iface) for name in names])
        return found


_UNKNOWN: Any = object()


class _Context(jinja2.runtime.Context):
    """Our templates' calls of ``section`` skip jinja's inspection of every callable for a
    context or environment to pass (a million calls on xl, a fifth of render time); anything
    else is called as jinja calls it. Not for overlay templates: those run sandboxed."""

    def call(__self, __obj: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        if __obj.__class__ is _Sections or __obj.__class__ is _PortSections:
            kwargs.pop("_loop_vars", None)
            kwargs.pop("_block_vars", None)
            return __obj(*args, **kwargs)
        return super().call(__obj, *args, **kwargs)


class _Compiled(jinja2.BytecodeCache):
    """The bundled templates compiled once a process: a run that renders several fabrics (lint
    of an intent, a report, the test suite) built a Renderer per fabric and compiled every
    section again. jinja checks each entry against its source's checksum before using it."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


_COMPILED = _Compiled()


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
            loader=TemplateLoader([str(p) for p in paths], roots),
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            autoescape=False,
            auto_reload=False,  # templates do not change during a run; skip a stat per section
            # an overlay's sandboxed templates are compiled for their own environment each time
            bytecode_cache=None if foreign else _COMPILED,
        )
        if not foreign:
            self.env.context_class = _Context
        self._templates: dict[str, tuple[jinja2.Template, SectionKey | None]] = {}
        self._reads: dict[str, tuple[str, ...] | None] = {}  # the port attributes each reads
        self.env.filters.update(FILTERS)
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
        context["port_sections"] = _PortSections(sections)
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
        finally:
            # the context holds ``section``, which holds the context: a cycle that kept the
            # switch's whole model until the cyclic collector came by (58,000 objects, 23 MB
            # on the large fabric, and collections that scanned them)
            context.clear()
        return Rendered(text=text, sections=sections.emitted)

    def _template(self, name: str) -> tuple[jinja2.Template, SectionKey | None]:
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
            reads = self._reads[name] = section_reads(source, self.env)
            found = self._templates[name] = (template, section_key(reads))
        return found

    def _joint_key(self, names: tuple[str, ...]) -> SectionKey | None:
        """What tells one port's input to sections ``names`` from another's: the attributes
        any of them reads (None: one of them uses the port otherwise)."""
        reads: set[str] = set()
        for name in names:
            self._template(name)
            own = self._reads[name]
            if own is None:
                return None
            reads.update(own)
        return section_key(tuple(sorted(reads)))
