"""Alembic migrations of the tournament database (see tournament/db.py and tournament/alembic.ini)."""
