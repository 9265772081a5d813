"""Reads (no writes)."""
