package other

// F does not use the gpu package: no requires invariant concerns it.
func F() {}
