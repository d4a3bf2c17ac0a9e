"""The Lua scripts of the Redis store (``redis_store.py``, whose docstring says what each key
holds): each runs alone in Redis, so every write of a room is whole."""

from __future__ import annotations

# Shared by every script: whether the room is live by the caller's clock, and a key kept
# exactly as long as the room.
LUA_COMMON = """
local function live(room, now)
  local expires = redis.call('HGET', room, 'expires_at')
  if not expires or tonumber(expires) <= now then return nil end
  return tonumber(expires)
end
local function keep(key, expires, now)
  redis.call('PEXPIRE', key, math.max(1, math.ceil((expires - now) * 1000)))
end
local function join(students, joined, student, most, expires, now)
  if redis.call('SISMEMBER', students, student) == 1 then return nil end
  local count = redis.call('SCARD', students)
  if count >= most then return 'full' end
  redis.call('SADD', students, student)
  keep(students, expires, now)
  redis.call('HSET', joined, student, count + 1)
  keep(joined, expires, now)
  return nil
end
"""

# KEYS: the room's keys. ARGV: now, key hash, step, expires_at. 0 when the code is taken by a
# live room; a room expired by the clock (its keys not yet gone) is replaced.
CREATE = (
    LUA_COMMON
    + """
local now = tonumber(ARGV[1])
if live(KEYS[1], now) then return 0 end
redis.call('DEL', unpack(KEYS))
redis.call('HSET', KEYS[1], 'key_hash', ARGV[2], 'step', ARGV[3], 'version', 1, 'expires_at', ARGV[4],
  'opened:' .. ARGV[3], ARGV[1])
keep(KEYS[1], tonumber(ARGV[4]), now)
return 1
"""
)

# KEYS: the room. ARGV: now, key hash, step. {'ok', the room's fields...} or {reason}.
MOVE = (
    LUA_COMMON
    + """
if not live(KEYS[1], tonumber(ARGV[1])) then return {'no_room'} end
if redis.call('HGET', KEYS[1], 'key_hash') ~= ARGV[2] then return {'not_teacher'} end
if redis.call('HGET', KEYS[1], 'step') ~= ARGV[3] then
  redis.call('HSET', KEYS[1], 'step', ARGV[3])
  redis.call('HINCRBY', KEYS[1], 'version', 1)
  redis.call('HSETNX', KEYS[1], 'opened:' .. ARGV[3], ARGV[1])
end
return {'ok', unpack(redis.call('HGETALL', KEYS[1]))}
"""
)

# KEYS: the room's keys. ARGV: now, key hash. 'ok' once every key is gone.
END = (
    LUA_COMMON
    + """
if not live(KEYS[1], tonumber(ARGV[1])) then return 'no_room' end
if redis.call('HGET', KEYS[1], 'key_hash') ~= ARGV[2] then return 'not_teacher' end
redis.call('DEL', unpack(KEYS))
return 'ok'
"""
)

REVEAL = (
    LUA_COMMON
    + """
if not live(KEYS[1], tonumber(ARGV[1])) then return {'no_room'} end
if redis.call('HGET', KEYS[1], 'key_hash') ~= ARGV[2] then return {'not_teacher'} end
if redis.call('HSETNX', KEYS[1], 'revealed:' .. ARGV[3], 1) == 1 then
  redis.call('HINCRBY', KEYS[1], 'version', 1)
end
return {'ok', unpack(redis.call('HGETALL', KEYS[1]))}
"""
)

# KEYS: the room's keys. ARGV: now, student, the most students.
JOIN = (
    LUA_COMMON
    + """
local now = tonumber(ARGV[1])
local expires = live(KEYS[1], now)
if not expires then return 'no_room' end
return join(KEYS[2], KEYS[6], ARGV[2], tonumber(ARGV[3]), expires, now) or 'ok'
"""
)

# KEYS: the room's keys. ARGV: now, student, the most students, step, answer ("1,3"), the
# most changes. The answer's time is kept with it (``:answered``), changed with it only. The student joins first (and stays joined whatever follows, as in
# SQLiteStore, whose join is a transaction of its own).
ANSWER = (
    LUA_COMMON
    + """
local now = tonumber(ARGV[1])
local expires = live(KEYS[1], now)
if not expires then return 'no_room' end
local refused = join(KEYS[2], KEYS[6], ARGV[2], tonumber(ARGV[3]), expires, now)
if refused then return refused end
if redis.call('HEXISTS', KEYS[1], 'revealed:' .. ARGV[4]) == 1 then return 'revealed' end
local field = ARGV[4] .. ':' .. ARGV[2]
local old = redis.call('HGET', KEYS[3], field)
if old == ARGV[5] then return 'ok' end
if old then
  if tonumber(redis.call('HGET', KEYS[4], field) or '0') >= tonumber(ARGV[6]) then
    return 'too_many_changes'
  end
  redis.call('HINCRBY', KEYS[4], field, 1)
  keep(KEYS[4], expires, now)
  local before = ARGV[4] .. ':' .. old
  if redis.call('HINCRBY', KEYS[5], before, -1) <= 0 then redis.call('HDEL', KEYS[5], before) end
end
redis.call('HSET', KEYS[3], field, ARGV[5])
keep(KEYS[3], expires, now)
redis.call('HINCRBY', KEYS[5], ARGV[4] .. ':' .. ARGV[5], 1)
keep(KEYS[5], expires, now)
redis.call('HSET', KEYS[7], field, ARGV[1])
keep(KEYS[7], expires, now)
return 'ok'
"""
)
