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
		{"call outside the owner, dropped", Step{Kind: Drop, Values: []Value{Outside}}, false},
		{"call that may touch the state, dropped", Step{Kind: Drop, Values: []Value{Computed}}, true},
		{"return of a call outside the owner", Step{Kind: Return, Values: []Value{Constant, Outside}}, false},
		{"local bound to a call outside the owner", Step{Kind: Declaration, Values: []Value{Outside}}, false},
		{"return of a settled package variable", Step{Kind: Return, Values: []Value{Constant, Settled}}, false},
		{"condition on a settled package variable", Step{Kind: Condition, Values: []Value{Settled}}, false},
		{"return of a settled variable and shared state", Step{Kind: Return, Values: []Value{Settled, Computed}}, true},
	} {
		assert.Equal(t, tc.want, DoesWork(tc.step), tc.name)
	}
}

func TestCallValue(t *testing.T) {
	for _, tc := range []struct {
		name string
		call Call
		want Value
	}{
		{"fmt.Errorf of a constant and an int", Call{Target: Elsewhere, Args: []Value{Constant, Local}}, Outside},
		{"errors.New", Call{Target: Elsewhere, Args: []Value{Constant}}, Outside},
		{"another package's function without arguments", Call{Target: Elsewhere}, Outside},
		{"a function of the owner's package", Call{Target: Owner, Args: []Value{Constant}}, Computed},
		{"a function value or interface method", Call{Target: Unknown}, Computed},
		{"an argument that reads shared state", Call{Target: Elsewhere, Args: []Value{Constant, Computed}}, Computed},
		{"an argument that may point into shared state", Call{Target: Elsewhere, Args: []Value{Local}, Shares: true}, Computed},
		{"an argument that is itself a call outside", Call{Target: Elsewhere, Args: []Value{Outside}}, Outside},
		{"a settled package variable as argument", Call{Target: Elsewhere, Args: []Value{Constant, Settled}}, Outside},
	} {
		assert.Equal(t, tc.want, CallValue(tc.call), tc.name)
	}
}

func TestWorse(t *testing.T) {
	assert.Equal(t, Computed, Worse(Outside, Computed))
	assert.Equal(t, Outside, Worse(Local, Outside))
	assert.Equal(t, Outside, Worse(Outside, Constant))
	assert.Equal(t, Local, Worse(Local, LockAddress))
	assert.Equal(t, Constant, Worse(LockAddress, Constant))
	assert.Equal(t, Settled, Worse(Local, Settled))
	assert.Equal(t, Settled, Worse(Settled, Constant))
	assert.Equal(t, Outside, Worse(Settled, Outside))
	assert.Equal(t, Computed, Worse(Settled, Computed))
}
