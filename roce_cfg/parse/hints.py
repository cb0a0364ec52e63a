"""Hints from a generated fabric.json: the model, role and link speeds a config cannot state."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from roce_cfg.errors import InputError
from roce_cfg.model.ceilings import MAX_GPUS, MAX_LINKS, MAX_SWITCHES
from roce_cfg.model.fabric import Fabric
from roce_cfg.parse import Hints
from roce_cfg.yamlsrc import FABRIC_JSON, load_json


def hints_from_fabric(path: Path) -> dict[str, Hints]:
    return hints_from_plan(load_fabric(path))


def load_fabric(path: Path) -> Fabric:
    """A fabric.json written by ``generate`` (devices are not in it)."""
    # A fabric of thousands of switches writes a fabric.json of tens of MB (headroom terms per
    # port); FABRIC_JSON allows that much.
    data = load_json(path, FABRIC_JSON)
    if isinstance(data, dict):
        # Bounded by the plan ceilings before validation, the costly part for a large list.
        for key, most, what in (
            ("switches", MAX_SWITCHES, "switches"),
            ("links", MAX_LINKS, "links"),
            ("nics", MAX_GPUS, "NIC attachments"),
        ):
            items = data.get(key)
            if isinstance(items, list) and len(items) > most:
                raise InputError(
                    f"{key}: {len(items):,} {what}, more than the largest fabric roce-cfg "
                    f"designs ({most:,})",
                    file=str(path),
                )
    try:
        fabric = Fabric.model_validate({**data, "devices": []} if isinstance(data, dict) else data)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first["loc"])
        raise InputError(
            f"not a roce-cfg fabric.json: {loc}: {first['msg']}", file=str(path)
        ) from None
    return fabric


def hints_from_plan(fabric: Fabric) -> dict[str, Hints]:
    speeds: dict[str, dict[str, int]] = {s.hostname: {} for s in fabric.switches}
    for link in fabric.links:
        speeds.setdefault(link.a_device, {})[link.a_port] = link.speed_gbps
        speeds.setdefault(link.b_device, {})[link.b_port] = link.speed_gbps
    for nic in fabric.nics:
        speeds.setdefault(nic.switch, {})[nic.port] = nic.speed_gbps
    return {
        s.hostname: Hints(model=s.model, role=s.role, speeds=speeds.get(s.hostname, {}))
        for s in fabric.switches
    }
