module guardlint.test/afterunlock

go 1.26.0

require (
	github.com/allegro/bigcache/v3 v3.1.0
	github.com/eclipse/paho.mqtt.golang v1.4.3
	github.com/fsnotify/fsnotify v1.7.0
	github.com/go-sql-driver/mysql v1.8.1
	github.com/gorilla/websocket v1.5.3
	github.com/hashicorp/golang-lru/v2 v2.0.7
	github.com/lib/pq v1.10.9
	github.com/nats-io/nats.go v1.55.0
	github.com/nsqio/go-nsq v1.1.0
	github.com/patrickmn/go-cache v2.1.0+incompatible
	github.com/sirupsen/logrus v1.9.3
	go.etcd.io/bbolt v1.5.0
	go.uber.org/zap v1.27.0
	golang.org/x/crypto v0.57.0
	golang.org/x/sys v0.48.0
)

require (
	filippo.io/edwards25519 v1.1.0 // indirect
	github.com/golang/snappy v0.0.1 // indirect
	github.com/klauspost/compress v1.20.0 // indirect
	github.com/nats-io/nkeys v0.4.16 // indirect
	github.com/nats-io/nuid v1.0.1 // indirect
	go.uber.org/multierr v1.10.0 // indirect
	golang.org/x/net v0.58.0 // indirect
	golang.org/x/sync v0.20.0 // indirect
)
