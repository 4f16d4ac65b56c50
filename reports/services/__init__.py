"""Writes of reports, by entity."""
