"""REST API of reports: thin views over reports.services and reports.selectors."""
