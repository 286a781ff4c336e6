package commitgen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// ChangelogName is the file a changelog lives in.
const ChangelogName = "CHANGELOG.md"

// ChangelogCategories are Keep a Changelog's sections, in the order they
// are written.
var ChangelogCategories = []string{"Breaking Changes", "Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}

// MaxChangelogDiff bounds the characters of the diff shown for one
// changelog.
const MaxChangelogDiff = 120_000

// changelogTool is the tool the model answers a changelog request
// through.
const changelogTool = "propose_changelog"

// ChangelogFiles maps each staged file to the nearest CHANGELOG.md at or
// above its directory, up to root (the repository's working tree), and
// returns the changelogs with their files, in the order first met.
// Changelogs themselves are not counted as changes.
func ChangelogFiles(root string, files []string) (paths []string, byPath map[string][]string) {
	byPath = map[string][]string{}
	for _, f := range files {
		if strings.EqualFold(filepath.Base(f), ChangelogName) {
			continue
		}
		dir := filepath.Join(root, filepath.Dir(f))
		for {
			candidate := filepath.Join(dir, ChangelogName)
			if fi, err := os.Stat(candidate); err == nil && fi.Mode().IsRegular() {
				if byPath[candidate] == nil {
					paths = append(paths, candidate)
				}
				byPath[candidate] = append(byPath[candidate], f)
				break
			}
			if dir == filepath.Clean(root) || filepath.Dir(dir) == dir {
				break
			}
			dir = filepath.Dir(dir)
		}
	}
	return paths, byPath
}

// Unreleased is the [Unreleased] section of a changelog.
type Unreleased struct {
	Start, End int                 // its heading's line and the line after it (the next "## " heading, or the end)
	Entries    map[string][]string // its entries by "### " category
}

var unreleasedHeading = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^##\s+\[?Unreleased\]?`)
})

// ErrNoUnreleased is returned by ParseUnreleased for a changelog without
// an [Unreleased] section; such a changelog is left alone.
var ErrNoUnreleased = errors.New("no [Unreleased] section")

// ParseUnreleased finds the [Unreleased] section of a changelog.
func ParseUnreleased(content string) (Unreleased, error) {
	lines := strings.Split(content, "\n")
	u := Unreleased{Start: -1, End: len(lines), Entries: map[string][]string{}}
	for i, l := range lines {
		if unreleasedHeading().MatchString(strings.TrimSpace(l)) {
			u.Start = i
			break
		}
	}
	if u.Start < 0 {
		return u, ErrNoUnreleased
	}
	category := ""
	for i := u.Start + 1; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(l, "## ") {
			u.End = i
			break
		}
		if c, ok := strings.CutPrefix(l, "### "); ok {
			category = strings.TrimSpace(c)
			continue
		}
		t := strings.TrimSpace(l)
		if category == "" || !(strings.HasPrefix(t, "-") || strings.HasPrefix(t, "*")) {
			continue
		}
		if e := strings.TrimSpace(t[1:]); e != "" {
			u.Entries[category] = append(u.Entries[category], e)
		}
	}
	return u, nil
}

// ApplyChangelog merges entries into the [Unreleased] section u of
// content (an entry already there, in any letter case, is not repeated)
// and returns the new content; the section is rewritten with its
// categories in Keep a Changelog's order.
func ApplyChangelog(content string, u Unreleased, entries map[string][]string) string {
	merged := map[string][]string{}
	for c, items := range u.Entries {
		merged[c] = slices.Clone(items)
	}
	for c, items := range entries {
		for _, it := range items {
			if !slices.ContainsFunc(merged[c], func(e string) bool { return strings.EqualFold(e, it) }) {
				merged[c] = append(merged[c], it)
			}
		}
	}
	lines := strings.Split(content, "\n")
	out := slices.Clone(lines[:u.Start+1])
	out = append(out, "")
	order := slices.Clone(ChangelogCategories)
	for c := range merged { // categories of the file's own, after the known ones
		if !slices.Contains(order, c) {
			order = append(order, c)
		}
	}
	slices.Sort(order[len(ChangelogCategories):])
	for _, c := range order {
		if len(merged[c]) == 0 {
			continue
		}
		out = append(out, "### "+c)
		for _, it := range merged[c] {
			out = append(out, "- "+it)
		}
		out = append(out, "")
	}
	// A section running to the end of the file ends with the file's final
	// newline, from the blank line after its last category.
	out = append(out, lines[u.End:]...)
	return strings.Join(out, "\n")
}

// changelogInstructions is the system prompt of a changelog request.
var changelogInstructions = fmt.Sprintf(`You keep a project's changelog in the Keep a Changelog form. From the staged diff you are shown, write the entries a user of the project should read, and answer by calling %s once.

Categories: %s. Breaking Changes is for changes that break existing use, and is rare. Leave a category out when nothing belongs in it; when nothing in the diff matters to a user (refactoring, tests, style, internal tooling, small documentation fixes), call the tool with no entries.

Each entry starts with a verb in the past tense (Added, Fixed, Changed, Removed, …), names the feature, option or behaviour concerned, says what a user notices rather than how the code does it, fits on one or two lines, and has no trailing period and no scope prefix. Do not repeat an entry the changelog already has.`, changelogTool, strings.Join(ChangelogCategories, ", "))

// changelogSchema is the JSON Schema of propose_changelog's arguments.
var changelogSchema = func() string {
	props := make([]string, len(ChangelogCategories))
	for i, c := range ChangelogCategories {
		props[i] = fmt.Sprintf(`%q:{"type":"array","items":{"type":"string"}}`, c)
	}
	return `{"type":"object","properties":{"entries":{"type":"object","properties":{` + strings.Join(props, ",") + `}}},"required":["entries"]}`
}()

