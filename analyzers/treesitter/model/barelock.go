package model

// BareLock is a lock expression as MatchLock compares it: without a
// leading `&` and an implicit `this->` or `self.`.
func BareLock(toks []string) []string { return stripReceiver(stripAddress(toks)) }
