"""Guilds."""
