"""Persistence: SQLModel tables, engines with the right pragmas, migrations and backups."""
