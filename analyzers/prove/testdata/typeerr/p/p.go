package p

func F() int { return "not an int" }
