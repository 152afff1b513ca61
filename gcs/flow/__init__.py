"""Behaviour graphs: node kinds, expressions, selectors and the pausing interpreter."""
