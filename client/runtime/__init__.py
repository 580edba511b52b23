"""The runtime: the trio side that runs listeners, links, dials and mDNS for a peer."""
