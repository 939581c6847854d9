package app

import "example.com/req/mid"

func Serve() { mid.Step(nil) }

func ServeLocked() { mid.Locked(nil) }
