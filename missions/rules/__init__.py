"""DemLoc mission rules, pure Python (no Django): cards, damage, shooting and hand-to-hand
calculators, arcane and possession, summoning, turns, and the ``demloc`` Ruleset."""

from .ruleset import DemlocRuleset

__all__ = ["DemlocRuleset"]
