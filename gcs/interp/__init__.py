"""The behaviour-graph interpreter (above the battle's primitives): entries and composite nodes
as frames, pausing nodes, card and unit actions, values and selectors."""
