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
//  2. an exact id;
//  3. an exact name, case-insensitively;
//  4. a case-insensitive substring of "provider/id" or the name;
//  5. a fuzzy (subsequence) match on "provider/id", best score first.
//
// Several matches of steps 2 to 4 are ranked: models gopi can talk to
// (their API is implemented) first, then providers with credentials, then
// the registry's provider order (first-party APIs first), then undated
// ids, then — for substrings — the id with the fewest words (the plain
// model before its "-lite" or "-preview" variants) and the newest version
// ("claude-opus-4-7" before "claude-opus-4-5"). A query naming a local
// server's provider waits for that server's discovery probe (bounded by
// the probe's timeout); so does a query nothing else matches.
//
// A model whose API gopi does not implement is found only by an exact
// provider/id or id, and then Find returns an error saying so. It returns
// an error listing what to do when nothing matches.
func (r *Registry) Find(query string) (*ai.Model, error) {
	q := strings.TrimSpace(query)
	if q == "" {
		return nil, fmt.Errorf("empty model name; run 'gopi models' to list the models")
	}
	if prov, _, ok := strings.Cut(q, "/"); ok {
		r.waitDiscovery(prov)
	}
	m, err := r.find(q)
	if m == nil && err == nil && r.waitDiscovery("") {
		m, err = r.find(q)
	}
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, fmt.Errorf("no model matches %q; run 'gopi models' to list the models, or add one to %s", q, ModelsFile)
	}
	return m, nil
}

// find runs the lookup steps over the current models; nil, nil means no match.
func (r *Registry) find(q string) (*ai.Model, error) {
	all := r.snapshot()
	rank := r.ranker()
	if prov, id, ok := strings.Cut(q, "/"); ok {
		if _, known := r.Provider(prov); known {
			for _, m := range all {
				if m.Provider == prov && m.ID == id {
					return m, r.usable(m)
				}
			}
			// Like omp, a known provider prefix scopes the inexact
			// steps to that provider's models.
			if m := r.findInProvider(all, prov, id, rank); m != nil {
				return m, nil
			}
		}
	}
	var exact []*ai.Model
	for _, m := range all {
		if m.ID == q {
			exact = append(exact, m)
		}
	}
	if len(exact) == 1 {
		return exact[0], r.usable(exact[0])
	}
	if len(exact) > 0 {
		best := rank.best(exact, false)
		return best, r.usable(best)
	}
	var named []*ai.Model
	for _, m := range all {
		if strings.EqualFold(m.Name, q) && rank.supported(m) {
			named = append(named, m)
		}
	}
	if len(named) > 0 {
		return rank.best(named, false), nil
	}
	lq := strings.ToLower(q)
	if subs := substringMatches(all, lq, rank.supported); len(subs) > 0 {
		return rank.best(subs, true), nil
	}
	for _, m := range fuzzySearch(all, lq) {
		if rank.supported(m) {
			return m, nil
		}
	}
	return nil, nil
}

// findInProvider matches id by substring, then fuzzily, among one
// provider's usable models; nil when none matches.
func (r *Registry) findInProvider(all []*ai.Model, prov, id string, rank *ranker) *ai.Model {
	var own []*ai.Model
	for _, m := range all {
		if m.Provider == prov && rank.supported(m) {
			own = append(own, m)
		}
	}
	lq := strings.ToLower(id)
	var subs []*ai.Model
	for _, m := range own {
		if containsFold(m.ID, lq) || containsFold(m.Name, lq) {
			subs = append(subs, m)
		}
	}
	if len(subs) > 0 {
		return rank.best(subs, true)
	}
	if hits := fuzzySearch(own, lq); len(hits) > 0 {
		return hits[0]
	}
	return nil
}

// usable returns an error when gopi cannot send requests to the model.
func (r *Registry) usable(m *ai.Model) error {
	if ai.HasAPI(m.API) {
		return nil
	}
	return fmt.Errorf("%s/%s uses the %s API, which gopi does not implement yet; choose another model ('gopi models' lists them)", m.Provider, m.ID, m.API)
}

// ranker orders candidate models; it caches per-provider and per-API
// facts for one lookup (its maps are made on first use).
type ranker struct {
	r    *Registry
	auth map[string]bool // provider -> has credentials
	apis map[ai.API]bool // API -> implemented
}

func (r *Registry) ranker() *ranker { return &ranker{r: r} }

func (rk *ranker) supported(m *ai.Model) bool {
	ok, seen := rk.apis[m.API]
	if !seen {
		if rk.apis == nil {
			rk.apis = map[ai.API]bool{}
		}
		ok = ai.HasAPI(m.API)
		rk.apis[m.API] = ok
	}
	return ok
}

