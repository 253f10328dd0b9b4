"""Personal Demons rules (pure, no Django): ``PersonalDemonsRuleset``."""

from .engine import PersonalDemonsRuleset, solo_rating

__all__ = ["PersonalDemonsRuleset", "solo_rating"]
