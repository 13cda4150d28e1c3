-- A generated compare-and-delete: every owner checked in a nested if,
-- deeper than Lua's parser (and lockaudit's classifier) goes.
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
if redis.call("GET", KEYS[7]) == ARGV[7] then
if redis.call("GET", KEYS[1]) == ARGV[1] then
if redis.call("GET", KEYS[2]) == ARGV[2] then
if redis.call("GET", KEYS[3]) == ARGV[3] then
if redis.call("GET", KEYS[4]) == ARGV[4] then
if redis.call("GET", KEYS[5]) == ARGV[5] then
if redis.call("GET", KEYS[6]) == ARGV[6] then
return redis.call("DEL", KEYS[1])
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
end
