"""REST endpoints, one module per feature, named as the feature's page, service or
selector: ``campaigns`` (list, create, read, change, delete, clone, progress),
``lifecycle`` (build the tasks, launch, pause, close, archive, unarchive), ``criteria``,
``languages``, ``uploads`` (systems, outputs), ``mapped`` (ratings, rating mappings),
``memberships``, ``payments``, ``experts``, ``workers``, ``judgements`` (the list),
``exports`` (the judgements export), ``jobs`` (a background import or build, as a 202
points to it) and ``tokens`` (the API token). Each is thin:
validate with its serializer (``annotations.serializers``, of the same name), call a
service or selector, answer; who may call it is ``annotations.access.apis``."""
