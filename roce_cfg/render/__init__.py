"""Render a DeviceConfig to a vendor's CLI text with jinja2. Templates format; they never decide.

``templates/<vendor>/device.j2`` is an ordered list of ``section('name')`` calls; each section is
``templates/<vendor>/sections/<name>.j2`` (port-level parts are ``<name>.port.j2``, called as
``section(name, iface)``, or several in a row as ``port_sections(iface, name, ...)``). An operator's
overlay directory is searched first, so a user partial replaces ours section by section. The
renderer records which sections produced text, so the provenance of every emitted line is known.
"""

from roce_cfg.render.renderer import Rendered, Renderer

__all__ = ["Rendered", "Renderer"]
