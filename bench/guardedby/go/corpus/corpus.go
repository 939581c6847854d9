// Package corpus pins the modules of the guarded_by corpus
// (bench/guardedby/go): its go.mod selects their versions.
package corpus

import (
	_ "github.com/golang/groupcache"
	_ "github.com/hashicorp/yamux"
	_ "github.com/miekg/dns"
	_ "github.com/syndtr/goleveldb/leveldb"
)
