"""`python -m tournament` runs the tournament CLI."""

from tournament.cli import main

main()
