"""Accounts: profile, preferences, the language and time zone of a user."""
