"""Pure report statistics (numpy and scipy; no Django)."""
