/**
 * The Lua scripts that keep forgekit's job records (one Redis hash per job, next to BullMQ's own
 * keys) in step with the BullMQ job that queues it. Each runs atomically in Redis, so a record
 * changes only while the caller's BullMQ lock (`<job key>:lock`, whose value is the lease owner)
 * is held, and a finishing job hands its unique key to the next occurrence with no gap.
 *
 * Record fields (strings; an absent field is null): kind, payload, state, attempts, maxAttempts,
 * runAfter, leaseOwner, leaseExpiresAt, lastError, progressDone, progressTotal, cancelRequested,
 * uniqueKey, createdAt, updatedAt, finishedAt (times in ms since the epoch, the caller's clock),
 * delay (ms from creation to due, real time) and queuedAt (server time of creation, ms).
 *
 * Every script takes the records' key prefix as ARGV[1]. Keys are built inside the scripts, so the
 * package needs a single Redis server (not Redis Cluster).
 */

/** Helpers prepended to every script. */
const LIB = `
local r = ARGV[1]
local function rec(id) return r .. ":job:" .. id end
local function bullId(id) return "j" .. id end
local function serverMs()
  local t = redis.call("TIME")
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
-- Creates a queued record; 0 when its unique key is held by an unfinished job.
local function create(kind, payload, maxAttempts, runAfter, uniqueKey, now, delay)
  if uniqueKey ~= "" and redis.call("EXISTS", r .. ":unique:" .. uniqueKey) == 1 then return 0 end
  local id = redis.call("INCR", r .. ":seq")
  local k = rec(id)
  redis.call("HSET", k, "kind", kind, "payload", payload, "state", "queued", "attempts", 0, "maxAttempts", maxAttempts,
    "runAfter", runAfter, "cancelRequested", 0, "createdAt", now, "updatedAt", now, "delay", delay, "queuedAt", serverMs())
  if uniqueKey ~= "" then
    redis.call("HSET", k, "uniqueKey", uniqueKey)
    redis.call("SET", r .. ":unique:" .. uniqueKey, id)
  end
  redis.call("ZADD", r .. ":ids", id, id)
  -- Until its BullMQ job is added (the caller's next step), the sweep in claims can re-add it.
  redis.call("ZADD", r .. ":pending", serverMs(), id)
  return id
end
-- Ends a record: its lease and unique key go.
local function finish(id, state, now)
  local k = rec(id)
  local u = redis.call("HGET", k, "uniqueKey")
  if u then
    if redis.call("GET", r .. ":unique:" .. u) == tostring(id) then redis.call("DEL", r .. ":unique:" .. u) end
    redis.call("HDEL", k, "uniqueKey")
  end
  redis.call("HSET", k, "state", state, "finishedAt", now, "updatedAt", now)
  redis.call("HDEL", k, "leaseOwner", "leaseExpiresAt")
end
-- Whether owner holds the lease: the record is running under it and its BullMQ lock is the owner's.
local function held(id, owner, lockKey)
  local k = rec(id)
  return redis.call("HGET", k, "state") == "running" and redis.call("HGET", k, "leaseOwner") == owner and redis.call("GET", lockKey) == owner
end
`;

const script = (body: string): string => LIB + body;

/** ARGV: prefix, kind, payload, maxAttempts, runAfter, uniqueKey ("" none), now, delay → id, or 0 (unique key held). */
export const ENQUEUE = script(`
return create(ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8])
`);

/**
 * A BullMQ job was just taken with the owner's token (moved to active, locked): the record becomes
 * running under the lease, attempts + 1. A job whose record ended meanwhile (cancelled while
 * queued) is dropped from BullMQ.
 * ARGV: prefix, id, owner, lockKey, leaseMs, leaseUntil, now, activeKey, stalledKey, jobKey →
 * "ok" | "dropped" | "lost".
 */
export const CLAIMED = script(`
local id, owner, lockKey = ARGV[2], ARGV[3], ARGV[4]
if redis.call("GET", lockKey) ~= owner then return "lost" end
local k = rec(id)
local state = redis.call("HGET", k, "state")
if state ~= "queued" and state ~= "running" then
  redis.call("LREM", ARGV[8], 0, bullId(id))
  redis.call("SREM", ARGV[9], bullId(id))
  redis.call("DEL", lockKey, ARGV[10])
  return "dropped"
end
redis.call("PEXPIRE", lockKey, ARGV[5])
redis.call("HINCRBY", k, "attempts", 1)
redis.call("HSET", k, "state", "running", "leaseOwner", owner, "leaseExpiresAt", ARGV[6], "updatedAt", ARGV[7])
return "ok"
`);

/**
 * Jobs of one BullMQ queue left active without a lock (their worker died and the lease ran out):
 * back to the front of the wait list, or, after the last attempt, the record ends failed; a job
 * whose record already ended (its worker died between settling and telling BullMQ) is dropped.
 * ARGV: prefix, activeKey, waitKey, stalledKey, markerKey, jobKeyPrefix ("<bull prefix>:<queue>:"),
 * now, error → how many were recovered or ended.
 */
