"""A class's room, whatever store holds it, pure Python (no Streamlit): what a room is, its
limits, codes and ids, and the stores' interface (``model``); the stores, a SQLite file
(``sqlite_store``, the default) and Redis (``redis_store``); and opening the one
``ROOM_STORE`` names, once per process (``store``). The lesson page's room (ui/room/), the
load benchmark and the tests all use these."""
