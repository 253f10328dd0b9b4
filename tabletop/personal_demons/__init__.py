"""Personal Demons."""
