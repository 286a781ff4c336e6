package commitgen

import (
	"errors"
	"fmt"
	"strings"
)

// Hunk selector kinds: which of a file's staged changes a commit of a
// split takes.
const (
	HunksAll     = "all"     // the whole file
	HunksIndices = "indices" // the hunks numbered Indices (1-based)
	HunksLines   = "lines"   // the hunks touching lines Start..End of the new file
)

// HunkSelector picks hunks of one file's staged diff.
type HunkSelector struct {
	Type    string `json:"type"`              // HunksAll, HunksIndices or HunksLines
	Indices []int  `json:"indices,omitempty"` // for HunksIndices, 1-based
	Start   int    `json:"start,omitempty"`   // for HunksLines, first line (1-based)
	End     int    `json:"end,omitempty"`     // for HunksLines, last line
}

// String describes the selection as the dry run prints it.
func (h HunkSelector) String() string {
	switch h.Type {
	case HunksIndices:
		s := make([]string, len(h.Indices))
		for i, n := range h.Indices {
			s[i] = fmt.Sprint(n)
		}
		return "hunks " + strings.Join(s, ", ")
	case HunksLines:
		return fmt.Sprintf("lines %d-%d", h.Start, h.End)
	}
	return "all"
}

// Problem says what is wrong with the selector, or "".
func (h HunkSelector) Problem() string {
	switch h.Type {
	case HunksAll:
	case HunksIndices:
		if len(h.Indices) == 0 {
			return "no hunk indices"
		}
		for _, n := range h.Indices {
			if n < 1 {
				return "invalid hunk indices (they count from 1)"
			}
		}
	case HunksLines:
		if h.Start < 1 || h.End < h.Start {
			return "invalid line range"
		}
	default:
		return fmt.Sprintf("unknown hunk selector %q (all, indices or lines)", h.Type)
	}
	return ""
}

// Select returns the hunks of hunks the selector picks.
func (h HunkSelector) Select(hunks []Hunk) []Hunk {
	var out []Hunk
	for _, hk := range hunks {
		switch h.Type {
		case HunksIndices:
			for _, n := range h.Indices {
				if n == hk.Index+1 {
					out = append(out, hk)
					break
				}
			}
		case HunksLines:
			if hk.NewStart <= h.End && hk.NewStart+hk.NewLines-1 >= h.Start {
				out = append(out, hk)
			}
		default:
			out = append(out, hk)
		}
	}
	return out
}

// FileChange is one file's part of a commit of a split.
type FileChange struct {
	Path  string       `json:"path"`
	Hunks HunkSelector `json:"hunks"`
}

// Group is one commit of a split: its message, the changes it takes and
// the groups (0-based) that must be committed before it.
type Group struct {
	Message      Message      `json:"message"`
	Changes      []FileChange `json:"changes"`
	Rationale    string       `json:"rationale,omitempty"`
	Dependencies []int        `json:"dependencies,omitempty"`
}

// Files are the paths the group changes.
func (g Group) Files() []string {
	out := make([]string, len(g.Changes))
	for i, c := range g.Changes {
		out[i] = c.Path
	}
	return out
}

// SplitPlan is a change split into several commits.
type SplitPlan struct {
	Commits  []Group  `json:"commits"`
	Warnings []string `json:"warnings,omitempty"`
}

// ErrCycle is returned by Order for groups that depend on each other.
var ErrCycle = errors.New("the split plan's dependencies form a cycle; no commit order satisfies them")

// Order returns the order to commit groups in: each after the groups it
// depends on, otherwise in the plan's order (Kahn's algorithm with a
// first-in first-out queue). A dependency out of range is an error.
func Order(groups []Group) ([]int, error) {
	n := len(groups)
	indegree := make([]int, n)
	next := make([][]int, n)
	for i, g := range groups {
		seen := map[int]bool{}
		for _, d := range g.Dependencies {
			if d < 0 || d >= n {
				return nil, fmt.Errorf("commit %d depends on commit index %d, which does not exist (indices count from 0)", i+1, d)
			}
			if !seen[d] {
				seen[d] = true
				next[d] = append(next[d], i)
				indegree[i]++
			}
		}
	}
	var queue, order []int
	for i := range n {
		if indegree[i] == 0 {
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		order = append(order, cur)
		for _, j := range next[cur] {
			if indegree[j]--; indegree[j] == 0 {
				queue = append(queue, j)
			}
		}
	}
	if len(order) != n {
		return nil, ErrCycle
	}
	return order, nil
}

// GroupPatch builds the patch that stages a group's changes, from the
// staged diff they were chosen in (see ParseFileDiffs).
func GroupPatch(files map[string]FileDiff, g Group) (string, error) {
	var parts []string
	for _, c := range g.Changes {
		fd, ok := files[c.Path]
		if !ok {
			return "", fmt.Errorf("%s has no staged change", c.Path)
		}
		if c.Hunks.Type == HunksAll || c.Hunks.Type == "" {
			parts = append(parts, fd.Content)
			continue
		}
		if fd.Binary {
			return "", fmt.Errorf("%s is a binary file: it can only be committed whole (hunks: all)", c.Path)
		}
		sel := c.Hunks.Select(fd.Hunks())
		if len(sel) == 0 {
			return "", fmt.Errorf("the selection %s picks no hunk of %s", c.Hunks, c.Path)
		}
		p := []string{fd.Header()}
		for _, h := range sel {
			p = append(p, h.Content)
		}
		parts = append(parts, strings.Join(p, "\n"))
	}
	// Each part ends with exactly the newlines it has (a binary patch
	// needs the blank line after its data), and at least one.
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p)
		if !strings.HasSuffix(p, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String(), nil
}
