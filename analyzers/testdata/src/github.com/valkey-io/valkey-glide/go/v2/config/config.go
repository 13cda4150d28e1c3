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

func (config *ClusterClientConfiguration) WithCompressionConfiguration(compressionConfig *CompressionConfiguration) *ClusterClientConfiguration {
	return config
}

func (config *ClientConfiguration) WithCompressionConfiguration(compressionConfig *CompressionConfiguration) *ClientConfiguration {
	return config
}

// CompressionBackend is the compression algorithm (compression_config.go).
type CompressionBackend int

const (
	ZSTD CompressionBackend = iota
	LZ4
)

// CompressionConfiguration turns on client-side compression of the values
// SET and friends send.
type CompressionConfiguration struct {
	enabled bool
	backend CompressionBackend
}

func NewCompressionConfiguration() *CompressionConfiguration {
	return &CompressionConfiguration{enabled: true}
}

func (c *CompressionConfiguration) WithEnabled(enabled bool) *CompressionConfiguration {
	c.enabled = enabled
	return c
}

func (c *CompressionConfiguration) WithBackend(backend CompressionBackend) *CompressionConfiguration {
	c.backend = backend
	return c
}
