"""Guided lesson: the chapter step by step, in Chinese and English."""

from ui.lesson import render

render()
