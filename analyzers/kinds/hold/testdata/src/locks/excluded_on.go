//go:build !guardlint_never

package locks

func excludedFile() { // want `invariant excluded-file: .*never acquires it`
	work()
}
