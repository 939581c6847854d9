// Package api is versioned in its import path, example.com/dotted/api.v1,
// and calls into codec.v2.
package api

import codec "example.com/dotted/codec.v2"

// Step decodes a request. Its result's type comes from codec.v2, so
// that the export data of this package, which is all go vet shows its
// importers, holds codec.v2 too.
func Step(data []byte) (codec.Value, error) {
	var v codec.Value
	err := codec.Decode(data, &v)
	return v, err
}
