"""Writes, one module per entity or feature. Import from the module:
``from annotations.services.campaigns import ...``.

``campaigns``, ``criteria``, ``tasks`` (the build), ``assignment`` (handing out work),
``judgements``, ``quality``, ``workers``, ``memberships``, ``payments``, ``platforms``,
``languages``, ``validation`` (model rules as domain errors), and the demo campaigns
(``demo``, ``demo_multilingual``). Imports are the same layer, in ``annotations.importing``.

Every service is a typed function with keyword-only arguments that owns its transaction
and raises ``common.errors.DomainError`` (or a subclass) for a broken domain rule.
"""
