"""Writes, one module per area. Import from the module: ``from annotations.services.campaigns import ...``.

Every service is a typed function with keyword-only arguments that owns its transaction
and raises ``common.errors.DomainError`` (or a subclass) for a broken domain rule.
"""
