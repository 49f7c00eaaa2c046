"""``python -m divedeck.cli``: the same as the ``divedeck`` command."""

from . import main

if __name__ == "__main__":
    main()
