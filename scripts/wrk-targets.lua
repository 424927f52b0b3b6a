-- wrk's script for the serve benchmarks: each thread walks the request targets of the file
-- given after `--` from its own random offset (scripts/bench-serve.sh, scripts/bench-postgres.sh).
local targets, next_index = {}, 1
function init(args)
  for line in io.lines(args[1]) do targets[#targets + 1] = line end
  next_index = math.random(#targets)
end
function request()
  local target = targets[next_index]
  next_index = next_index % #targets + 1
  return wrk.format("GET", target)
end
