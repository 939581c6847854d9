module guardlint.test/guardedby

go 1.26.0

require (
	github.com/golang/groupcache v0.0.0-20241129210726-2c02b8208cf8
	github.com/hashicorp/yamux v0.1.2
	github.com/miekg/dns v1.1.73
	github.com/syndtr/goleveldb v1.0.0
)

require (
	github.com/golang/protobuf v1.5.4 // indirect
	github.com/golang/snappy v0.0.0-20180518054509-2e65f85255db // indirect
	golang.org/x/net v0.57.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	google.golang.org/protobuf v1.33.0 // indirect
)
