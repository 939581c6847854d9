package gbstale

import "sync"

type T struct {
	mu sync.Mutex
	n  int
	f  int
}
