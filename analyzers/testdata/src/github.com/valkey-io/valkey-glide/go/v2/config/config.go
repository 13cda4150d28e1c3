// Package config is a stub of github.com/valkey-io/valkey-glide/go/v2/config (v2.5.3).
package config

type NodeAddress struct {
	Host string
	Port int
}

type ClientConfiguration struct {
	addresses []NodeAddress
}

func NewClientConfiguration() *ClientConfiguration { return &ClientConfiguration{} }

func (config *ClientConfiguration) WithAddress(address *NodeAddress) *ClientConfiguration {
	config.addresses = append(config.addresses, *address)
	return config
}

type ClusterClientConfiguration struct{}
