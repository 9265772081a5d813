"""Everything the site says in words, by subject: labels.py (types, stats, counts, numbers:
what the others build on), game.py (orders, attacks, captures, refusals, the editor's review,
a structure's history), intrigue.py (deals, shticks, goals), election.py, audit.py (the audit
log), notices.py (stored notices) and scripts.py (the words the scripts write).

labels.py imports none of the others; the others import labels.py and, where one hands an
order to another (game.py to intrigue.py and election.py), import it at the top: no cycle."""
