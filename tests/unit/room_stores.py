"""Shared by the rooms' store tests: stores of both kinds on one place (a SQLite file in the
test's folder, or a redis-server this session starts), a clock the test moves, student ids."""

from __future__ import annotations

import dataclasses
import sqlite3
import time
from pathlib import Path

import pytest

from classroom.model import Limits, RoomError
from classroom.sqlite_store import ROOM_TABLES, SQLiteStore
from harness.redis_server import need_redis_server, running_redis_server

ROOT = Path(__file__).resolve().parents[2]
# Symbols a student confuses when copying from a projector: never in a code.
FORBIDDEN = set("0 O Q D 1 I L 2 Z 5 S 8 B U V 6 G".split())
MIN_CODE_BITS = 30
CODE_CHARS = 8
WORKER_TIMEOUT_S = 300  # several interpreters on a busy 2-core machine
DEFAULTS = Limits()  # the tests' limits, whatever ROOM_* this machine's environment sets


def sid(n: int) -> str:
    """Student n's anonymous id: 12 URL-safe characters, as the app's."""
    return f"s{n:011d}"


class FakeClock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@dataclasses.dataclass
class Stores:
    """Opens stores of one kind on one place (the test's SQLite file, or the session's Redis)."""

    kind: str
    spec: str  # what ROOM_STORE would say
    path: Path | None = None
    opened: list = dataclasses.field(default_factory=list)

    def open(self, limits: Limits | None = DEFAULTS, clock=time.time):
        if self.kind == "sqlite":
            store = SQLiteStore(self.path, limits, clock)
        else:
            from classroom.redis_store import RedisStore

            store = RedisStore(self.spec, limits, clock)
        self.opened.append(store)
        return store

    def client(self):
        import redis

        return redis.Redis.from_url(self.spec, decode_responses=True)

    def room_contents(self, code: str) -> dict:
        """Everything stored for the room, read past the store: SQLite's rows by table, or
        Redis's keys with their values."""
        if self.kind == "sqlite":
            with sqlite3.connect(self.path) as db:
                return {
                    table: db.execute(f"SELECT * FROM {table} WHERE code = ?", (code,)).fetchall()
                    for table in ROOM_TABLES
                }
        client = self.client()
        try:
            return {key: _value(client, key) for key in client.scan_iter(match=f"sa:room:{{{code}}}*")}
        finally:
            client.close()

    def everything(self) -> str:
        """All the store holds, as text: the SQLite file and its journal's bytes, or every
        Redis key and value."""
        if self.kind == "sqlite":
            files = [self.path, *self.path.parent.glob(self.path.name + "-*")]
            return "".join(f.read_bytes().decode("latin-1") for f in files if f.exists())
        client = self.client()
        try:
            return repr({key: _value(client, key) for key in client.scan_iter()})
        finally:
            client.close()


def _value(client, key: str):
    kind = client.type(key)
    return {"hash": client.hgetall, "set": client.smembers, "string": client.get}[kind](key)


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    need_redis_server()
    with running_redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server.url


@pytest.fixture(params=["sqlite", "redis"])
def stores(request, tmp_path):
    if request.param == "sqlite":
        path = tmp_path / "rooms.sqlite3"
        made = Stores("sqlite", f"sqlite:///{path}", path)
    else:
        made = Stores("redis", request.getfixturevalue("redis_url"))
        client = made.client()
        client.flushdb()  # one server for the session: each test starts from an empty one
        client.close()
    yield made
    for store in made.opened:
        store.close()


def reason(call) -> str:
    with pytest.raises(RoomError) as refused:
        call()
    return refused.value.reason
