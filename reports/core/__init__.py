"""Pure cores of the reports: no Django, no I/O (numpy and scipy): ``correlation``
(metric-human correlation with bootstrap intervals), ``correlation_report`` (its
renderings), ``metric_files`` (reading metric score files), ``heds`` (the datasheet's
questions) and ``datasheet_text`` (the datasheet's answers worded from values)."""
