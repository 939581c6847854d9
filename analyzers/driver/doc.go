// Package driver runs guardlint: the one place that every command adapts,
// the standalone command, go vet, the mutation prover and the
// golangci-lint plugin.
//
// It finds the invariants files (config.go), loads the packages the
// invariants concern and runs the analyzers over them (engine.go), checks
// the C, C++, CUDA and Rust invariants with the tree-sitter front end
// (native.go), fails closed on invariants that no run can reach
// (scope.go), and prints the findings as text, JSON or SARIF (output.go,
// json.go, sarif.go). The exit codes are in exit.go.
package driver
