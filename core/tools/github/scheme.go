package github

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// Schemes are the URL schemes Reader serves.
const (
	IssueScheme = "issue"
	PRScheme    = "pr"
)

// refreshTimeout bounds a background refresh of a stale view.
const refreshTimeout = 2 * time.Minute

// Reader serves issue:// and pr:// reads (a tool.SchemeReader): single
// issues and pull requests from the cache, their lists live. It owns the
// background refreshes of stale views; Close stops and waits for them.
type Reader struct {
	gh      *Runner
	cache   diskCache
	enabled bool          // github.cache.enabled
	soft    time.Duration // github.cache.softTtlSec
	hard    time.Duration // github.cache.hardTtlSec
	now     func() time.Time

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	repo     string          // the checkout's owner/repo, once resolved
	scopeMu  sync.Mutex      // held while the credential is asked for, so that it is asked once
	account  string          // the credential's fingerprint, once resolved (credentialScope; under scopeMu)
	inFlight map[string]bool // keys being refreshed
}

// NewReader returns the Reader of the session of env (its directory and
// github.* settings).
func NewReader(env *tool.Env) *Reader {
	g := env.Settings.GitHub
	ctx, cancel := context.WithCancel(context.Background())
	return &Reader{
		gh: &Runner{Dir: env.Cwd}, cache: diskCache{dir: g.CacheDir}, enabled: g.CacheEnabled && g.CacheDir != "",
		soft: g.SoftTTL, hard: g.HardTTL, now: time.Now, ctx: ctx, cancel: cancel, inFlight: map[string]bool{},
	}
}

// Close cancels the background refreshes and waits for them.
func (r *Reader) Close() error {
	r.cancel()
	r.wg.Wait()
	return nil
}

// target is a parsed issue:// or pr:// URL.
type target struct {
	kind     string // IssueScheme or PRScheme
	repo     string // owner/repo; "" is the checkout's
	number   int    // 0 lists
	diff     string // pr only: "" (the view), "list", "all" or a 1-based file index
	comments bool
	query    url.Values
}

// parseTarget reads an issue:// or pr:// URL.
func parseTarget(raw string) (*target, error) {
	scheme, rest, _ := strings.Cut(raw, "://")
	t := &target{kind: strings.ToLower(scheme), comments: true}
	rest, q, _ := strings.Cut(rest, "?")
	vals, err := url.ParseQuery(q)
	if err != nil {
		return nil, tool.Errorf("bad query in %s: %v", raw, err)
	}
	t.query = vals
	if c := vals.Get("comments"); c == "0" || c == "false" {
		t.comments = false
	}
	parts := strings.FieldsFunc(rest, func(r rune) bool { return r == '/' })
	if len(parts) >= 2 && !isNumber(parts[0]) {
		t.repo, parts = parts[0]+"/"+parts[1], parts[2:]
	}
	if len(parts) == 0 {
		return t, nil
	}
	n, err := strconv.Atoi(parts[0])
	if err != nil || n <= 0 {
		return nil, tool.Errorf("%s is not an %s URL: use %s://<number> or %s://<owner>/<repo>/<number>", raw, t.kind, t.kind, t.kind)
	}
	t.number, parts = n, parts[1:]
	switch {
	case len(parts) == 0:
	case t.kind == PRScheme && parts[0] == "diff" && len(parts) == 1:
		t.diff = "list"
	case t.kind == PRScheme && parts[0] == "diff" && len(parts) == 2:
		t.diff = parts[1]
	case t.kind == PRScheme:
		return nil, tool.Errorf("%s names nothing readable: use pr://<number>, pr://<number>/diff, pr://<number>/diff/<i> or pr://<number>/diff/all", raw)
	default:
		return nil, tool.Errorf("%s names nothing readable: use issue://<number>", raw)
	}
	return t, nil
}

// isNumber reports whether s is all digits.
func isNumber(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}

// ReadURI serves one issue:// or pr:// read.
//
// The whole read (every gh call it makes: the repository, the credential,
// the view) is bounded by one gh timeout, so a hanging gh costs that once.
func (r *Reader) ReadURI(ctx context.Context, raw string) (*tool.HostURIContent, error) {
	bound := r.gh.timeout()
	rctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	res, err := r.readURI(rctx, raw)
	if err != nil && ctx.Err() == nil && errors.Is(rctx.Err(), context.DeadlineExceeded) {
		return nil, tool.Errorf("gh did not answer within %s while reading %s and was stopped; check the network and `gh auth status`, then retry.", bound, raw)
	}
	return res, err
}

// readURI is ReadURI within its bound.
func (r *Reader) readURI(ctx context.Context, raw string) (*tool.HostURIContent, error) {
	t, err := parseTarget(raw)
	if err != nil {
		return nil, err
	}
	if t.number == 0 {
		text, err := r.list(ctx, t)
		if err != nil {
			return nil, err
		}
		return &tool.HostURIContent{Content: text, ContentType: "text/markdown"}, nil
	}
	repo := t.repo
	if repo == "" {
		if repo, err = r.checkoutRepo(ctx); err != nil {
			return nil, err
		}
	}
	key, fetch := r.fetcher(t, repo)
	text, err := r.cached(ctx, r.credentialScope(ctx)+" "+key, fetch)
	if err != nil {
		return nil, err
	}
	if t.diff != "" {
		return diffView(raw, t, text)
	}
	return &tool.HostURIContent{Content: text, ContentType: "text/markdown"}, nil
}

