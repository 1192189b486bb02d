"""Keys of the ``setting`` table (standard library only: readers import it without SQLAlchemy)."""

ASSUMPTION_PREFIX = "assumption."
"""Settings rows of the assumptions are ``assumption.<field name>`` (the other rows are the program's own:
the data version, the catalog's fingerprint)."""
