package commitgen

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"golang.org/x/text/unicode/norm"
)

// The commit agent's checks (omp's agentic validation): what Problems
// says of a message, plus a past-tense first word of the summary and a
// type that fits the files; words to avoid are only warned about, and a
// body over MaxDetails lines is cut to the most important ones.

// pastTense are verbs accepted as the summary's first word besides any
// word ending in "ed".
var pastTense = []string{"built", "made", "ran", "set", "split", "wrote", "kept", "sent", "put", "cut", "shut", "spun", "rewrote", "undid", "rebuilt", "reset"}

// notPastTense are words ending in "ed" that are not verbs.
var notPastTense = []string{"bed", "hundred", "red", "need", "seed", "speed", "feed", "breed"}

// fillerWords and metaPhrases make a summary say less than it seems to.
var (
	fillerWords = []string{"comprehensive", "various", "several", "improved", "enhanced", "better"}
	metaPhrases = []string{"this commit", "this change", "updated code", "modified files"}
)

// NormalizeSummary drops a "type(scope): " the model repeated before the
// summary, composes Unicode (NFC) and collapses runs of white space.
func NormalizeSummary(summary, typ, scope string) string {
	s := strings.TrimSpace(summary)
	for _, prefix := range []string{typ + "(" + scope + "): ", typ + "(" + scope + "):", typ + ": ", typ + ":"} {
		if scope == "" && strings.Contains(prefix, "()") {
			continue
		}
		if rest, ok := strings.CutPrefix(s, prefix); ok {
			s = rest
			break
		}
	}
	return strings.Join(strings.Fields(norm.NFC.String(s)), " ")
}

// SummaryChecks returns what breaks the summary rules (errors) and what
// merely reads badly (warnings).
func SummaryChecks(summary string) (errs, warnings []string) {
	switch {
	case strings.TrimSpace(summary) == "":
		errs = append(errs, "the summary is empty")
	case strings.ContainsAny(summary, "\r\n"):
		errs = append(errs, "the summary is more than one line")
	}
	if n := len([]rune(summary)); n > MaxSummary {
		errs = append(errs, fmt.Sprintf("the summary has %d characters, more than %d", n, MaxSummary))
	}
	if strings.HasSuffix(strings.TrimSpace(summary), ".") {
		errs = append(errs, "the summary ends with a period")
	}
	first := ""
	if f := strings.Fields(summary); len(f) > 0 {
		first = strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' {
				return r
			}
			return -1
		}, strings.ToLower(f[0]))
	}
	if !slices.Contains(pastTense, first) && !(strings.HasSuffix(first, "ed") && !slices.Contains(notPastTense, first)) {
		errs = append(errs, fmt.Sprintf("the summary must start with a verb in the past tense (added, fixed, …), not %q", first))
	}
	lower := strings.ToLower(summary)
	for _, w := range fillerWords {
		if strings.Contains(lower, w) {
			warnings = append(warnings, fmt.Sprintf("the summary uses the filler word %q", w))
		}
	}
	for _, p := range metaPhrases {
		if strings.Contains(lower, p) {
			warnings = append(warnings, fmt.Sprintf("the summary uses the empty phrase %q", p))
		}
	}
	return errs, warnings
}

// ScopeProblems lists what is wrong with a scope (none for an empty one).
func ScopeProblems(scope string) []string {
	if scope == "" {
		return nil
	}
	var out []string
	segs := strings.Split(scope, "/")
	if len(segs) > 2 {
		out = append(out, "the scope has more than two segments")
	}
	for _, s := range segs {
		if !scopeSegment().MatchString(s) {
			out = append(out, fmt.Sprintf("scope segment %q is not lowercase letters, digits, - or _", s))
		}
	}
	return out
}

// DetailProblems lists body lines that are too long or do not end with a
// period.
func DetailProblems(details []string) []string {
	var out []string
	for _, d := range details {
		if n := len([]rune(d)); n > MaxDetail {
			out = append(out, fmt.Sprintf("a detail has %d characters, more than %d: %q", n, MaxDetail, d))
		}
		if !strings.HasSuffix(d, ".") {
			out = append(out, fmt.Sprintf("a detail does not end with a period: %q", d))
		}
	}
	return out
}

