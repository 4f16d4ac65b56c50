#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "humaneval.settings")
    from django.core.management import execute_from_command_line

    from humaneval.startup import settings_or_exit

    # Settings that refuse (DEBUG off without a real DJANGO_SECRET_KEY, say) are one line
    # saying what to set, not a traceback, for every command including check --deploy.
    settings_or_exit()
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
