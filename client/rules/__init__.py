"""The chain's rules shared by the table and the verifier: records, bodies, plies, halts."""
