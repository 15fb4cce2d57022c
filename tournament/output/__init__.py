"""What people read: the Structs of `schemas/tournament.py` as text, CSV, HTML, SVG and printables.

`render` (tables, CSV, pages), `pictures` (brackets and pods as drawings),
`printables` (pairings lists, match slips) and `pages` (the one Jinja2
environment over `templates/`). Knows nothing of the database.
May import `formats` and `schemas`, nothing else of `tournament`.
"""
