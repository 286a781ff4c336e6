package config

import (
	"path/filepath"
	"strings"
)

// MemoryRoots are the directories memory:// reads a project's memory
// files from, in order: gopi's agent directory, then omp's (a lower
// priority source, so an omp user's memories are found):
// <agent dir>/memories/--<cwd with separators as dashes>--.
func MemoryRoots(d Dirs) []string {
	enc := "--" + strings.NewReplacer("/", "-", "\\", "-", ":", "-").Replace(strings.TrimLeft(d.Cwd, "/\\")) + "--"
	var roots []string
	for _, agent := range []string{d.AgentDir, d.OMPAgentDir} {
		if agent != "" {
			roots = append(roots, filepath.Join(agent, "memories", enc))
		}
	}
	return roots
}
