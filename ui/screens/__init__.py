"""The client's screens: start, lobby and table (DESIGN.md section 6)."""
