"""Views, one module per audience: ``worker`` (crowd workers), ``designer`` (task designers
and organizers). Views are thin: validate, call a service or selector, render."""
