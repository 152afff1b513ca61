"""Behaviour graphs as data: node kinds, expressions and selectors, compiled programs (the
interpreter is gcs/interp)."""