func (rk *ranker) hasAuth(m *ai.Model) bool {
	ok, seen := rk.auth[m.Provider]
	if !seen {
		if rk.auth == nil {
			rk.auth = map[string]bool{}
		}
		ok = rk.r.HasAuth(m)
		rk.auth[m.Provider] = ok
	}
	return ok
}

// order is a provider's position in the registry (unknown ones last).
func (rk *ranker) order(provider string) int {
	if p, ok := rk.r.byName[provider]; ok {
		return p.order
	}
	return len(rk.r.providers)
}

// best returns the highest-ranked candidate (see Find); byVersion adds the
// fewest-words and newest-version preferences of substring matches.
func (rk *ranker) best(c []*ai.Model, byVersion bool) *ai.Model {
	sort.SliceStable(c, func(i, j int) bool {
		a, b := c[i], c[j]
		if sa, sb := rk.supported(a), rk.supported(b); sa != sb {
			return sa
		}
		if ha, hb := rk.hasAuth(a), rk.hasAuth(b); ha != hb {
			return ha
		}
		if oa, ob := rk.order(a.Provider), rk.order(b.Provider); oa != ob {
			return oa < ob
		}
		if da, db := datedID().MatchString(a.ID), datedID().MatchString(b.ID); da != db {
			return !da
		}
		if !byVersion {
			return false
		}
		if wa, wb := words(a.ID), words(b.ID); wa != wb {
			return wa < wb
		}
		return naturalLess(b.ID, a.ID)
	})
	return c[0]
}

// words counts the runs of letters in an id ("gemini-2.5-flash-lite": 3).
func words(id string) int {
	n, in := 0, false
	for i := 0; i < len(id); i++ {
		c := id[i] | 0x20
		letter := c >= 'a' && c <= 'z'
		if letter && !in {
			n++
		}
		in = letter
	}
	return n
}

// naturalLess compares strings with digit runs compared as numbers, so
// "4-10" sorts after "4-9".
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		na, ra := leadingRun(a)
		nb, rb := leadingRun(b)
		if isDigit(na[0]) && isDigit(nb[0]) {
			ta, tb := strings.TrimLeft(na, "0"), strings.TrimLeft(nb, "0")
			if len(ta) != len(tb) {
				return len(ta) < len(tb)
			}
			if ta != tb {
				return ta < tb
			}
		} else if na != nb {
			return na < nb
		}
		a, b = ra, rb
	}
	return len(a) < len(b)
}

// leadingRun splits s after its first run of digits or of non-digits.
func leadingRun(s string) (run, rest string) {
	d := isDigit(s[0])
	i := 1
	for i < len(s) && isDigit(s[i]) == d {
		i++
	}
	return s[:i], s[i:]
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// Search returns the models matching a query: those whose "provider/id"
// or name contains it (case-insensitively, in registry order), or when
// none does, those that fuzzy-match it, best first. An empty query returns
// all.
func (r *Registry) Search(query string) []*ai.Model {
	all := r.snapshot()
	query = strings.TrimSpace(query)
	if query == "" {
		return append([]*ai.Model(nil), all...)
	}
	lq := strings.ToLower(query)
	if subs := substringMatches(all, lq, nil); len(subs) > 0 {
		return subs
	}
	return fuzzySearch(all, lq)
}

// substringMatches returns the models (passing keep, when given) whose
// "provider/id" or name contains the lower-case query, ignoring case.
func substringMatches(all []*ai.Model, lq string, keep func(*ai.Model) bool) []*ai.Model {
	var subs []*ai.Model
	for _, m := range all {
		if (containsFold(m.Provider+"/"+m.ID, lq) || containsFold(m.Name, lq)) && (keep == nil || keep(m)) {
			subs = append(subs, m)
		}
	}
	return subs
}

// containsFold reports whether s contains the lower-case lq, ignoring the
// case of ASCII letters in s (other text is lowered first).
func containsFold(s, lq string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return strings.Contains(strings.ToLower(s), lq)
		}
	}
	n := len(lq)
	for i := 0; i+n <= len(s); i++ {
		j := 0
		for ; j < n; j++ {
			c := s[i+j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != lq[j] {
				break
			}
		}
		if j == n {
			return true
		}
	}
	return false
}

// fuzzySearch ranks models by fuzzy score of the lower-case query.
func fuzzySearch(all []*ai.Model, query string) []*ai.Model {
	m := fuzzy.NewMatcher(query)
	var sc fuzzy.Scratch
	type hit struct {
		model *ai.Model
		score int
	}
	var hits []hit
	for _, mod := range all {
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
