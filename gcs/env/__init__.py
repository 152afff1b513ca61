"""Optional environments for learning agents (extras: ``pip install gcs[gym]``)."""
