"""Attention playground: every stage of every head, the shapes, and a link that reproduces it."""

from ui.playground import render

render()
