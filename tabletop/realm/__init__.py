"""Pixel Demon's Realm."""
