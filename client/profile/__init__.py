"""A profile on disk: settings, the profile lock, known peers, game and evidence files."""
