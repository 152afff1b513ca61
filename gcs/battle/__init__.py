"""Battle state and the rules that change it."""
