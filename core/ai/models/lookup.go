package models

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/search/fuzzy"
)

// datedID matches ids pinned to a snapshot date ("…-20250514"); lookups
// prefer the undated alias.
var datedID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`-\d{8}$`) })

// ParseModelArg splits "MODEL:LEVEL" into the model query and a thinking
// level when the suffix after the last ':' is a level name; otherwise the
// whole text is the query (ids such as "qwen3:32b" keep their colon).
func ParseModelArg(s string) (query string, level ai.ThinkingLevel, hasLevel bool) {
	if i := strings.LastIndexByte(s, ':'); i > 0 {
		if l, ok := ai.ParseThinkingLevel(s[i+1:]); ok && s[i+1:] != "" {
			return s[:i], l, true
		}
	}
	return s, "", false
}

// Find resolves a model query, trying in order:
//
//  1. "provider/id" with an exact provider and id;
//  2. an exact id (first provider in catalog order);
//  3. an exact name, case-insensitively;
//  4. a case-insensitive substring of "provider/id" or the name, preferring
//     undated ids, then providers with credentials, then catalog order;
//  5. a fuzzy (subsequence) match on "provider/id", best score first.
//
// It returns an error listing close candidates when nothing matches.
func (r *Registry) Find(query string) (*ai.Model, error) {
	q := strings.TrimSpace(query)
	if q == "" {
		return nil, fmt.Errorf("empty model name; run 'gopi models' to list the models")
	}
	if prov, id, ok := strings.Cut(q, "/"); ok {
		if _, known := r.byName[prov]; known {
			for _, m := range r.models {
				if m.Provider == prov && m.ID == id {
					return m, nil
				}
			}
		}
	}
	for _, m := range r.models {
		if m.ID == q {
			return m, nil
		}
	}
	for _, m := range r.models {
		if strings.EqualFold(m.Name, q) {
			return m, nil
		}
	}
	lq := strings.ToLower(q)
	var subs []*ai.Model
	for _, m := range r.models {
		if strings.Contains(strings.ToLower(m.Provider+"/"+m.ID), lq) || strings.Contains(strings.ToLower(m.Name), lq) {
			subs = append(subs, m)
		}
	}
	if len(subs) > 0 {
		sort.SliceStable(subs, func(i, j int) bool {
			di, dj := datedID().MatchString(subs[i].ID), datedID().MatchString(subs[j].ID)
			if di != dj {
				return !di
			}
			ai, aj := r.HasAuth(subs[i]), r.HasAuth(subs[j])
			if ai != aj {
				return ai
			}
			return false
		})
		return subs[0], nil
	}
	if best := r.fuzzySearch(lq); len(best) > 0 {
		return best[0], nil
	}
	return nil, fmt.Errorf("no model matches %q; run 'gopi models' to list the models, or add one to %s", q, ModelsFile)
}

// Search returns the models matching a query: those whose "provider/id"
// or name contains it (case-insensitively, in catalog order), or when none
// does, those that fuzzy-match it, best first. An empty query returns all.
func (r *Registry) Search(query string) []*ai.Model {
	query = strings.TrimSpace(query)
	if query == "" {
		return append([]*ai.Model(nil), r.models...)
	}
	lq := strings.ToLower(query)
	var subs []*ai.Model
	for _, m := range r.models {
		if strings.Contains(strings.ToLower(m.Provider+"/"+m.ID), lq) || strings.Contains(strings.ToLower(m.Name), lq) {
			subs = append(subs, m)
		}
	}
	if len(subs) > 0 {
		return subs
	}
	return r.fuzzySearch(lq)
}

// fuzzySearch ranks models by fuzzy score of the lower-case query.
func (r *Registry) fuzzySearch(query string) []*ai.Model {
	m := fuzzy.NewMatcher(query)
	var sc fuzzy.Scratch
	type hit struct {
		model *ai.Model
		score int
	}
	var hits []hit
	for _, mod := range r.models {
		best, found := 0, false
		for _, cand := range []string{strings.ToLower(mod.Provider + "/" + mod.ID), strings.ToLower(mod.Name)} {
			if s, ok := m.Score(cand, &sc); ok && (!found || s > best) {
				best, found = s, true
			}
		}
		if found {
			hits = append(hits, hit{mod, best})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	out := make([]*ai.Model, len(hits))
	for i, h := range hits {
		out[i] = h.model
	}
	return out
}
