"""Intent -> Fabric: fabric-wide facts first, then one DeviceConfig per switch.

shape.py derives the fabric's shape from the intent, topology.py lays out its switches, ports,
links and addresses, devices.py (with ports.py, qos.py and headroom.py) builds each switch's
model, and designer.py runs them in that order: import ``design``, ``plan`` and the rest from
roce_cfg.design.designer. This file imports none of them, so that a command reading
headroom.py's arithmetic alone (lint) does not build the designer's and the intent's models.
"""
