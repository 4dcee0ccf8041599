"""An example third-party operator package for tsjit (see `operators`)."""
