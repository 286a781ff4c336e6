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
// server's provider starts discovery (Discover) and waits for that
// server's probe (bounded by its timeout); so does a query nothing else
// matches.
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
		if _, local := localServers[prov]; local {
			r.waitDiscovery(prov)
		}
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
	r.mu.Lock()
	defer r.mu.Unlock()
	r.mergeProbesLocked()
	all := r.slots
	rank := r.ranker()
	if prov, id, ok := strings.Cut(q, "/"); ok {
		if _, known := r.Provider(prov); known {
			for i := range all {
				if s := &all[i]; s.id() == id && s.provider() == prov {
					m := s.model()
					return m, r.usable(m)
				}
			}
			// Like omp, a known provider prefix scopes the inexact
			// steps to that provider's models.
			if i := r.findInProvider(prov, id, rank); i >= 0 {
				return all[i].model(), nil
			}
		}
	}
	var exact []int
	for i := range all {
		if all[i].id() == q {
			exact = append(exact, i)
		}
	}
	if len(exact) > 0 {
		m := all[rank.best(exact, false)].model()
		return m, r.usable(m)
	}
	var named []int
	for i := range all {
		if strings.EqualFold(all[i].name(), q) && rank.supported(&all[i]) {
			named = append(named, i)
		}
	}
	if len(named) > 0 {
		return all[rank.best(named, false)].model(), nil
	}
	lq := strings.ToLower(q)
	if subs := substringMatches(all, lq, rank.supported); len(subs) > 0 {
		return all[rank.best(subs, true)].model(), nil
	}
	for _, i := range fuzzySearch(all, lq) {
		if rank.supported(&all[i]) {
			return all[i].model(), nil
		}
	}
	return nil, nil
}

// findInProvider matches id by substring, then fuzzily, among one
// provider's usable models; -1 when none matches. r.mu is held.
func (r *Registry) findInProvider(prov, id string, rank *ranker) int {
	var own []int
	for i := range r.slots {
		if s := &r.slots[i]; s.provider() == prov && rank.supported(s) {
			own = append(own, i)
		}
	}
	lq := strings.ToLower(id)
	var subs []int
	for _, i := range own {
		if s := &r.slots[i]; containsFold(s.id(), lq) || containsFold(s.name(), lq) {
			subs = append(subs, i)
		}
	}
	if len(subs) > 0 {
		return rank.best(subs, true)
	}
	for _, i := range fuzzySearch(r.slots, lq) {
		if r.slots[i].provider() == prov && rank.supported(&r.slots[i]) {
			return i
		}
	}
	return -1
}

// usable returns an error when gopi cannot send requests to the model.
func (r *Registry) usable(m *ai.Model) error {
	if ai.HasAPI(m.API) {
		return nil
	}
	return fmt.Errorf("%s/%s uses the %s API, which gopi does not implement yet; choose another model ('gopi models' lists them)", m.Provider, m.ID, m.API)
}

// ranker orders candidate models of r.slots; it caches per-provider and
// per-API facts for one lookup (its maps are made on first use).
type ranker struct {
	r    *Registry
	auth map[string]bool // provider -> has credentials
	apis map[ai.API]bool // API -> implemented
}

func (r *Registry) ranker() *ranker { return &ranker{r: r} }

func (rk *ranker) supported(s *slot) bool {
	api := s.api()
	ok, seen := rk.apis[api]
	if !seen {
		if rk.apis == nil {
			rk.apis = map[ai.API]bool{}
		}
		ok = ai.HasAPI(api)
		rk.apis[api] = ok
	}
	return ok
}

func (rk *ranker) hasAuth(provider string) bool {
	ok, seen := rk.auth[provider]
	if !seen {
		if rk.auth == nil {
			rk.auth = map[string]bool{}
		}
		ok = rk.r.providerHasAuth(provider)
		rk.auth[provider] = ok
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

// best returns the highest-ranked of the candidate slot indexes (see
// Find); byVersion adds the fewest-words and newest-version preferences of
// substring matches.
func (rk *ranker) best(c []int, byVersion bool) int {
	if len(c) == 1 {
		return c[0]
	}
	slots := rk.r.slots
	sort.SliceStable(c, func(i, j int) bool {
		a, b := &slots[c[i]], &slots[c[j]]
		if sa, sb := rk.supported(a), rk.supported(b); sa != sb {
			return sa
		}
		pa, pb := a.provider(), b.provider()
		if ha, hb := rk.hasAuth(pa), rk.hasAuth(pb); ha != hb {
			return ha
		}
		if oa, ob := rk.order(pa), rk.order(pb); oa != ob {
			return oa < ob
		}
		ia, ib := a.id(), b.id()
		if da, db := datedID().MatchString(ia), datedID().MatchString(ib); da != db {
			return !da
		}
		if !byVersion {
			return false
		}
		if wa, wb := words(ia), words(ib); wa != wb {
			return wa < wb
		}
		return naturalLess(ib, ia)
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
	query = strings.TrimSpace(query)
	if query == "" {
		return append([]*ai.Model(nil), r.Models()...)
	}
	r.probesStarted()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.mergeProbesLocked()
	lq := strings.ToLower(query)
	hits := substringMatches(r.slots, lq, nil)
	if len(hits) == 0 {
		hits = fuzzySearch(r.slots, lq)
	}
	out := make([]*ai.Model, len(hits))
	for i, h := range hits {
		out[i] = r.slots[h].model()
	}
	return out
}

// substringMatches returns the indexes of the slots (passing keep, when
// given) whose "provider/id" or name contains the lower-case query,
// ignoring case.
func substringMatches(all []slot, lq string, keep func(*slot) bool) []int {
	var subs []int
	for i := range all {
		s := &all[i]
		// Without a '/' the query cannot span "provider/id": no need to
		// build that string.
		hit := containsFold(s.id(), lq) || containsFold(s.name(), lq) || containsFold(s.provider(), lq)
		if !hit && strings.Contains(lq, "/") {
			hit = containsFold(s.provider()+"/"+s.id(), lq)
		}
		if hit && (keep == nil || keep(s)) {
			subs = append(subs, i)
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

// fuzzySearch ranks slots by fuzzy score of the lower-case query against
// "provider/id" and the name, best first.
func fuzzySearch(all []slot, query string) []int {
	m := fuzzy.NewMatcher(query)
	var sc fuzzy.Scratch
	type hit struct {
		slot  int
		score int
	}
	var hits []hit
	for i := range all {
		s := &all[i]
		best, found := 0, false
		for _, cand := range []string{strings.ToLower(s.provider() + "/" + s.id()), strings.ToLower(s.name())} {
			if score, ok := m.Score(cand, &sc); ok && (!found || score > best) {
				best, found = score, true
			}
		}
		if found {
			hits = append(hits, hit{i, best})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	out := make([]int, len(hits))
	for i, h := range hits {
		out[i] = h.slot
	}
	return out
}
