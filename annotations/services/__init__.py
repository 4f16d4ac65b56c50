"""Writes, one module per entity or feature. Import from the module:
``from annotations.services.campaigns import ...``.

Campaigns and criteria: ``campaigns``, ``criteria``, ``validation`` (model rules as
domain errors). The build and the hand-out: ``tasks`` (the build, and the tasks adaptive design adds), ``assignment``
(handing out work), ``orders`` (the seeded orders of a worker's items and of a page's
outputs), ``places`` (the places a task holds), ``sessions`` (a worker's
identity, enrolment from an entry link, consent, last seen), ``expiry`` (assignments past
their time), ``drafts`` (autosaved answers). Answers and quality: ``judgements``,
``quality``, ``workers`` (an organizer's marks on workers). People and money:
``memberships``, ``payments``, ``languages``, ``tokens`` (a user's API token). The demo campaigns: ``demo``,
``demo_multilingual``. The writers imports and the demo campaigns share: ``outputs``
(systems, items and outputs in bulk), ``finished_judgements`` and the raw bulk inserter
``bulk``. A crowd platform has no writes of its own (its reads are
``annotations.selectors.platforms``). File imports sit above, in
``annotations.importing``: they call these services, never the other way round.

Services that write: typed functions with keyword-only arguments, each owning its
transaction and raising ``common.errors.DomainError`` (or a subclass) for a broken domain
rule. Small pure helpers of one or two values (and the few one-value lookups the hand-out
uses): positional. ``tests/test_service_signatures.py`` lists the positional ones.
"""
