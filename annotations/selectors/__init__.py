"""Reads, one module per entity or feature. Import from the module:
``from annotations.selectors.campaigns import ...``.

``campaigns``, ``criteria``, ``judgements`` (which judgements count: the one rule; the
task page a judgement is given on), ``sessions`` (a crowd worker's session: the worker of
a session link, their assignments and progress, texts in their language), ``platforms``
(what a platform's links carry), ``plan`` (the plan page's estimate), ``monitor`` (the
monitor page), ``agreement`` (agreement among workers), ``quality``, ``experts``,
``payments``, ``memberships``, ``languages``, ``workers`` (a campaign's crowd workers, one
or listed), ``tokens`` (a user's API token), ``jobs`` (background import jobs: one by id, the
active one of a kind, the progress a job's page shows), ``integrity`` (copies the
database does not check)."""
