"""Pure cores of the annotations domain: no Django, no I/O (numpy; scipy and langcodes
where needed): ``design``, ``degrade``, ``inputs`` (an item's input as a worker reads
it), ``examples`` (the worked example of a magnitude criterion, from its standard),
``agreement``, ``experts``, ``scoring``, ``slices``, ``languages``, ``export_safety``,
``outputs`` (an output to store, as the parsers read it), and the demo data sets
``demo`` and ``demo_multilingual``."""
