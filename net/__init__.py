"""Identities, signed envelopes, framing, the sans-I/O protocol core and its trio driver."""
