"""Writes, one module per entity or feature. Import from the module:
``from annotations.services.campaigns import ...``.

``campaigns``, ``criteria``, ``tasks`` (the build), ``assignment`` (handing out work),
``judgements``, ``quality``, ``workers``, ``memberships``, ``payments``, ``platforms``,
``languages``, ``validation`` (model rules as domain errors), and the demo campaigns
(``demo``, ``demo_multilingual``); the writers imports and the demo campaigns share: the
finished judgements (``finished_judgements``) and the raw bulk inserter (``bulk``). File
imports sit above, in ``annotations.importing``: they call these services, never the
other way round.

Every service is a typed function with keyword-only arguments that owns its transaction
and raises ``common.errors.DomainError`` (or a subclass) for a broken domain rule.
"""
