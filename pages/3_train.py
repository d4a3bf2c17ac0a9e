"""Train a tiny GPT, run the book's heads experiment, generate text."""

from ui.train import render

render()
