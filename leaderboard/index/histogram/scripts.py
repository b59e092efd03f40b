"""The Lua scripts of leaderboard/index/histogram/board.py. Each touches keys of one hash slot only.

A player's record (a field of the shard hash ``{<board>|p<k>}``) is ``"<sort key>"`` or
``"<sort key> <score> <score> …"``: the scores after the first space are score sets the player
may still be in (a move not finished yet). ``"d"`` is a removed entry (a tombstone, so that a
rebuild loading an older snapshot does not bring it back).

Beside each score set, in its slot, ``…:d`` holds its members' details (what a page shows
besides the score and the time), written and removed with the member. A board whose keys
expire keeps the moment in its head (``x``): every script given one sets it on its keys.
"""

# The score of a sort key (score × 10^10 + …), in Lua without rounding: its leading digits.
_SCORE_OF = """
local function score_of(key)
  if #key <= 10 then return '0' end
  return string.sub(key, 1, #key - 10)
end
"""

# KEYS: shard hash, the player's lease, the shard's loading set.
# ARGV: user id, mode (gt | set | del), new sort key ('' for del), lease token, lease ms, expire
# at (epoch seconds, '' for never). Returns {'busy'}; {'same'} when nothing is to do; else {'go',
# sort key to enter ('' for none), scores to leave...}: the record is already the new one, the
# lease taken. "set" always enters, even at the same sort key: its details may be new.
CLAIM = (
    _SCORE_OF
    + """
local uid, mode, new = ARGV[1], ARGV[2], ARGV[3]
if redis.call('exists', KEYS[2]) == 1 or redis.call('sismember', KEYS[3], uid) == 1 then
  return {'busy'}
end
local current, pending = false, {}
local record = redis.call('hget', KEYS[1], uid)
if record then
  for word in string.gmatch(record, '%S+') do
    if not current then current = word else pending[#pending + 1] = word end
  end
  if current == 'd' then current = false end
end
local changed
if mode == 'del' then
  changed = current ~= false
elseif mode == 'gt' then
  changed = (not current) or tonumber(new) > tonumber(current)
else
  changed = true
end
local function expire()
  if ARGV[6] ~= '' then redis.call('expireat', KEYS[1], ARGV[6]) end
end
if not changed and #pending == 0 then
  -- a removal of an entry not there yet: a tombstone, so that a rebuild's older rows do not add it
  if mode == 'del' and not record then redis.call('hset', KEYS[1], uid, 'd'); expire() end
  return {'same'}
end
local keep = current
if changed then keep = (mode ~= 'del') and new or false end
local leave, seen = {}, {}
if keep then seen[score_of(keep)] = true end
local function add(score)
  if not seen[score] then seen[score] = true; leave[#leave + 1] = score end
end
if current then add(score_of(current)) end
for _, score in ipairs(pending) do add(score) end
local value = keep or 'd'
if #leave > 0 then value = value .. ' ' .. table.concat(leave, ' ') end
redis.call('hset', KEYS[1], uid, value)
expire()
redis.call('set', KEYS[2], ARGV[4], 'PX', ARGV[5])
local answer = {'go', keep or ''}
for _, score in ipairs(leave) do answer[#answer + 1] = score end
return answer
"""
)

# KEYS: shard hash, the player's lease. ARGV: user id, lease token.
# Ends a move: the record loses its pending scores, the lease is released (only if still ours).
RELEASE = """
if redis.call('get', KEYS[2]) ~= ARGV[2] then return 0 end
local record = redis.call('hget', KEYS[1], ARGV[1])
if record then
  local space = string.find(record, ' ', 1, true)
  if space then redis.call('hset', KEYS[1], ARGV[1], string.sub(record, 1, space - 1)) end
end
redis.call('del', KEYS[2])
return 1
"""

# KEYS: score set, its version, its details. ARGV: 'enter' | 'leave' | 'stamp', member, epoch
# seconds, details ('' for none), expire at ('' for never). Returns {count, version}; the version
# grows with every change (and every stamp), so the histogram can keep the newest count of each
# score and ignore late ones. A member's details enter with it (a repair, which has none to give,
# keeps those there) and always leave with it.
SCORE_SET = """
local changed = 1
if ARGV[1] == 'enter' then
  changed = redis.call('zadd', KEYS[1], 'CH', ARGV[3], ARGV[2])
  if ARGV[4] ~= '' then redis.call('hset', KEYS[3], ARGV[2], ARGV[4]) end
elseif ARGV[1] == 'leave' then
  changed = redis.call('zrem', KEYS[1], ARGV[2])
  redis.call('hdel', KEYS[3], ARGV[2])
end
local version
if changed > 0 then
  version = redis.call('incr', KEYS[2])
else
  version = tonumber(redis.call('get', KEYS[2]) or '0')
end
if ARGV[5] ~= '' then
  for _, key in ipairs(KEYS) do redis.call('expireat', key, ARGV[5]) end
end
return {redis.call('zcard', KEYS[1]), version}
"""

