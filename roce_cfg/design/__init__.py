"""Intent -> Fabric: fabric-wide facts first, then one DeviceConfig per switch.

shape.py derives the fabric's shape from the intent, topology.py lays out its switches, ports,
links and addresses, devices.py (with ports.py, qos.py and headroom.py) builds each switch's
model, and designer.py runs them in that order.
"""

from roce_cfg.design.designer import Designer, design, plan, profiles_for

__all__ = ["Designer", "design", "plan", "profiles_for"]
