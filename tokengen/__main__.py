"""``python -m tokengen``: the same as the ``tokengen`` command."""

from .cli import run

if __name__ == "__main__":
    run()
