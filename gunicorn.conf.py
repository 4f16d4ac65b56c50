"""gunicorn's settings when it runs from this checkout (it reads ./gunicorn.conf.py).

Without ``--preload`` each worker loads the application itself, and workers that all
refuse their settings race the master's shutdown into a ``HaltServer`` traceback (exit 1).
The master checks the settings first instead: the same one-line refusal and exit 3 as
with ``--preload`` (humaneval.startup).
"""

from typing import Any


def on_starting(server: Any) -> None:
    from humaneval.startup import server_settings_or_exit

    server_settings_or_exit()
