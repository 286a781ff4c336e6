package golden

import (
	"os"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// Archive is a txtar case file: its input sections, which the caller
// reads, and its expected sections, which the Check methods compare with
// the actual output or, under -update, replace with it. Save then writes
// the rewritten archive back.
type Archive struct {
	// Path is the case file's path, named in reports.
	Path string
	*txtar.Archive
	// rewrite is -update as ReadArchive saw it.
	rewrite bool
}

// ReadArchive parses the txtar case file at path, failing the test if it
// cannot.
func ReadArchive(t testing.TB, path string) *Archive {
	t.Helper()
	return readArchive(t, path, *update)
}

func readArchive(t testing.TB, path string, rewrite bool) *Archive {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
		return nil
	}
	return &Archive{Path: path, Archive: ar, rewrite: rewrite}
}

// Section returns the first section called name, or nil.
func (a *Archive) Section(name string) *txtar.File {
	for i := range a.Files {
		if a.Files[i].Name == name {
			return &a.Files[i]
		}
	}
	return nil
}

// Check compares got with the first section called name. A missing
// section is an error; under -update the section is set to got, and
// appended when missing. It reports whether the section matched.
func (a *Archive) Check(t testing.TB, name, got string) bool {
	t.Helper()
	if f := a.Section(name); f != nil {
		return a.CheckFile(t, f, got)
	}
	if a.rewrite {
		a.Files = append(a.Files, txtar.File{Name: name, Data: []byte(got)})
		return true
	}
	t.Errorf("%s has no %s section (go test -update adds it)", a.Path, name)
	return false
}

// CheckFile compares got with the section f of the archive, for cases
// whose expected sections repeat a name (one per call); under -update it
// sets the section's text to got.
func (a *Archive) CheckFile(t testing.TB, f *txtar.File, got string) bool {
	t.Helper()
	if a.rewrite {
		f.Data = []byte(got)
		return true
	}
	if want := string(f.Data); got != want {
		t.Errorf("%s: section %s differs from the output (go test -update rewrites it)\n%s", a.Path, f.Name, Diff(want, got))
		return false
	}
	return true
}

// CheckPrefix compares the sections whose names start with prefix with
// got, keyed by full section name, as a set: a section with no output, an
// output with no section and a different text are errors. Under -update
// those sections are dropped and got appended in name order. It reports
// whether everything matched.
func (a *Archive) CheckPrefix(t testing.TB, prefix string, got map[string]string) bool {
	t.Helper()
	names := make([]string, 0, len(got))
	for name := range got {
		names = append(names, name)
	}
	slices.Sort(names)
	if a.rewrite {
		files := a.Files[:0:0]
		for _, f := range a.Files {
			if !strings.HasPrefix(f.Name, prefix) {
				files = append(files, f)
			}
		}
		for _, name := range names {
			files = append(files, txtar.File{Name: name, Data: []byte(got[name])})
		}
		a.Files = files
		return true
	}
	ok := true
	seen := map[string]bool{}
	for i := range a.Files {
		f := &a.Files[i]
		if !strings.HasPrefix(f.Name, prefix) {
			continue
		}
		seen[f.Name] = true
		g, found := got[f.Name]
		if !found {
			t.Errorf("%s: section %s has no output (go test -update drops it)", a.Path, f.Name)
			ok = false
			continue
		}
		ok = a.CheckFile(t, f, g) && ok
	}
	for _, name := range names {
		if !seen[name] {
			t.Errorf("%s: output %s has no section (go test -update adds it)", a.Path, name)
			ok = false
		}
	}
	return ok
}

// Save writes the archive back to its file under -update; otherwise it
// does nothing.
func (a *Archive) Save(t testing.TB) {
	t.Helper()
	if !a.rewrite {
		return
	}
	if err := os.WriteFile(a.Path, txtar.Format(a.Archive), 0o644); err != nil {
		t.Fatal(err)
	}
}
