// Package secrets keeps secret values out of what is sent to model
// providers and puts them back where the model's tool calls use them.
//
// An Obfuscator is built from the configured entries (config.Secrets:
// environment variables that look like credentials, then secrets.yml).
// Plain entries match their exact value; regex entries match every
// occurrence of their pattern (the JavaScript "g" flag is implied; "i",
// "m" and "s" map to RE2 flags; a /pattern/flags literal is accepted).
//
// Two modes: obfuscate replaces a secret with a placeholder #XXXX# (four
// characters of [A-Z0-9], derived from the value by a hash, so the same
// secret always gets the same placeholder and prompt caches stay warm);
// Restore turns placeholders back into the values, which is how a tool
// call the model writes with a placeholder runs with the real secret.
// replace mode substitutes the entry's replacement, or a string of the
// same length derived from the value, and cannot be undone.
//
// The session applies ObfuscateJSON to the exact JSON body of every
// provider request (the before_provider_request point, after extension
// hooks), so nothing reaches a provider unfiltered whatever part of the
// request it is in: system prompt, user text, tool results, tool call
// arguments, thinking, tool names and descriptions, summaries. Strings
// are rewritten inside the decoded JSON, never in the raw text, so JSON
// escapes cannot hide a secret or be broken by a replacement. Only the
// bytes of real image blocks and the reasoning signatures providers ask
// to get back verbatim are left alone, recognised by their place in the
// request (payload.go); a secret cut across adjacent text blocks is
// found in their joined text.
package secrets

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/config"
)

// placeholderAlphabet is where placeholder characters come from.
const placeholderAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// placeholderRE matches a placeholder.
var placeholderRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`#[A-Z0-9]{4}#`) })

// Obfuscator replaces secrets and restores placeholders. It is safe for
// concurrent use; regex matches get their placeholders as they are met.
type Obfuscator struct {
	plain []plainSecret     // longest value first, so a secret inside another is not cut apart
	regex []regexSecret     // in entry order
	mu    sync.Mutex        // guards the maps (regex matches add to them)
	back  map[string]string // placeholder → value
	fwd   map[string]string // value → placeholder
}

type plainSecret struct {
	value, with string
}

type regexSecret struct {
	re          *regexp.Regexp
	replace     bool   // replace mode (one-way)
	replacement string // fixed replacement; "" derives one per match
}

// New builds an Obfuscator. Entries that cannot be used (a regex that
// does not compile) are left out and reported; the rest still work.
func New(entries []config.SecretEntry) (*Obfuscator, []error) {
	o := &Obfuscator{back: map[string]string{}, fwd: map[string]string{}}
	var errs []error
	seen := map[string]bool{}
	for _, e := range entries {
		switch e.Type {
		case config.SecretRegex:
			re, err := Compile(e.Content, e.Flags)
			if err != nil {
				errs = append(errs, fmt.Errorf("secret pattern %q from %s: %w; it was skipped", e.Content, e.Source, err))
				continue
			}
			o.regex = append(o.regex, regexSecret{re: re, replace: e.Mode == config.SecretReplace, replacement: e.Replacement})
		default:
			if e.Content == "" || seen[e.Content] {
				continue // the first entry for a value wins (environment before files)
			}
			// The value as written, then as it reads inside a string that
			// is itself JSON (OpenAI's tool call arguments, a tool printing
			// a JSON file): quotes, backslashes and control characters
			// escaped, with and without the HTML escapes Go's encoder adds.
			// Each form has its own placeholder, so Restore gives back the
			// text as it was.
			for _, v := range []string{e.Content, jsonEscaped(e.Content, false), jsonEscaped(e.Content, true)} {
				if seen[v] {
					continue
				}
				seen[v] = true
				with := e.Replacement
				switch {
				case e.Mode != config.SecretReplace:
					with = o.placeholder(v)
				case with == "":
					with = sameLength(v)
				}
				o.plain = append(o.plain, plainSecret{value: v, with: with})
			}
		}
	}
	sort.SliceStable(o.plain, func(i, j int) bool { return len(o.plain[i].value) > len(o.plain[j].value) })
	return o, errs
}

// jsonEscaped is s as it appears between the quotes of a JSON string.
func jsonEscaped(s string, html bool) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	if enc.Encode(s) != nil {
		return s
	}
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}

// Empty reports whether there is nothing to hide.
func (o *Obfuscator) Empty() bool { return o == nil || len(o.plain) == 0 && len(o.regex) == 0 }

