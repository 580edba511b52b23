"""Sessions for screens: what a window drives (a local game, a networked table, a replay)."""
