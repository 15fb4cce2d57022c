"""Migration scripts (a package so that installs ship them)."""
