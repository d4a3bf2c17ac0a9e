"""The guided lesson: the chapter step by step, with a live figure and a prediction per step."""

from .page import render

__all__ = ["render"]
