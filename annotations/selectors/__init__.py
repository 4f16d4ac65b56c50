"""Reads, one module per area. Import from the module: ``from annotations.selectors.campaigns import ...``."""
