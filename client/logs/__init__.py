"""The offline log tools: verify, show and export a game file, no network."""
