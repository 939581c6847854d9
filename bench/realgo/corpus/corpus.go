// Package corpus names the modules whose functions make guardlint's real
// Go corpus (see bench/realgo): importing them keeps their pinned versions
// in this module's build list, with what every package of theirs needs
// (the packages imported beside the modules' roots bring the rest).
package corpus

import (
	_ "github.com/hashicorp/golang-lru/v2"
	_ "github.com/nats-io/nats.go"
	_ "github.com/nats-io/nats.go/encoders/protobuf"
	_ "github.com/patrickmn/go-cache"
	_ "go.etcd.io/bbolt"
	_ "go.etcd.io/bbolt/cmd/bbolt/command"
)
