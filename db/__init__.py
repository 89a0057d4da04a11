"""Persistence: SQLModel tables, migrations and the repository (all SQL lives here)."""
