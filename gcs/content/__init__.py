"""Content: immutable definitions (cards, statuses, enemies, encounters, characters, rewards)."""
