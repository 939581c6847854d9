// Package codec has a versioned import path in the style of
// gopkg.in/yaml.v3, and calls gopkg.in/yaml.v3 itself.
package codec

import (
	"sync"

	"gopkg.in/yaml.v3"
)

// Value is a decoded document.
type Value map[string]any

// mu serialises encoding.
var mu sync.Mutex

// Encode encodes v as YAML.
func Encode(v any) ([]byte, error) {
	mu.Lock()
	defer mu.Unlock()
	return encodeLocked(v)
}

func encodeLocked(v any) ([]byte, error) {
	return yaml.Marshal(v)
}

// Decode decodes YAML into v through a node.
func Decode(data []byte, v any) error {
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return err
	}
	return n.Decode(v)
}

// DecodeString decodes s, a YAML scalar, into v.
func DecodeString(s string, v any) error {
	var n yaml.Node
	n.SetString(s)
	return n.Decode(v)
}
