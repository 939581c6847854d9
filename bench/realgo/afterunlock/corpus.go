// Package afterunlock names the modules whose functions make the
// after-unlock corpus (see bench/realgo/gen/afterunlock.go): importing
// them keeps their pinned versions in this module's build list (and
// go.etcd.io/bbolt/cmd/bbolt/command the requirements of that package, so
// that it loads: the generator fails on a package that does not).
package afterunlock

import (
	_ "github.com/IBM/sarama"
	_ "github.com/VictoriaMetrics/fastcache"
	_ "github.com/allegro/bigcache/v3"
	_ "github.com/bluele/gcache"
	_ "github.com/coocood/freecache"
	_ "github.com/eclipse/paho.mqtt.golang"
	_ "github.com/fsnotify/fsnotify"
	_ "github.com/go-sql-driver/mysql"
	_ "github.com/gocql/gocql"
	_ "github.com/golang/groupcache"
	_ "github.com/gomodule/redigo/redis"
	_ "github.com/gorilla/websocket"
	_ "github.com/hashicorp/go-hclog"
	_ "github.com/hashicorp/go-plugin"
	_ "github.com/hashicorp/golang-lru/v2"
	_ "github.com/hashicorp/yamux"
	_ "github.com/jackc/puddle/v2"
	_ "github.com/jellydator/ttlcache/v3"
	_ "github.com/lib/pq"
	_ "github.com/miekg/dns"
	_ "github.com/muesli/cache2go"
	_ "github.com/nats-io/nats.go"
	_ "github.com/nsqio/go-nsq"
	_ "github.com/panjf2000/ants/v2"
	_ "github.com/patrickmn/go-cache"
	_ "github.com/rabbitmq/amqp091-go"
	_ "github.com/robfig/cron/v3"
	_ "github.com/segmentio/kafka-go"
	_ "github.com/sirupsen/logrus"
	_ "github.com/syndtr/goleveldb/leveldb"
	_ "github.com/tidwall/buntdb"
	_ "github.com/valyala/fasthttp"
	_ "go.etcd.io/bbolt"
	_ "go.etcd.io/bbolt/cmd/bbolt/command"
	_ "go.uber.org/zap"
	_ "golang.org/x/crypto/ssh"
	_ "golang.org/x/sys/unix"
)
