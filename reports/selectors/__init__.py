"""Reads of reports, by entity."""
