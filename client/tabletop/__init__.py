"""The table: one peer's view of one game, its parts, its events and its read-only views."""
