"""Writes, each in its transaction."""
