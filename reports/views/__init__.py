"""Report pages: thin views over reports.services and reports.selectors."""
