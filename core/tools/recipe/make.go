package recipe

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/internal/regularfile"
)

// makefileNames are the makefiles make reads, in its order.
var makefileNames = []string{"Makefile", "makefile", "GNUmakefile"}

var (
	makeTargetName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`) })
	makeTargetHead = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*)\s*:`) })
	makePhony      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\.PHONY\s*:\s*(.*)$`) })
)

// probeMake reads the targets of the project's makefile (needs make on
// PATH). The makefile is read as text, not run: see ParseMakefile.
func probeMake(_ context.Context, p Probe) *Runner {
	if p.lookPath("make") == "" {
		return nil
	}
	path := firstFile(p.Root, makefileNames...)
	if path == "" {
		return nil
	}
	data, err := regularfile.Read(path)
	if err != nil {
		return nil
	}
	return &Runner{ID: RunnerMake, Label: "Make", Prefix: "make", Tasks: ParseMakefile(string(data))}
}

// ParseMakefile lists the targets of a makefile's text in the order they
// first appear: a line "name: …" (not "name := …") defines one, and a
// "## text" on it documents it. When the file declares .PHONY targets,
// those are the tasks (a phony target that is never defined is listed
// after the others) and a documented file target is kept with
// " (file target)" after its text; without .PHONY every target is a task.
func ParseMakefile(text string) []Task {
	type target struct {
		name, doc string
		phony     bool
	}
	var order []*target
	byName := map[string]*target{}
	var phonies []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if m := makePhony().FindStringSubmatch(line); m != nil {
			for _, name := range strings.Fields(m[1]) {
				if makeTargetName().MatchString(name) && !slices.Contains(phonies, name) {
					phonies = append(phonies, name)
				}
			}
		}
		name, doc, ok := makeTarget(line)
		if !ok || byName[name] != nil {
			continue
		}
		t := &target{name: name, doc: doc}
		byName[name] = t
		order = append(order, t)
	}
	for _, name := range phonies {
		if t := byName[name]; t != nil {
			t.phony = true
			continue
		}
		t := &target{name: name, phony: true}
		byName[name] = t
		order = append(order, t)
	}
	var tasks []Task
	for _, t := range order {
		switch {
		case len(phonies) == 0 || t.phony:
			tasks = append(tasks, Task{Name: t.name, Doc: t.doc})
		case t.doc != "":
			tasks = append(tasks, Task{Name: t.name, Doc: t.doc + " (file target)"})
		}
	}
	return tasks
}

// makeTarget recognises a rule line: its target and the "## text" after
// it. Variable assignments (name := …, name ?= …, name += …) are not
// rules.
func makeTarget(line string) (name, doc string, ok bool) {
	m := makeTargetHead().FindStringSubmatchIndex(line)
	if m == nil {
		return "", "", false
	}
	name, rest := line[m[2]:m[3]], line[m[1]:]
	if strings.HasPrefix(rest, "=") || isAssignment(line, name) {
		return "", "", false
	}
	if i := strings.Index(rest, "##"); i >= 0 {
		doc = strings.TrimSpace(rest[i+2:])
	}
	return name, doc, true
}

// isAssignment reports whether line assigns the variable name.
func isAssignment(line, name string) bool {
	rest := strings.TrimLeft(strings.TrimLeft(line, " \t")[len(name):], " \t")
	if rest != "" && strings.ContainsRune(":?+", rune(rest[0])) {
		rest = rest[1:]
	}
	return strings.HasPrefix(rest, "=")
}
