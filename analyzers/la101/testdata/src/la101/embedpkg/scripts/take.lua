local v = redis.call('get', KEYS[1])
if v == false then
    return redis.call('set', KEYS[1], ARGV[1], 'EX', ARGV[2])
elseif v == ARGV[1] then
    redis.call('expire', KEYS[1], ARGV[2])
    return 'OK'
end
return ''
