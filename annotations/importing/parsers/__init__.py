"""Parsers, one module per input format (a package, ``mapped``, for column-mapped rating
files): a file in, plain dataclasses out.

A parser reads a file into frozen dataclasses (``OutputRow``, ``ImportedJudgement``,
``WMTRanking``, ...) and raises ``common.errors.ImportFileError`` naming the file, the
line and the field of the first problem. Parsers are pure: no Django models, no
database. The services of ``annotations.importing`` write what they return, in one
transaction.
"""
