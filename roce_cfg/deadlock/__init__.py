"""PFC deadlock analysis: from an intent, a fabric.json beside its configs, or a folder of
running-configs to the buffer dependency graph, its cycles, and the failures that open them.

source.py reads what is analysed; net.py and routing.py build the buffer graph; analyse.py
finds its cycles; run.py, sweep.py, orbits.py, quick.py and cluster.py check the failures."""

from roce_cfg.deadlock.source import LinkSpec, Source, from_parsed, from_plan, load

__all__ = ["LinkSpec", "Source", "from_parsed", "from_plan", "load"]
