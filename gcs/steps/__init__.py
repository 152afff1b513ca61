"""The seed procedures as step tables in the seeds' numbering, and the one runner that runs them."""
