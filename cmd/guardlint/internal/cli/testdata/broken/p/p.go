package p

func F() {}
func G() {}
