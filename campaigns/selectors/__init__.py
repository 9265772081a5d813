"""Every read a page needs, as plain view-models (RULES R50/R51 applied here). Reads only."""
