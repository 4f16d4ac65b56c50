"""Pages, one module per feature, named as the feature's form, service and selector:
``worker`` (the crowd workers' pages), ``home``, ``accounts``, ``errors`` and the task
designers' and organizers' pages (``campaigns``, ``uploads``, ``settings``, ``criteria``,
``plan``, ``lifecycle``, ``preview``, ``monitor``, ``members``, ``payments``, ``exports``,
``experts``, ``languages``, ``mapped``). Views are thin: validate, call a service or
selector, render; who may see a page is ``annotations.access.pages``."""
