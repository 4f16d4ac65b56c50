"""Reads, one module per entity or feature. Import from the module:
``from annotations.selectors.campaigns import ...``.

``campaigns``, ``criteria``, ``judgements`` (which judgements count: the one rule),
``worker`` (the worker's pages), ``plan``, ``monitor``, ``agreement``, ``quality``,
``experts``, ``payments``, ``platforms``, ``memberships``, ``languages``, ``integrity``
(copies the database does not check)."""
