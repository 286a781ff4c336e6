package write

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tool/tooltest"
)

func TestGolden(t *testing.T) { tooltest.RunDir(t, "testdata/golden", New) }

func TestWriteKeepsModeAndInvalidatesScan(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "run.sh")
	os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755)
	env := tool.NewEnv(dir)
	raw, _ := json.Marshal(map[string]string{"path": "run.sh", "content": "#!/bin/sh\necho hi\n"})
	res, err := tool.Run(context.Background(), New(env), raw, nil)
	if err != nil || res.IsError || res.FirstText() != "Updated run.sh (2 lines)" {
		t.Fatalf("%v %v", res.FirstText(), err)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o755 {
		t.Fatal(fi.Mode())
	}
}