// Compile compiles a secret pattern with JavaScript-style flags: content
// may be a /pattern/flags literal (flags then come from it). "g" is
// implied and "u", "y", "d" have no RE2 meaning; "i", "m" and "s" become
// RE2 flags.
func Compile(content, flags string) (*regexp.Regexp, error) {
	pattern := content
	if strings.HasPrefix(content, "/") {
		if i := strings.LastIndexByte(content, '/'); i > 0 && isFlags(content[i+1:]) {
			pattern, flags = content[1:i], content[i+1:]
			pattern = strings.ReplaceAll(pattern, `\/`, `/`)
		}
	}
	var re2 string
	for _, f := range flags {
		switch f {
		case 'i', 'm', 's':
			if !strings.ContainsRune(re2, f) {
				re2 += string(f)
			}
		case 'g', 'u', 'y', 'd':
		default:
			return nil, fmt.Errorf("unknown regex flag %q", f)
		}
	}
	if re2 != "" {
		pattern = "(?" + re2 + ")" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	if re.MatchString("") {
		return nil, fmt.Errorf("the pattern matches the empty string")
	}
	return re, nil
}

func isFlags(s string) bool {
	for _, c := range s {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// placeholder returns the placeholder of value, making one (and
// remembering it for Restore) on first sight. Two values whose hashes
// collide get different placeholders: the later one is rehashed.
func (o *Obfuscator) placeholder(value string) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if p, ok := o.fwd[value]; ok {
		return p
	}
	for salt := 0; ; salt++ {
		p := "#" + derive(value, salt, 4) + "#"
		if _, taken := o.back[p]; !taken {
			o.back[p], o.fwd[value] = value, p
			return p
		}
	}
}

// derive returns n characters of placeholderAlphabet from hashes of
// value (SHA-256 blocks numbered from 0, salted).
func derive(value string, salt, n int) string {
	b := make([]byte, 0, n)
	for block := 0; len(b) < n; block++ {
		sum := sha256.Sum256(fmt.Appendf(nil, "%d\x00%d\x00%s", salt, block, value))
		for _, c := range sum {
			if len(b) == n {
				break
			}
			b = append(b, placeholderAlphabet[int(c)%len(placeholderAlphabet)])
		}
	}
	return string(b)
}

// sameLength returns a deterministic string as long as value (in
// characters) that does not reveal it.
func sameLength(value string) string {
	return derive(value, -1, len([]rune(value)))
}

// Obfuscate replaces every secret in s.
func (o *Obfuscator) Obfuscate(s string) string {
	if o.Empty() || s == "" {
		return s
	}
	for _, p := range o.plain {
		if strings.Contains(s, p.value) {
			s = strings.ReplaceAll(s, p.value, p.with)
		}
	}
	for _, r := range o.regex {
		s = r.re.ReplaceAllStringFunc(s, func(m string) string {
			if placeholderRE().MatchString(m) && len(m) == 6 {
				return m // already a placeholder
			}
			switch {
			case !r.replace:
				return o.placeholder(m)
			case r.replacement != "":
				return r.replacement
			default:
				return sameLength(m)
			}
		})
	}
	return s
}

// Restore puts the values back for the placeholders in s.
func (o *Obfuscator) Restore(s string) string {
	if o.Empty() || !strings.Contains(s, "#") {
		return s
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return placeholderRE().ReplaceAllStringFunc(s, func(p string) string {
		if v, ok := o.back[p]; ok {
			return v
		}
		return p
	})
}

// RestoreArgs returns tool arguments with the placeholders in every
// string (keys and values, at any depth) restored. args itself is not
// modified; it is returned as is when nothing changed.
func (o *Obfuscator) RestoreArgs(args map[string]any) map[string]any {
	if o.Empty() || args == nil {
		return args
	}
	v, changed := walk(args, o.Restore)
	if !changed {
		return args
	}
	return v.(map[string]any)
}

// walk applies fn to every string in v (map keys too) and returns the
// result, copying only the containers that change.
func walk(v any, fn func(string) string) (any, bool) {
	switch x := v.(type) {
	case string:
		y := fn(x)
		return y, y != x
	case map[string]any:
		var out map[string]any
		for k, e := range x {
			nk := fn(k)
			ne, changed := walk(e, fn)
			if !changed && nk == k {
				continue
			}
			if out == nil {
				out = maps.Clone(x)
			}
			if nk != k {
				delete(out, k)
			}
			out[nk] = ne
		}
		if out == nil {
			return x, false
		}
		return out, true
	case []any:
		var out []any
		for i, e := range x {
			ne, changed := walk(e, fn)
			if !changed {
				continue
			}
			if out == nil {
				out = slices.Clone(x)
			}
			out[i] = ne
		}
		if out == nil {
			return x, false
		}
		return out, true
	}
	return v, false
}
