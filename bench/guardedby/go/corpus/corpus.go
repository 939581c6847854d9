// Package corpus pins the modules of the guarded_by corpus
// (bench/guardedby/go): its go.mod selects their versions.
package corpus

import (
	_ "github.com/VictoriaMetrics/metrics"
	_ "github.com/dgraph-io/badger/v4"
	_ "github.com/dgraph-io/ristretto/v2"
	_ "github.com/golang/glog"
	_ "github.com/golang/groupcache"
	_ "github.com/hashicorp/go-memdb"
	_ "github.com/hashicorp/mdns"
	_ "github.com/hashicorp/yamux"
	_ "github.com/jackc/pgx/v5"
	_ "github.com/miekg/dns"
	_ "github.com/pion/ice/v4"
	_ "github.com/pion/webrtc/v4"
	_ "github.com/quic-go/quic-go"
	_ "github.com/redis/rueidis"
	_ "github.com/syndtr/goleveldb/leveldb"
)
