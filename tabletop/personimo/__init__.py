"""Personimo."""
