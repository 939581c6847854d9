//go:build !guardlint_never

package locks

func excludedFile() {
	work() // want `invariant excluded-file: .*never acquires it`
}