export const RECOVER = script(`
local activeKey, waitKey, stalledKey, markerKey, qp, now = ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7]
local n = 0
for _, bid in ipairs(redis.call("LRANGE", activeKey, 0, -1)) do
  local jobKey = qp .. bid
  if redis.call("EXISTS", jobKey .. ":lock") == 0 then
    n = n + 1
    local id = string.sub(bid, 2)
    local k = rec(id)
    local state = redis.call("HGET", k, "state")
    redis.call("LREM", activeKey, 0, bid)
    redis.call("SREM", stalledKey, bid)
    if state == "running" and tonumber(redis.call("HGET", k, "attempts")) >= tonumber(redis.call("HGET", k, "maxAttempts")) then
      redis.call("HSET", k, "lastError", ARGV[8])
      finish(id, "failed", now)
      redis.call("DEL", jobKey)
    elseif state == "running" or state == "queued" then
      redis.call("RPUSH", waitKey, bid)
      redis.call("ZADD", markerKey, 0, "0")
    else
      redis.call("DEL", jobKey)
    end
  end
end
return n
`);

/** ARGV: prefix, id, owner, lockKey, leaseMs, leaseUntil, now, stalledKey → {held, cancelRequested}. */
export const EXTEND = script(`
local id, owner, lockKey = ARGV[2], ARGV[3], ARGV[4]
if not held(id, owner, lockKey) then return {0, 0} end
redis.call("PEXPIRE", lockKey, ARGV[5])
redis.call("SREM", ARGV[8], bullId(id))
redis.call("HSET", rec(id), "leaseExpiresAt", ARGV[6], "updatedAt", ARGV[7])
return {1, tonumber(redis.call("HGET", rec(id), "cancelRequested"))}
`);

/** ARGV: prefix, id, owner, lockKey, done, total ("" null), now → {held, cancelRequested}. */
export const PROGRESS = script(`
local id, owner, lockKey = ARGV[2], ARGV[3], ARGV[4]
if not held(id, owner, lockKey) then return {0, 0} end
local k = rec(id)
redis.call("HSET", k, "progressDone", ARGV[5], "updatedAt", ARGV[7])
if ARGV[6] == "" then redis.call("HDEL", k, "progressTotal") else redis.call("HSET", k, "progressTotal", ARGV[6]) end
return {1, tonumber(redis.call("HGET", k, "cancelRequested"))}
`);

/**
 * Ends an attempt on a held job. action: complete | fail (for good) | retry (queued until
 * retryAt) | release (queued now, attempt not counted) | cancel (acknowledged request).
 * With a next job (complete, fail), creates it in the same step (unique key handed over).
 * ARGV: prefix, id, owner, lockKey, now, action, error, retryAt, hasNext ("1"/"0"), next kind,
 * payload, maxAttempts, runAfter, uniqueKey, delay → {status (1 done, 0 not held), next id (0 none)}.
 */
export const SETTLE = script(`
local id, owner, lockKey, now, action = ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
if not held(id, owner, lockKey) then return {0, 0} end
local k = rec(id)
if action == "complete" then
  finish(id, "succeeded", now)
elseif action == "fail" then
  redis.call("HSET", k, "lastError", ARGV[7])
  finish(id, "failed", now)
elseif action == "cancel" then
  if redis.call("HGET", k, "cancelRequested") ~= "1" then return {0, 0} end
  finish(id, "cancelled", now)
elseif action == "retry" then
  redis.call("HSET", k, "state", "queued", "lastError", ARGV[7], "runAfter", ARGV[8], "updatedAt", now)
  redis.call("HDEL", k, "leaseOwner", "leaseExpiresAt")
elseif action == "release" then
  redis.call("HINCRBY", k, "attempts", -1)
  redis.call("HSET", k, "state", "queued", "runAfter", now, "updatedAt", now)
  redis.call("HDEL", k, "leaseOwner", "leaseExpiresAt")
else
  return redis.error_reply("unknown action " .. action)
end
local nextId = 0
if ARGV[9] == "1" then nextId = create(ARGV[10], ARGV[11], ARGV[12], ARGV[13], ARGV[14], now, ARGV[15]) end
return {1, nextId}
`);

/**
 * A queued job → cancelled; a running one → cancelRequested; a finished one unchanged.
 * ARGV: prefix, id, now → the state before ("" when there is no such job).
 */
export const CANCEL = script(`
local id, now = ARGV[2], ARGV[3]
local k = rec(id)
local state = redis.call("HGET", k, "state")
if not state then return "" end
if state == "queued" then
  finish(id, "cancelled", now)
elseif state == "running" and redis.call("HGET", k, "cancelRequested") ~= "1" then
  redis.call("HSET", k, "cancelRequested", 1, "updatedAt", now)
end
return state
`);
