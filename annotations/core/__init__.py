"""Pure cores of the annotations domain: no Django, no I/O (numpy; scipy and langcodes
where needed): ``design``, ``degrade``, ``agreement``, ``experts``, ``scoring``,
``slices``, ``languages``, ``export_safety``, and the demo data sets ``demo`` and
``demo_multilingual``."""
