"""REST serializers, one module per API module of the same name (the shape of input and
output, no domain rules): ``campaigns``, ``lifecycle``, ``criteria``, ``languages``,
``uploads``, ``mapped``, ``memberships``, ``payments``, ``experts``, ``workers``,
``judgements``, ``exports``, ``jobs`` and ``tokens``."""
