// Package app serves requests through api.v1.
package app

import api "example.com/dotted/api.v1"

// Serve handles one request.
func Serve(data []byte) error {
	_, err := api.Step(data)
	return err
}
