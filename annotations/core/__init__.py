"""Pure cores of the annotations domain: no Django, no I/O (numpy; scipy and langcodes
where needed): ``design``, ``degrade``, ``agreement``, ``experts``, ``scoring``,
``slices``, ``languages``, ``export_safety``, ``outputs`` (an output to store, as the
parsers read it), and the demo data sets ``demo`` and ``demo_multilingual``."""
