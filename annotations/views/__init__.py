"""Pages, one module per feature, named as the feature's form, service and selector:
``sessions``, ``judgements`` and ``drafts`` (the crowd workers' pages), ``home``,
``accounts`` (the password-reset request), ``tokens`` (the user's API token), ``errors``
and the task designers' and organizers' pages (``campaigns``, ``uploads``, ``settings``,
``criteria``, ``plan``, ``lifecycle``, ``preview``, ``monitor``, ``memberships``,
``payments``, ``exports``, ``experts``, ``languages``, ``mapped``). Views are thin:
validate, call a service or selector, render; who may see a page is
``annotations.access.pages``."""
