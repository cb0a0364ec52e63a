"""Sizing advisor: the switch models roce-cfg knows, and fabric plans for a GPU demand.

Port fitting is the designer's own (``roce_cfg.design.ports.allocate``): a plan the advisor calls
feasible is one whose every switch role the designer can lay out, and an infeasible plan carries
the designer's own refusal. The catalogue (catalogue.py), the demand (demand.py), what things
cost (costs.py), the shapes fitted to a demand (layouts.py), their order and the reason each
gives for its place (order.py), the ranked list and the plan ``--write`` takes (ranking.py) and
the intent that builds the chosen plan (draft.py).
"""

from roce_cfg.advise.catalogue import models_table, port_map
from roce_cfg.advise.costs import BillOfMaterials, bill_of_materials, load_prices
from roce_cfg.advise.demand import Demand
from roce_cfg.advise.draft import intent_for
from roce_cfg.advise.layouts import Plan, single_switch, three_tier, two_tier
from roce_cfg.advise.ranking import PLAN_COLUMNS, best, plan, plan_row

__all__ = [
    "PLAN_COLUMNS",
    "BillOfMaterials",
    "Demand",
    "Plan",
    "best",
    "bill_of_materials",
    "intent_for",
    "load_prices",
    "models_table",
    "plan",
    "plan_row",
    "port_map",
    "single_switch",
    "three_tier",
    "two_tier",
]
