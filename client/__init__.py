"""The table and everything around it that needs no Qt: sessions, chain, log, bots, commands."""
