"""The peer node: links, relaying, presence, lobby roles, rematch and the end, without I/O."""
