// Package corpus names the modules whose functions make guardlint's real
// Go corpus (see bench/realgo): importing them keeps their pinned versions
// in this module's build list.
package corpus

import (
	_ "github.com/hashicorp/golang-lru/v2"
	_ "github.com/nats-io/nats.go"
	_ "github.com/patrickmn/go-cache"
	_ "go.etcd.io/bbolt"
)
