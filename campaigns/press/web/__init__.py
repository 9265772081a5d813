"""Views and forms."""
