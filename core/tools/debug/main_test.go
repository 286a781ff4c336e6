package debug

import (
	"os"
	"testing"

	"github.com/gopi-agent/gopi/internal/daptest"
)

func TestMain(m *testing.M) {
	daptest.RunFakeIfAsked()
	os.Exit(m.Run())
}
