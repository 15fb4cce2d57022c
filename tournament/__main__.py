"""`python -m tournament` runs the tournament CLI."""

from tournament.cli.app import main

main()