// detailWeights rank body lines when there are too many: what a reader
// most needs to know first.
var detailWeights = sync.OnceValue(func() []struct {
	re     *regexp.Regexp
	weight int
} {
	return []struct {
		re     *regexp.Regexp
		weight int
	}{
		{regexp.MustCompile(`security|vulnerab|exploit|cve`), 100},
		{regexp.MustCompile(`breaking|incompatible`), 90},
		{regexp.MustCompile(`performance|optimi[sz]|latency|throughput`), 80},
		{regexp.MustCompile(`bug|fix|crash|panic|regression|failure`), 70},
		{regexp.MustCompile(`api|interface|public|export`), 50},
		{regexp.MustCompile(`user|client|customer`), 40},
		{regexp.MustCompile(`deprecat|removed|delete`), 35},
	}
})

// CapDetails keeps the MaxDetails most important body lines, in their
// order, and says so in a warning when it dropped some.
func CapDetails(details []string) ([]string, []string) {
	if len(details) <= MaxDetails {
		return details, nil
	}
	score := func(d string) int {
		d, n := strings.ToLower(d), 0
		for _, w := range detailWeights() {
			if w.re.MatchString(d) {
				n += w.weight
			}
		}
		return n
	}
	idx := make([]int, len(details))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return score(details[b]) - score(details[a]) })
	keep := idx[:MaxDetails]
	slices.Sort(keep)
	out := make([]string, 0, MaxDetails)
	for _, i := range keep {
		out = append(out, details[i])
	}
	return out, []string{fmt.Sprintf("kept the %d most important of %d details", MaxDetails, len(details))}
}

var (
	docFile = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\.(md|mdx|adoc|rst)$`)
	})
	testFile = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(^|/)(test|tests|__tests__)(/|$)|(_test|\.test|\.spec)\.`)
	})
	perfWords = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`performance|optimi[sz]|latency|throughput|benchmark`)
	})
)

// TypeChecks says whether the files of a commit fit its type: docs
// needs a documentation file, test a test file, ci a CI file, build a
// build file (errors); a refactor that adds files or a perf change with
// no sign of measurement is only warned about.
func TypeChecks(typ string, files []string, diff string, m Message) (errs, warnings []string) {
	has := func(pred func(string) bool) bool {
		return slices.ContainsFunc(files, func(f string) bool { return pred(strings.ToLower(f)) })
	}
	switch typ {
	case "docs":
		if !has(docFile().MatchString) {
			errs = append(errs, "a docs commit must change a documentation file (.md, .mdx, .adoc, .rst)")
		}
	case "test":
		if !has(testFile().MatchString) {
			errs = append(errs, "a test commit must change a test file")
		}
	case "ci":
		if !has(func(f string) bool {
			return strings.HasPrefix(f, ".github/workflows/") || strings.HasPrefix(f, ".gitlab-ci")
		}) {
			errs = append(errs, "a ci commit must change a CI configuration file")
		}
	case "build":
		if !has(func(f string) bool {
			return strings.HasSuffix(f, "cargo.toml") || strings.HasSuffix(f, "package.json") || strings.HasSuffix(f, "makefile")
		}) {
			errs = append(errs, "a build commit must change a build file (Cargo.toml, package.json, Makefile)")
		}
	case "refactor":
		if strings.Contains(diff, "\nnew file mode ") {
			warnings = append(warnings, "a refactor that adds files may be a feat")
		}
	case "perf":
		text := strings.ToLower(m.Summary + " " + strings.Join(m.Details, " "))
		if !has(func(f string) bool { return strings.Contains(f, "bench") || strings.Contains(f, "perf") }) && !perfWords().MatchString(text) {
			warnings = append(warnings, "a perf commit with no benchmark and no word about performance")
		}
	}
	return errs, warnings
}

// CheckProposal applies every rule of the commit agent to m, a commit of
// files out of diff: it normalizes the summary and caps the details, and
// returns the errors (the proposal is refused) and warnings.
func CheckProposal(m *Message, files []string, diff string) (errs, warnings []string) {
	m.Scope = strings.TrimSpace(m.Scope)
	m.Summary = NormalizeSummary(m.Summary, m.Type, m.Scope)
	var capped []string
	m.Details, capped = CapDetails(m.Details)
	if !slices.Contains(Types, m.Type) {
		errs = append(errs, fmt.Sprintf("type %q is not one of %s", m.Type, strings.Join(Types, ", ")))
	}
	e, w := SummaryChecks(m.Summary)
	errs, warnings = append(errs, e...), append(warnings, w...)
	errs = append(errs, ScopeProblems(m.Scope)...)
	errs = append(errs, DetailProblems(m.Details)...)
	e, w = TypeChecks(m.Type, files, diff, *m)
	return append(errs, e...), append(append(warnings, capped...), w...)
}
