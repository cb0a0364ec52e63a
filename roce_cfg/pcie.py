"""PCIe arithmetic: what a NIC slot can feed. One home for the lint rule and the advisor."""

from __future__ import annotations

# Raw bandwidth of one PCIe lane in Gb/s after line encoding (8b/10b, 128b/130b; Gen6 FLIT).
PCIE_LANE_GBPS = {1: 2.0, 2: 4.0, 3: 7.88, 4: 15.75, 5: 31.5, 6: 60.5}
# Share of the raw rate left for payload after TLP/DLLP overhead.
PCIE_EFFICIENCY = 0.8


def pcie_payload_gbps(gen: int, lanes: int) -> float:
    """
    >>> round(pcie_payload_gbps(4, 16))
    202
    >>> pcie_payload_gbps(5, 16) > 400 > pcie_payload_gbps(4, 16)
    True
    """
    return PCIE_LANE_GBPS[gen] * lanes * PCIE_EFFICIENCY


def pcie_fits(gen: int, lanes: int, nic_gbps: int) -> bool:
    """Whether a Gen ``gen`` x``lanes`` slot can feed a ``nic_gbps`` NIC at line rate."""
    return pcie_payload_gbps(gen, lanes) >= nic_gbps
