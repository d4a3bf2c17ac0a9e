"""Trained heads explorer: what every head of a trained GPT does with a prompt."""

from ui.explorer import render

render()
