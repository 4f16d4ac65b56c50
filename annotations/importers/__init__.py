"""Parsers, one module per input format.

A parser reads a file into plain dataclasses and raises
``annotations.errors.ImportFileError`` naming the file, the line and the field of the
first problem. Parsers never touch the database: ``annotations.services.importing``
writes what they return, in one transaction.
"""