// checkoutRepo is the owner/repo of the session's checkout, asked of gh
// once.
func (r *Reader) checkoutRepo(ctx context.Context) (string, error) {
	r.mu.Lock()
	repo := r.repo
	r.mu.Unlock()
	if repo != "" {
		return repo, nil
	}
	repo, err := r.gh.checkoutRepo(ctx)
	if err != nil {
		var te *tool.Error
		if asToolError(err, &te) && te.Msg == msgNoRepo {
			return "", tool.Errorf("This directory is not a GitHub checkout: name the repository, as in issue://<owner>/<repo>/<number>.")
		}
		return "", err
	}
	r.mu.Lock()
	r.repo = repo
	r.mu.Unlock()
	return repo, nil
}

// credentialScope names the GitHub credential gh uses (a hash of its
// token, "anonymous" without one), asked once: cached views are kept per
// credential, so a view fetched with one account's access is never
// served to another.
func (r *Reader) credentialScope(ctx context.Context) string {
	r.scopeMu.Lock()
	defer r.scopeMu.Unlock()
	if r.account == "" {
		r.account = "anonymous"
		if token, err := r.gh.run(ctx, []string{"auth", "token"}, callOpts{repoGiven: true}); err == nil && token != "" {
			sum := sha256.Sum256([]byte(token))
			r.account = "gh:" + hex.EncodeToString(sum[:8])
		}
	}
	return r.account
}

// fetchFunc fetches a view afresh: its text and gh's raw JSON.
type fetchFunc func(ctx context.Context) (text string, raw json.RawMessage, err error)

// fetcher returns the cache key and the fetch of t's view in repo.
func (r *Reader) fetcher(t *target, repo string) (string, fetchFunc) {
	num := strconv.Itoa(t.number)
	if t.diff != "" {
		return "pr-diff " + repo + "#" + num, func(ctx context.Context) (string, json.RawMessage, error) {
			out, err := r.gh.run(ctx, []string{"pr", "diff", num, "--repo", repo}, callOpts{repoGiven: true})
			return out, nil, err
		}
	}
	variant, fields := "plain", issueFieldsNoComments
	switch {
	case t.kind == PRScheme && t.comments:
		variant, fields = "comments", prFields
	case t.kind == PRScheme:
		fields = prFieldsNoComments
	case t.comments:
		variant, fields = "comments", issueFields
	}
	key := t.kind + " " + repo + "#" + num + " " + variant
	return key, func(ctx context.Context) (string, json.RawMessage, error) {
		var raw json.RawMessage
		err := r.gh.runJSON(ctx, []string{t.kind, "view", num, "--repo", repo, "--json", joinFields(fields)}, callOpts{repoGiven: true}, &raw)
		if err != nil {
			return "", nil, err
		}
		if t.kind == PRScheme {
			var d prData
			if err := json.Unmarshal(raw, &d); err != nil {
				return "", nil, tool.Errorf("%s", msgInvalidJSON)
			}
			return renderPR(&d, num, t.comments), raw, nil
		}
		var d issueData
		if err := json.Unmarshal(raw, &d); err != nil {
			return "", nil, tool.Errorf("%s", msgInvalidJSON)
		}
		return renderIssue(&d, num, t.comments), raw, nil
	}
}

// cached serves key from the cache: a fresh entry as it is, a stale one
// (past the soft TTL, within the hard) as it is while a background
// refresh replaces it, anything else fetched now and stored.
func (r *Reader) cached(ctx context.Context, key string, fetch fetchFunc) (string, error) {
	if r.enabled {
		if e, ok := r.cache.get(key); ok {
			age := r.now().Sub(e.FetchedAt)
			switch {
			case age < r.soft:
				return e.Text, nil
			case age < r.hard:
				r.refresh(key, fetch)
				return e.Text, nil
			}
		}
	}
	text, raw, err := fetch(ctx)
	if err != nil {
		return "", err
	}
	if r.enabled {
		r.cache.put(&cacheEntry{Key: key, FetchedAt: r.now(), Text: text, Raw: raw})
	}
	return text, nil
}

// refresh fetches key again in the background, once at a time per key.
func (r *Reader) refresh(key string, fetch fetchFunc) {
	r.mu.Lock()
	if r.inFlight[key] || r.ctx.Err() != nil {
		r.mu.Unlock()
		return
	}
	r.inFlight[key] = true
	r.wg.Add(1)
	r.mu.Unlock()
	go func() {
		defer r.wg.Done()
		defer func() {
			r.mu.Lock()
			delete(r.inFlight, key)
			r.mu.Unlock()
		}()
		ctx, cancel := context.WithTimeout(r.ctx, refreshTimeout)
		defer cancel()
		if text, raw, err := fetch(ctx); err == nil {
			r.cache.put(&cacheEntry{Key: key, FetchedAt: r.now(), Text: text, Raw: raw})
		}
	}()
}

// Wait blocks until the background refreshes started so far are done
// (tests; Close also waits).
func (r *Reader) Wait() { r.wg.Wait() }
