"""Reads for pages and snapshots: selectors, as writes are services."""
