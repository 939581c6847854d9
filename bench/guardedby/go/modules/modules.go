// Package modules names the modules that the guarded_by Go corpus scans
// besides std, in the versions of the rule (the doc comment of
// bench/guardedby/go/gen) that added them: the other corpora read this
// list to leave them out.
package modules

// Scanned are the modules, every package of each, at the versions
// bench/guardedby/go/corpus/go.mod selects.
var Scanned = []string{
	"github.com/golang/groupcache",
	"github.com/hashicorp/yamux",
	"github.com/miekg/dns",
	"github.com/syndtr/goleveldb",
	// The third version of the rule (point 5).
	"github.com/dgraph-io/ristretto/v2",
	"github.com/hashicorp/go-memdb",
	"github.com/hashicorp/mdns",
	"github.com/jackc/pgx/v5",
	"github.com/pion/ice/v4",
	"github.com/redis/rueidis",
	"github.com/VictoriaMetrics/metrics",
	// The fourth version (point 6).
	"github.com/dgraph-io/badger/v4",
	"github.com/golang/glog",
	"github.com/pion/webrtc/v4",
	"github.com/quic-go/quic-go",
}
