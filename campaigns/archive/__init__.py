"""Campaign archives: export and import of a whole campaign."""
