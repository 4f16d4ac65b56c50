"""Pages, one module per feature: ``sessions``, ``judgements`` and ``drafts`` (the crowd
workers' pages), ``home``, ``accounts`` (the password-reset request), ``tokens`` (the
user's API token), ``errors`` and the task designers' and organizers' pages
(``campaigns``, ``uploads``, ``settings``, ``criteria``, ``plan``, ``lifecycle``,
``preview``, ``monitor``, ``memberships``, ``payments``, ``exports``, ``experts``,
``languages``, ``mapped``).

Pages and their forms are named by feature; services and selectors by entity. A page
takes its entity's name where its feature is that entity's (the campaigns, criteria,
judgements, languages, memberships, payments, sessions, tokens and drafts pages call the
service of their name; monitor, plan and experts read the selector of theirs). The other
features work on an entity named otherwise: lifecycle and settings change a campaign
(`services/campaigns.py`), uploads and mapped import files (`importing/uploads.py`,
`importing/mapped.py`, with the import jobs' selector `selectors/jobs.py`), preview
shows the worker's pages through the sessions and judgements selectors, and exports
writes the judgements' files (`exports/judgements.py`).

Views are thin: validate, call a service or selector, render; who may see a page is
`annotations.access.pages`."""
