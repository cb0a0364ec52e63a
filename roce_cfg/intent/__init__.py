"""The operator's intent: models, YAML loading with line numbers, cross-field checks."""

from roce_cfg.intent.loader import LoadedIntent, load_intent
from roce_cfg.intent.models import Intent, Vendor

__all__ = ["Intent", "LoadedIntent", "Vendor", "load_intent"]
