//go:build guardlint_never

package locks

func excludedFile() {
	evalMu.Lock()
	defer evalMu.Unlock()
	work()
}
