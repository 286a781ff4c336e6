package docgen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/modes/rpc"
	"github.com/gopi-agent/gopi/core/modes/tui"
)

func TestSpliceReplacesOnlyBetweenMarkers(t *testing.T) {
	t.Parallel()
	doc := "# T\nbefore\n" + Begin("a") + "\nold\nlines\n" + End("a") + "\nafter\n" + Begin("b") + "\n" + End("b") + "\n"
	got, names, err := Splice(doc, map[string]string{"a": "new\n", "b": "x"})
	if err != nil {
		t.Fatal(err)
	}
	want := "# T\nbefore\n" + Begin("a") + "\nnew\n" + End("a") + "\nafter\n" + Begin("b") + "\nx\n" + End("b") + "\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if strings.Join(names, ",") != "a,b" {
		t.Errorf("names %v", names)
	}
	again, _, err := Splice(got, map[string]string{"a": "new\n", "b": "x"})
	if err != nil || again != got {
		t.Errorf("a second splice changed the text (%v):\n%s", err, again)
	}
}

func TestSpliceRefusesBadMarkers(t *testing.T) {
	t.Parallel()
	known := map[string]string{"a": "", "b": ""}
	for name, doc := range map[string]string{
		"unknown":   Begin("zz") + "\n" + End("zz") + "\n",
		"unclosed":  "x\n" + Begin("a") + "\nbody\n",
		"twice":     Begin("a") + "\n" + End("a") + "\n" + Begin("a") + "\n" + End("a") + "\n",
		"stray end": End("a") + "\n",
		"nested":    Begin("a") + "\n" + Begin("b") + "\n" + End("b") + "\n" + End("a") + "\n",
		"malformed": "<!-- BEGIN generated a -->\n" + End("a") + "\n",
	} {
		if _, _, err := Splice(doc, known); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestSyncReportsAndRewritesStaleFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.md", "prose\n"+Begin("one")+"\nstale\n"+End("one")+"\n")
	write("sub/b.md", Begin("two")+"\ntwo\n"+End("two")+"\n")
	write("c.txt", Begin("zz")+"\n") // not Markdown: not read
	sections := map[string]string{"one": "fresh\n", "two": "two\n"}

	stale, err := Sync(dir, sections, false)
	if err != nil || strings.Join(stale, ",") != "a.md" {
		t.Fatalf("check: stale %v, err %v", stale, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.md")); !strings.Contains(string(b), "stale") {
		t.Fatal("a check rewrote the file")
	}
	if _, err := Sync(dir, sections, true); err != nil {
		t.Fatal(err)
	}
	if stale, err := Sync(dir, sections, false); err != nil || len(stale) != 0 {
		t.Fatalf("after the rewrite: stale %v, err %v", stale, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "a.md")); string(b) != "prose\n"+Begin("one")+"\nfresh\n"+End("one")+"\n" {
		t.Fatalf("rewritten:\n%s", b)
	}

	sections["three"] = "3\n"
	if _, err := Sync(dir, sections, false); err == nil || !strings.Contains(err.Error(), "three") {
		t.Errorf("a section with no place: %v", err)
	}
	delete(sections, "three")
	write("d.md", Begin("two")+"\n"+End("two")+"\n")
	if _, err := Sync(dir, sections, false); err == nil || !strings.Contains(err.Error(), "both") {
		t.Errorf("a section in two files: %v", err)
	}
}

func TestCellEscaping(t *testing.T) {
	t.Parallel()
	if got := Text(`a|b *c* _d_ <e> \n PI_NO_TITLE mcp__x`); got != `a\|b \*c\* \_d\_ &lt;e&gt; \\n PI_NO_TITLE mcp\_\_x` {
		t.Errorf("Text: %s", got)
	}
	for in, want := range map[string]string{"": "", "x|y": "`x\\|y`", "a`b": "``a`b``", "`a": "`` `a ``"} {
		if got := Code(in); got != want {
			t.Errorf("Code(%q) = %s, want %s", in, got, want)
		}
	}
	if got := Table([]string{"a", "b"}, [][]string{{"1", "2"}}); got != "| a | b |\n| --- | --- |\n| 1 | 2 |\n" {
		t.Errorf("Table:\n%s", got)
	}
}

func TestFlagsTable(t *testing.T) {
	t.Parallel()
	c := Command{Path: "ast run", Flags: []Flag{{Short: "A", Long: "after-context", Value: "N", Usage: "show N lines"}, {Long: "json"}}}
	if c.SectionName() != "flags:ast-run" || (Command{}).SectionName() != "flags:gopi" {
		t.Errorf("section names %q, %q", c.SectionName(), Command{}.SectionName())
	}
	want := "| flag | meaning |\n| --- | --- |\n| `-A`, `--after-context N` | show N lines |\n| `--json` |  |\n"
	if got := Flags(c); got != want {
		t.Errorf("got\n%s", got)
	}
	if got := Flags(Command{Path: "version"}); got != "No flags.\n" {
		t.Errorf("no flags: %q", got)
	}
}

// The tables come from the code's own tables: every entry is there.
func TestSectionsCoverTheTables(t *testing.T) {
	t.Parallel()
	s := Sections(nil)
	for _, key := range config.Keys() {
		if !strings.Contains(s["settings"], "| `"+key+"` |") {
			t.Errorf("setting %s missing", key)
		}
	}
	if !strings.Contains(s["settings"], "| `retry.maxRetries` | number | `3` |") ||
		!strings.Contains(s["settings"], "| `shellPath` | string | unset |") ||
		!strings.Contains(s["settings"], "| `symbolPreset` | one of `unicode`, `nerd`, `ascii` | `\"unicode\"` |") {
		t.Errorf("settings rows not as expected:\n%s", s["settings"][:400])
	}
	for _, c := range tui.CommandDocs() {
		if !strings.Contains(s["slash-commands"], "`/"+c.Name) {
			t.Errorf("/%s missing", c.Name)
		}
	}
	for _, k := range tui.HotkeyDocs() {
		if !strings.Contains(s["hotkeys"], "| "+Text(k[0])+" |") {
			t.Errorf("key %s missing", k[0])
		}
	}
	for _, n := range rpc.CommandNames() {
		if !strings.Contains(s["rpc-commands"], "`"+n+"`") {
			t.Errorf("RPC command %s missing", n)
		}
	}
	if len(rpc.CommandNames()) < 30 || len(tui.CommandDocs()) < 10 || len(tui.HotkeyDocs()) < 10 {
		t.Error("the code's tables look empty")
	}
}
