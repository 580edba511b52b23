"""Tests of net/: identities, envelopes, frames, the protocol core and its driver."""
