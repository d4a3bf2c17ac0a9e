"""The unit tests' shared fixtures: the rooms' stores of both kinds (tests/unit/room_stores.py)."""

from .room_stores import redis_url, stores  # noqa: F401 - fixtures, found by pytest here
