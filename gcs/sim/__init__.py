"""Batch simulation: policies, single battles and runs, parallel simulation, replays."""
