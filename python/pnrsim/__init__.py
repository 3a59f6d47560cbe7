"""pnrsim: the Python companion of pnrsim (minimal until the python helper's package is merged)."""
