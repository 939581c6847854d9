package core

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDoesWork(t *testing.T) {
	for _, tc := range []struct {
		name string
		step Step
		want bool
	}{
		{"empty", Step{Kind: Empty}, false},
		{"lock operation", Step{Kind: LockOp}, false},
		{"literal run in place", Step{Kind: Inline}, false},
		{"declaration without a value", Step{Kind: Declaration}, false},
		{"declaration of constants", Step{Kind: Declaration, Values: []Value{Constant, Constant}}, false},
		{"alias of the lock", Step{Kind: Declaration, Values: []Value{LockAddress}}, false},
		{"declaration that reads state", Step{Kind: Declaration, Values: []Value{Constant, Computed}}, true},
		{"deferred call", Step{Kind: Defer}, false},
		{"deferred call with an argument computed now", Step{Kind: Defer, Values: []Value{Computed}}, true},
		{"constant condition", Step{Kind: Condition, Values: []Value{Constant}}, false},
		{"condition", Step{Kind: Condition, Values: []Value{Computed}}, true},
		{"assignment of locals", Step{Kind: Declaration, Values: []Value{Local, Constant}}, false},
		{"return of locals", Step{Kind: Return, Values: []Value{Local, Constant}}, false},
		{"return without results", Step{Kind: Return}, false},
		{"return of shared state", Step{Kind: Return, Values: []Value{Local, Computed}}, true},
		{"condition on parameters", Step{Kind: Condition, Values: []Value{Local}}, false},
		{"anything else", Step{Kind: Other}, true},
	} {
		assert.Equal(t, tc.want, DoesWork(tc.step), tc.name)
	}
}