// ChangelogInput is what the model is shown for one changelog.
type ChangelogInput struct {
	Path       string              // the changelog
	Package    bool                // it is a package's changelog, not the repository's
	Existing   map[string][]string // its [Unreleased] entries
	Diff, Stat string              // of the staged files it covers
}

// ChangelogEntries asks the model for the entries of one changelog: new
// entries by category, trailing periods dropped, duplicates removed
// (none when nothing is worth a line).
func (g *Generator) ChangelogEntries(ctx context.Context, in ChangelogInput) (map[string][]string, error) {
	var b strings.Builder
	kind := "the repository's changelog"
	if in.Package {
		kind = "the changelog of the package in " + filepath.Dir(in.Path) + ": describe the changes of that package only"
	}
	fmt.Fprintf(&b, "Changelog: %s (%s).\n\n", in.Path, kind)
	if len(in.Existing) > 0 {
		b.WriteString("Entries it already has under [Unreleased]:\n")
		for _, c := range ChangelogCategories {
			for _, e := range in.Existing[c] {
				fmt.Fprintf(&b, "%s: %s\n", c, e)
			}
		}
		b.WriteString("\n")
	}
	diff := in.Diff
	if len(diff) > MaxChangelogDiff {
		diff = diff[:MaxChangelogDiff] + "\n[the diff goes on; cut here]"
	}
	fmt.Fprintf(&b, "Files changed:\n%s\nThe staged diff:\n%s", strings.TrimRight(in.Stat, "\n")+"\n", diff)
	_, raw, err := g.call(ctx, toolRequest{
		system:    changelogInstructions,
		messages:  []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text(b.String())}, Timestamp: time.Now().UnixMilli()}},
		tool:      ai.Tool{Name: changelogTool, Description: "Propose the changelog entries for the staged changes.", Parameters: json.RawMessage(changelogSchema)},
		maxTokens: 1200,
	}, "changelog entries")
	if err != nil {
		return nil, err
	}
	var parsed struct {
		Entries map[string][]string `json:"entries"`
	}
	if err := decode(raw, &parsed, "changelog entries"); err != nil {
		return nil, fmt.Errorf("%s/%s: %w", g.Model.Provider, g.Model.ID, err)
	}
	out := map[string][]string{}
	for c, items := range parsed.Entries {
		for _, it := range items {
			it = strings.TrimSuffix(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(it), "- ")), ".")
			if it != "" && !slices.ContainsFunc(out[c], func(e string) bool { return strings.EqualFold(e, it) }) {
				out[c] = append(out[c], it)
			}
		}
	}
	return out, nil
}

// UpdateChangelogs adds entries for the staged files to the [Unreleased]
// section of the nearest CHANGELOG.md of each (omp's changelog step), and
// stages the changelogs it changed; with dryRun it writes nothing. It
// returns the changelogs it changed (or would change). A changelog without
// an [Unreleased] section, or whose changes the model finds not worth an
// entry, is left alone.
func (g *Generator) UpdateChangelogs(ctx context.Context, repo *Repo, files []string, dryRun bool) ([]string, error) {
	paths, byPath := ChangelogFiles(repo.Dir, files)
	var changed []string
	for _, p := range paths {
		diff, stat, err := repo.StagedDiffOf(ctx, byPath[p])
		if err != nil {
			return changed, err
		}
		if strings.TrimSpace(diff) == "" {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return changed, err
		}
		u, err := ParseUnreleased(string(b))
		if err != nil {
			continue
		}
		entries, err := g.ChangelogEntries(ctx, ChangelogInput{Path: p, Package: filepath.Dir(p) != filepath.Clean(repo.Dir), Existing: u.Entries, Diff: diff, Stat: stat})
		if err != nil {
			return changed, err
		}
		if len(entries) == 0 {
			continue
		}
		if !dryRun {
			if err := atomicfile.WriteFile(p, []byte(ApplyChangelog(string(b), u, entries)), 0o644); err != nil {
				return changed, err
			}
			if err := repo.Stage(ctx, p); err != nil {
				return changed, err
			}
		}
		changed = append(changed, p)
	}
	return changed, nil
}

// RemoveEntries drops from u the entries named in del, by category,
// matching without regard to letter case.
func (u *Unreleased) RemoveEntries(del map[string][]string) {
	for c, items := range u.Entries {
		kept := slices.DeleteFunc(slices.Clone(items), func(e string) bool {
			return slices.ContainsFunc(del[c], func(d string) bool { return strings.EqualFold(d, e) })
		})
		if len(kept) == 0 {
			delete(u.Entries, c)
		} else {
			u.Entries[c] = kept
		}
	}
}

// EditChangelog adds entries to and removes del from the [Unreleased]
// section of the changelog at path, and stages it; with dryRun it writes
// nothing. changed is false for a changelog without an [Unreleased]
// section (left alone).
func (r *Repo) EditChangelog(ctx context.Context, path string, add, del map[string][]string, dryRun bool) (changed bool, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	u, err := ParseUnreleased(string(b))
	if err != nil {
		return false, nil
	}
	u.RemoveEntries(del)
	if dryRun {
		return true, nil
	}
	if err := atomicfile.WriteFile(path, []byte(ApplyChangelog(string(b), u, add)), 0o644); err != nil {
		return false, err
	}
	return true, r.Stage(ctx, path)
}
