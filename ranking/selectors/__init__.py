"""Ranking's reads, one layer (pyproject.toml's contracts: its modules may import each
other, never a service or an interface above them), one module per entity or feature:

- ``runs``: the scores a run reads (integer-indexed arrays and their fingerprint), the
  runs' lists, a finished run's rows, coverage and metadata; a run's defaults
  (RUN_DEFAULTS) and the confidence levels' bounds and default;
- ``data_rule``: the minimum-data rule of a finished run (DataRule);
- ``content_checks``: how often each content check was ticked per system, with Wilson
  intervals;
- ``slices``: runs of one criterion on slices of its items, side by side;
- ``sweep``: the sweep's rules, and a run as the sweep will leave it;
- ``means``: the MTG-style table of mean ratings beside the rank ranges;
- ``power``: power analysis before and after launch, its bounds and default power;
- ``adaptive``: what an adaptive batch reads and what the adaptive page shows.
"""
