"""Attention playground: every stage of every head, the shapes, and a link that reproduces it."""

from ui.playground import render
from ui.run_profile import profiled

with profiled():  # off unless a benchmark asks for it (ui/run_profile.py)
    render()
