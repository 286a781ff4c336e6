package tui

import (
	"context"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/prompt"
)

// gitStatusTimeout bounds the footer's `git status`.
const gitStatusTimeout = 2 * time.Second

// gitMarks reads the working tree's state for the footer, as omp's shows
// it after the branch: "*N" files changed and not staged, "+N" staged,
// "?N" untracked ("" when clean, outside a repository, or when git is
// missing or slow).
func gitMarks(ctx context.Context, dir string) string {
	if dir == "" || gitBranch(dir) == "" {
		return ""
	}
	out, err := prompt.GitPorcelain(ctx, dir, gitStatusTimeout)
	if err != nil {
		return ""
	}
	return porcelainMarks(string(out))
}

// porcelainMarks counts the entries of `git status --porcelain` (v1)
// output: unstaged changes, staged changes and untracked files, written
// as omp writes them ("*2 +1 ?3"; a count of 0 is left out).
func porcelainMarks(out string) string {
	var unstaged, staged, untracked int
	for _, line := range strings.Split(out, "\n") {
		if len(line) < 3 {
			continue
		}
		x, y := line[0], line[1]
		if x == '?' && y == '?' {
			untracked++
			continue
		}
		if x != ' ' && x != '!' {
			staged++
		}
		if y != ' ' && y != '!' {
			unstaged++
		}
	}
	var marks []string
	if unstaged > 0 {
		marks = append(marks, "*"+itoa(unstaged))
	}
	if staged > 0 {
		marks = append(marks, "+"+itoa(staged))
	}
	if untracked > 0 {
		marks = append(marks, "?"+itoa(untracked))
	}
	return strings.Join(marks, " ")
}
