"""`python -m referee` runs the referee CLI."""

from referee.cli import main

main()
