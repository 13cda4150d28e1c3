package redis

import "context"

// SentinelClient is a client for a Redis Sentinel.
type SentinelClient struct {
	*baseClient
}

func NewSentinelClient(opt *Options) *SentinelClient { return &SentinelClient{} }

// Set is used in order to set the value of a configuration parameter of a
// monitored master (SENTINEL SET), not the SET command.
func (c *SentinelClient) Set(ctx context.Context, name, option, value string) *StringCmd {
	return &StringCmd{}
}
