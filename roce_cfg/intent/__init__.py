"""The operator's intent: models, YAML loading with line numbers, cross-field checks."""

from roce_cfg.intent.loader import LoadedIntent, load_intent
from roce_cfg.intent.models import Intent

__all__ = ["Intent", "LoadedIntent", "load_intent"]
