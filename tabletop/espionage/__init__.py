"""Demon Espionage."""
