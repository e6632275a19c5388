-- wrk script for a realtime server: POSTs pre-signed request bodies, one after another.
--
--   wrk -t1 -c50 -d10s -s scripts/realtime-load.lua http://127.0.0.1:PORT/ -- BODIES [RATE] [LIMIT] [PATH]
--
-- BODIES: a file of request bodies, one per line (scripts/realtime-requests.py --count N writes
-- load/bodies.jsonl); each thread cycles through all of them, from its own starting point.
-- RATE: requests per second to pace to, over all connections of a thread (0 or none: as fast as
-- the server answers). wrk has no rate option: `delay()` holds each connection's next request
-- until its slot in one schedule per thread (a slot every 1/RATE s, read from CLOCK_MONOTONIC
-- through LuaJIT's ffi). A slot already past is taken at once and the schedule does not try to
-- catch up, so a server slower than RATE gets RATE's requests no faster than it answers; the
-- achieved rate is printed. wrk times each request from its write to its response, so the delay
-- is not in the latency.
-- LIMIT: stop each thread after this many responses (0 or none: run for wrk's -d).
-- PATH: the path to POST to (none: /); /notifications for App Store Server Notifications.
-- Prints one JSON line at the end: requests, seconds (with LIMIT: until the last thread's last
-- response), achieved rate, latency percentiles (ms),
-- and the responses that were not 2xx/3xx or failed.

local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } realtime_load_timespec;
  int clock_gettime(int clock, realtime_load_timespec *now);
]]
local timespec = ffi.new("realtime_load_timespec")

local function now_ms()
  ffi.C.clock_gettime(1, timespec) -- CLOCK_MONOTONIC
  return tonumber(timespec.tv_sec) * 1000 + tonumber(timespec.tv_nsec) / 1e6
end

local threads = {}
local thread_count = 0

function setup(thread)
  thread:set("thread_index", thread_count)
  thread_count = thread_count + 1
  table.insert(threads, thread)
end

local bodies = {}
local next_body = 0
local interval = 0
local next_slot = nil
local limit = 0
local responses = 0
local headers = { ["Content-Type"] = "application/json" }
local path = "/"

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then bodies[#bodies + 1] = line end
  end
  if #bodies == 0 then error("no request bodies in " .. args[1]) end
  local rate = tonumber(args[2] or "0") or 0
  if rate > 0 then interval = 1000 / rate end
  limit = tonumber(args[3] or "0") or 0
  if args[4] ~= nil and #args[4] > 0 then path = args[4] end
  if interval > 0 then delay = paced_delay end
  if limit > 0 then response = counted_response end
  next_body = (thread_index or 0) * 7919 % #bodies
end

function request()
  if first_request_ms == nil then first_request_ms = now_ms() end
  next_body = next_body % #bodies + 1
  return wrk.format("POST", path, headers, bodies[next_body])
end

-- wrk decides after the first thread's init() whether the script has `delay` and `response`, so
-- init() defines them only when RATE and LIMIT ask for them: a run without a rate holds no
-- request back, and one without a limit does not make wrk read every response into Lua.
function paced_delay()
  local now = now_ms()
  if next_slot == nil or next_slot < now then next_slot = now end
  local wait = next_slot - now
  next_slot = next_slot + interval
  return math.floor(wait + 0.5)
end

function counted_response(status, response_headers, body)
  responses = responses + 1
  if responses == limit then
    -- wrk itself still waits out -d before it reports: the burst's own time is kept here.
    limit_seconds = (now_ms() - first_request_ms) / 1000
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local seconds = summary.duration / 1e6
  local limited = 0
  for _, thread in ipairs(threads) do
    local taken = thread:get("limit_seconds")
    if taken == nil then limited = nil break end
    limited = math.max(limited, taken)
  end
  if limited ~= nil then seconds = limited end
  local errors = summary.errors
  io.write(string.format(
    '{"requests": %d, "seconds": %.3f, "rate": %.1f, "p50": %.3f, "p90": %.3f, "p99": %.3f, "max": %.3f, "mean": %.3f, ' ..
    '"notOk": %d, "connectErrors": %d, "readErrors": %d, "writeErrors": %d, "timeouts": %d}\n',
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency.max / 1000, latency.mean / 1000,
    errors.status, errors.connect, errors.read, errors.write, errors.timeout))
end