# The details (KEYS[2]) of the members of a ZRANGE … WITHSCORES answer (false where missing).
_DETAILS = """
local function details(found)
  local members = {}
  for i = 1, #found, 2 do members[#members + 1] = found[i] end
  if #members == 0 then return {} end
  return redis.call('hmget', KEYS[2], unpack(members))
end
"""

# KEYS: score set, its details. ARGV: first, last position. Returns {{member, seconds, ...},
# {details, ...}}.
RANGE = (
    _DETAILS
    + """
local found = redis.call('zrange', KEYS[1], ARGV[1], ARGV[2], 'WITHSCORES')
return {found, details(found)}
"""
)

# KEYS: score set, its details. ARGV: member, span. Returns false when the member is not in the
# set, else {its position in the set, the set's size, {member, seconds, ...} from `span` above it
# to `span` below it within the set, {details, ...}}.
NEAR = (
    _DETAILS
    + """
local rank = redis.call('zrank', KEYS[1], ARGV[1])
if not rank then return false end
local span = tonumber(ARGV[2])
local found = redis.call('zrange', KEYS[1], math.max(0, rank - span), rank + span, 'WITHSCORES')
return {rank, redis.call('zcard', KEYS[1]), found, details(found)}
"""
)

# KEYS: the board's head. ARGV: expire at ('' for never). A build's last step: the board turns
# ready only if it is still the one being built (not flushed meanwhile). Returns 1, or 0.
READY = """
if redis.call('hget', KEYS[1], 'state') ~= 'building' then return 0 end
redis.call('hset', KEYS[1], 'state', 'ready')
if ARGV[1] ~= '' then redis.call('expireat', KEYS[1], ARGV[1]) end
return 1
"""

# KEYS: the board's head hash. ARGV: positions (MAX_SCORE + 1), then (score, count, version)...
# Keeps each score's newest count (c<score>, v<score>), the total (n) and a Fenwick tree of the
# counts (f<i>, i = positions − score: the best score is position 1).
SYNC = """
local head, size = KEYS[1], tonumber(ARGV[1])
for i = 2, #ARGV, 3 do
  local score, count, version = ARGV[i], tonumber(ARGV[i + 1]), tonumber(ARGV[i + 2])
  if version > tonumber(redis.call('hget', head, 'v' .. score) or '-1') then
    local delta = count - tonumber(redis.call('hget', head, 'c' .. score) or '0')
    redis.call('hset', head, 'v' .. score, version, 'c' .. score, count)
    if delta ~= 0 then
      redis.call('hincrby', head, 'n', delta)
      local j = size - tonumber(score)
      while j <= size do
        redis.call('hincrby', head, 'f' .. j, delta)
        j = j + bit.band(j, -j)
      end
    end
  end
end
return 1
"""

# KEYS: the board's head hash. ARGV: positions, highest power of 2 <= positions, offset, limit.
# Returns {total, {score, offset within the score, rows to take, ...}, state}: the score sets
# holding rows offset … offset + limit − 1, found by descending the Fenwick tree (17 reads a
# score), and the board's state (false when not built).
PLAN = """
local head, size = KEYS[1], tonumber(ARGV[1])
local total = tonumber(redis.call('hget', head, 'n') or '0')
local offset, limit = tonumber(ARGV[3]), tonumber(ARGV[4])
local out = {}
while limit > 0 and offset < total do
  local position, rest, step = 0, offset, tonumber(ARGV[2])
  while step >= 1 do
    local probe = position + step
    if probe <= size then
      local below = tonumber(redis.call('hget', head, 'f' .. probe) or '0')
      if below <= rest then position = probe; rest = rest - below end
    end
    step = step / 2
  end
  local score = size - (position + 1)
  local take = math.min(limit, tonumber(redis.call('hget', head, 'c' .. score) or '0') - rest)
  if take <= 0 then break end
  out[#out + 1] = score; out[#out + 1] = rest; out[#out + 1] = take
  offset = offset + take; limit = limit - take
end
return {total, out, redis.call('hget', head, 'state')}
"""

# KEYS: shard hash, the shard's loading set. ARGV: user id, sort key, ...
# A rebuild's rows: a player with a record (written meanwhile, or removed: "d") is left alone;
# the others get their record and are marked loading until their score set has them (CLAIM
# answers busy for them meanwhile). Returns the indexes (1-based pairs) of the rows taken.
LOAD = """
local taken = {}
for i = 1, #ARGV, 2 do
  if redis.call('hsetnx', KEYS[1], ARGV[i], ARGV[i + 1]) == 1 then
    redis.call('sadd', KEYS[2], ARGV[i])
    taken[#taken + 1] = (i + 1) / 2
  end
end
return taken
"""
