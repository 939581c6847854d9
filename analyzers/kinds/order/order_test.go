package order_test

import (
	"testing"

	"github.com/guardlint/guardlint/analyzers/golang/guardconf"
	"github.com/guardlint/guardlint/analyzers/kinds/order"
	"github.com/guardlint/guardlint/analyzers/registry"
	"golang.org/x/tools/go/analysis/analysistest"
)

func TestOrder(t *testing.T) {
	a := order.New(guardconf.New(registry.Files("testdata/order.yaml")))
	analysistest.Run(t, analysistest.TestData(), a, "ord")
}
