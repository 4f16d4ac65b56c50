"""Pure cores of the annotations domain: no Django, no I/O (design, degrade, agreement,
scoring, export_safety)."""
