"""Intrigue (RULES part 7-8): characters, shticks, goals, envelopes, dossiers, deals."""
