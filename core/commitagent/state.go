package commitagent

import (
	"slices"
	"sync"

	"github.com/gopi-agent/gopi/core/commitgen"
)

// Overview is what git_overview last reported.
type Overview struct {
	Files           []string                 `json:"files"`
	Stat            string                   `json:"stat"`
	Numstat         []commitgen.NumstatEntry `json:"numstat"`
	ScopeCandidates string                   `json:"scopeCandidates"`
	IsWideScope     bool                     `json:"isWideScope"`
	UntrackedFiles  []string                 `json:"untrackedFiles,omitempty"`
	ExcludedFiles   []string                 `json:"excludedFiles,omitempty"`
}

// Proposal is an accepted single commit.
type Proposal struct {
	Message  commitgen.Message
	Warnings []string
}

// ChangelogProposal is the entries to add to (and remove from) the
// [Unreleased] section of one changelog, by category.
type ChangelogProposal struct {
	Path      string              `json:"path"`
	Entries   map[string][]string `json:"entries"`
	Deletions map[string][]string `json:"deletions,omitempty"`
}

// State is what the agent's tools have gathered and accepted. Its
// methods are safe for concurrent use (tools may run side by side).
type State struct {
	mu        sync.Mutex
	overview  *Overview
	proposal  *Proposal
	split     *commitgen.SplitPlan
	changelog []ChangelogProposal
	diffs     map[string]string // git_file_diff's cache, by staged flag and path
}

// Proposal returns the accepted single commit, or nil.
func (s *State) Proposal() *Proposal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.proposal
}

// Split returns the accepted split, or nil.
func (s *State) Split() *commitgen.SplitPlan {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.split
}

// Changelog returns the accepted changelog entries (nil: none given).
func (s *State) Changelog() []ChangelogProposal {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.changelog
}

// missing lists what the agent still has to give: a commit proposal, and
// the changelog entries when needChangelog.
func (s *State) missing(needChangelog bool) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	if s.proposal == nil && s.split == nil {
		out = append(out, "commit proposal (propose_commit or split_commit)")
	}
	if needChangelog && s.changelog == nil {
		out = append(out, "changelog entries (propose_changelog)")
	}
	return out
}

// stagedFiles returns the files of the last staged overview, lock files
// included (a split must place them too), or nil.
func (s *State) stagedFiles() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.overview == nil {
		return nil
	}
	return append(slices.Clone(s.overview.Files), s.overview.ExcludedFiles...)
}
