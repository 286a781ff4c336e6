package auth

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/auth/oauth"
)

// fakeProvider is an oauth.Provider whose refresh the test scripts.
type fakeProvider struct {
	id      string
	calls   atomic.Int32
	refresh func(context.Context, oauth.Credentials) (oauth.Credentials, error)
	base    string
}

func (p *fakeProvider) ID() string   { return p.id }
func (p *fakeProvider) Name() string { return "Fake " + p.id }
func (p *fakeProvider) Login(context.Context, oauth.UI) (oauth.Credentials, error) {
	return oauth.Credentials{}, errors.New("not in this test")
}
func (p *fakeProvider) Refresh(ctx context.Context, c oauth.Credentials) (oauth.Credentials, error) {
	p.calls.Add(1)
	return p.refresh(ctx, c)
}
func (p *fakeProvider) APIKey(c oauth.Credentials) string { return "key:" + c.Access }

// withBase is a fakeProvider that names a base URL.
type withBase struct{ *fakeProvider }

func (p withBase) BaseURL(c oauth.Credentials) string { return p.base }

// clock is a settable test clock.
var testNow = time.UnixMilli(1_800_000_000_000)

func providers(ps ...oauth.Provider) func(string) (oauth.Provider, bool) { return Lookup(ps) }

// copyFixture copies the omp-made agent.db into a temporary directory.
func copyFixture(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("testdata/omp/agent.db")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "omp", "agent.db")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func newStore(t *testing.T, o Options) *Store {
	t.Helper()
	if o.Now == nil {
		o.Now = func() time.Time { return testNow }
	}
	return New(o)
}

// ownRows reads rows of the store's own agent.db.
func ownRows(t *testing.T, s *Store, where string, all bool) []row {
	t.Helper()
	db, err := s.own(context.Background(), false)
	if err != nil || db == nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.query(context.Background(), where, all)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// rawDB opens a database file directly, as another program would.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestOMPFixtureSignInUsedWithoutLogin(t *testing.T) {
	omp := copyFixture(t)
	s := newStore(t, Options{Path: filepath.Join(t.TempDir(), "gopi", "agent.db"), OMPPath: omp})
	// Row 1 is valid, row 2 expired (and gopi has no flow to refresh it
	// here): every call ends on row 1, whichever the round-robin starts at.
	for i := 0; i < 3; i++ {
		key, base, src, err := s.Resolve(context.Background(), "anthropic", "")
		if key != "sk-ant-oat01-fixture-access-token" || base != "" || src != SourceOMP {
			t.Fatalf("call %d: %q %q %q %v", i, key, base, src, err)
		}
	}
	if got := s.Stored("anthropic"); got != SourceOMP {
		t.Fatalf("Stored = %q", got)
	}
	if got := s.Stored("groq"); got != "" {
		t.Fatalf("a soft-deleted row counts: %q", got)
	}
	if _, err := os.Stat(s.Path()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("reading created gopi's agent.db: %v", err)
	}
}

func TestRoundRobinAPIKeys(t *testing.T) {
	s := newStore(t, Options{OMPPath: copyFixture(t)})
	var got []string
	for i := 0; i < 4; i++ {
		k, _, _, err := s.Resolve(context.Background(), "openai", "")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, k)
	}
	want := "sk-fixture-openai-one sk-fixture-openai-two sk-fixture-openai-one sk-fixture-openai-two"
	if strings.Join(got, " ") != want {
		t.Fatalf("got %v", got)
	}
}

func TestGopiDBBeforeOMPAndCreatedPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "agent")
	path := filepath.Join(dir, DBFile)
	s := newStore(t, Options{Path: path, OMPPath: copyFixture(t)})
	ctx := context.Background()
	if err := s.Save(ctx, "openai", APIKey("sk-gopi"), false); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if k, _, src, _ := s.Resolve(ctx, "openai", ""); k != "sk-gopi" || src != SourceGopi {
			t.Fatalf("%q %q", k, src)
		}
	}
	for p, want := range map[string]os.FileMode{path: 0o600, dir: 0o700} {
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm() != want {
			t.Fatalf("%s: %v %v", p, fi.Mode(), err)
		}
	}
	var version int
	if err := rawDB(t, path).QueryRow("SELECT version FROM auth_schema_version WHERE id = 1").Scan(&version); err != nil || version != SchemaVersion {
		t.Fatal(version, err)
	}
	// A second key joins the first with add, and replaces both without.
	if err := s.Save(ctx, "openai", APIKey("sk-gopi-2"), true); err != nil {
		t.Fatal(err)
	}
	a, _, _, _ := s.Resolve(ctx, "openai", "")
	b, _, _, _ := s.Resolve(ctx, "openai", "")
	if a != "sk-gopi" || b != "sk-gopi-2" {
		t.Fatal(a, b)
	}
	if err := s.Save(ctx, "openai", APIKey("sk-gopi-3"), false); err != nil {
		t.Fatal(err)
	}
	rows := ownRows(t, s, "provider = 'openai'", true)
	var causes []string
	for _, r := range rows {
		causes = append(causes, r.cred.Key+"="+r.disabled)
	}
	if strings.Join(causes, ",") != "sk-gopi=replaced by newer credential,sk-gopi-2=replaced by newer credential,sk-gopi-3=" {
		t.Fatal(causes)
	}
}

func TestLogoutSoftDeletes(t *testing.T) {
	path := filepath.Join(t.TempDir(), DBFile)
	omp := copyFixture(t)
	s := newStore(t, Options{Path: path, OMPPath: omp})
	ctx := context.Background()
	if err := s.Save(ctx, "anthropic", OAuth(oauth.Credentials{Access: "a", Refresh: "r", Expires: testNow.Add(time.Hour).UnixMilli(), Email: "me@example.com"}), false); err != nil {
		t.Fatal(err)
	}
	n, err := s.Logout(ctx, "anthropic")
	if err != nil || n != 1 {
		t.Fatal(n, err)
	}
	var cause string
	if err := rawDB(t, path).QueryRow("SELECT disabled_cause FROM auth_credentials WHERE provider = 'anthropic'").Scan(&cause); err != nil || cause != "deleted by user" {
		t.Fatalf("%q %v", cause, err)
	}
	if n, _ := s.Logout(ctx, "anthropic"); n != 0 {
		t.Fatal("second logout found", n)
	}
	// omp's sign-in is still there, and said so.
	if got := s.Elsewhere("anthropic"); len(got) != 1 || got[0] != omp {
		t.Fatal(got)
	}
	if _, _, src, _ := s.Resolve(ctx, "anthropic", ""); src != SourceOMP {
		t.Fatal(src)
	}
}

func TestCorruptDBIsReportedAndKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), DBFile)
	junk := bytes.Repeat([]byte("not a database "), 400)
	if err := os.WriteFile(path, junk, 0o600); err != nil {
		t.Fatal(err)
	}
	s := newStore(t, Options{Path: path})
	_, _, _, err := s.Resolve(context.Background(), "anthropic", "")
	var de *DBError
	if !errors.As(err, &de) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "move it aside") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("%v", err)
	}
	if err := s.Save(context.Background(), "openai", APIKey("k"), false); err == nil {
		t.Fatal("saved into a corrupt file")
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, junk) {
		t.Fatal("the corrupt file was changed")
	}
}

func TestNewerSchemaIsReportedAndKept(t *testing.T) {
	path := filepath.Join(t.TempDir(), DBFile)
	s := newStore(t, Options{Path: path})
	if err := s.Save(context.Background(), "openai", APIKey("k"), false); err != nil {
		t.Fatal(err)
	}
	raw := rawDB(t, path)
	if _, err := raw.Exec("UPDATE auth_schema_version SET version = 5"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	before, _ := os.ReadFile(path)
	s2 := newStore(t, Options{Path: path})
	_, _, _, err := s2.Resolve(context.Background(), "openai", "")
	if err == nil || !strings.Contains(err.Error(), "version 5") || !strings.Contains(err.Error(), "upgrade gopi") {
		t.Fatalf("%v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("the newer file was changed")
	}
}

func TestLockedDBIsReported(t *testing.T) {
	path := filepath.Join(t.TempDir(), DBFile)
	s := newStore(t, Options{Path: path, BusyTimeout: 20 * time.Millisecond})
	if err := s.Save(context.Background(), "openai", APIKey("k"), false); err != nil {
		t.Fatal(err)
	}
	other := rawDB(t, path)
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	err = s.Save(context.Background(), "openai", APIKey("k2"), false)
	if err == nil || !strings.Contains(err.Error(), "locked by another process") || !strings.Contains(err.Error(), path) {
		t.Fatalf("%v", err)
	}
	conn.ExecContext(context.Background(), "ROLLBACK")
	// Reading goes on while another process writes (WAL).
	if k, _, _, err := s.Resolve(context.Background(), "openai", ""); k != "k" || err != nil {
		t.Fatal(k, err)
	}
}

// expiredSignIn stores a sign-in that lapses within the refresh buffer.
func expiredSignIn(t *testing.T, s *Store, provider string) {
	t.Helper()
	c := oauth.Credentials{Access: "old-access", Refresh: "old-refresh", Expires: testNow.Add(oauth.RefreshBuffer - time.Second).UnixMilli(), Email: "me@example.com", ProjectID: "proj"}
	if err := s.Save(context.Background(), provider, OAuth(c), false); err != nil {
		t.Fatal(err)
	}
}

func TestRefreshOnceUnderConcurrency(t *testing.T) {
	release := make(chan struct{})
	p := &fakeProvider{id: "anthropic", refresh: func(ctx context.Context, c oauth.Credentials) (oauth.Credentials, error) {
		<-release
		if c.Refresh != "old-refresh" {
			return oauth.Credentials{}, errors.New("invalid_grant: refresh token reused")
		}
		return oauth.Credentials{Access: "new-access", Refresh: "new-refresh", Expires: testNow.Add(time.Hour).UnixMilli()}, nil
	}}
	path := filepath.Join(t.TempDir(), DBFile)
	s := newStore(t, Options{Path: path, Providers: providers(p)})
	expiredSignIn(t, s, "anthropic")
	const n = 16
	var wg sync.WaitGroup
	keys := make([]string, n)
	errs := make([]error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			keys[i], _, _, errs[i] = s.Resolve(context.Background(), "anthropic", "")
		}(i)
	}
	close(release)
	wg.Wait()
	for i := range keys {
		if keys[i] != "key:new-access" || errs[i] != nil {
			t.Fatalf("caller %d: %q %v", i, keys[i], errs[i])
		}
	}
	if c := p.calls.Load(); c != 1 {
		t.Fatalf("%d refreshes", c)
	}
	// Stored back, with what the refresh did not return kept.
	rows := ownRows(t, s, "provider = 'anthropic'", false)
	if len(rows) != 1 || rows[0].cred.OAuth.Access != "new-access" || rows[0].cred.OAuth.Refresh != "new-refresh" || rows[0].cred.OAuth.Email != "me@example.com" || rows[0].cred.OAuth.ProjectID != "proj" {
		t.Fatalf("%+v", rows)
	}
}

func TestSecondProcessUsesTheFirstOnesRefresh(t *testing.T) {
	path := filepath.Join(t.TempDir(), DBFile)
	refreshed := &fakeProvider{id: "anthropic", refresh: func(context.Context, oauth.Credentials) (oauth.Credentials, error) {
		return oauth.Credentials{Access: "new-access", Refresh: "new-refresh", Expires: testNow.Add(time.Hour).UnixMilli()}, nil
	}}
	refused := &fakeProvider{id: "anthropic", refresh: func(context.Context, oauth.Credentials) (oauth.Credentials, error) {
		return oauth.Credentials{}, errors.New("invalid_grant")
	}}
	a := newStore(t, Options{Path: path, Providers: providers(refreshed)})
	b := newStore(t, Options{Path: path, Providers: providers(refused)})
	expiredSignIn(t, a, "anthropic")
	// b read the row before a refreshed it …
	stale, err := b.own(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer stale.Close()
	rows, _ := stale.active(context.Background(), "anthropic")
	if k, _, _, err := a.Resolve(context.Background(), "anthropic", ""); k != "key:new-access" || err != nil {
		t.Fatal(k, err)
	}
	// … and its refresh, under the lock, finds the new tokens instead of
	// spending the rotated refresh token.
	c, err := b.refreshOnce(context.Background(), stale, "anthropic", rows[0], false)
	if err != nil || c.Access != "new-access" || refused.calls.Load() != 0 {
		t.Fatal(c, err, refused.calls.Load())
	}
}

func TestRefusedRefreshIsReportedOnceAndSoftDeletes(t *testing.T) {
	p := &fakeProvider{id: "anthropic", refresh: func(context.Context, oauth.Credentials) (oauth.Credentials, error) {
		return oauth.Credentials{}, errors.New(`token endpoint: 400 {"error":"invalid_grant"}`)
	}}
	path := filepath.Join(t.TempDir(), DBFile)
	s := newStore(t, Options{Path: path, Providers: providers(p)})
	expiredSignIn(t, s, "anthropic")
	_, _, _, err := s.Resolve(context.Background(), "anthropic", "")
	var re *RefreshError
	if !errors.As(err, &re) || !re.Disabled || !strings.Contains(err.Error(), "run `gopi login anthropic`") || strings.Contains(err.Error(), "old-refresh") {
		t.Fatalf("%v", err)
	}
	if k, _, _, err := s.Resolve(context.Background(), "anthropic", ""); k != "" || err != nil {
		t.Fatalf("reported twice: %q %v", k, err)
	}
	var cause string
	rawDB(t, path).QueryRow("SELECT disabled_cause FROM auth_credentials").Scan(&cause)
	if !strings.HasPrefix(cause, "oauth refresh failed: ") {
		t.Fatal(cause)
	}
}

func TestPassingRefreshFailureBlocksForAWhile(t *testing.T) {
	now := testNow
	p := &fakeProvider{id: "anthropic", refresh: func(context.Context, oauth.Credentials) (oauth.Credentials, error) {
		return oauth.Credentials{}, errors.New("token endpoint: 503 Service Unavailable")
	}}
	s := newStore(t, Options{Path: filepath.Join(t.TempDir(), DBFile), Providers: providers(p), Now: func() time.Time { return now }})
	expiredSignIn(t, s, "anthropic")
	if _, _, _, err := s.Resolve(context.Background(), "anthropic", ""); err == nil {
		t.Fatal("no error")
	}
	if _, _, _, err := s.Resolve(context.Background(), "anthropic", ""); err != nil || p.calls.Load() != 1 {
		t.Fatal("tried again at once", err, p.calls.Load())
	}
	now = now.Add(transientBlock)
	s.Resolve(context.Background(), "anthropic", "")
	if p.calls.Load() != 2 {
		t.Fatal("not tried after the block", p.calls.Load())
	}
}

func TestRefreshWritesBackToOMPAndNamesBaseURL(t *testing.T) {
	omp := copyFixture(t)
	// Expire omp's valid sign-in, then refresh it through gopi.
	raw := rawDB(t, omp)
	if _, err := raw.Exec(`UPDATE auth_credentials SET data = json_set(data, '$.expires', ?) WHERE id = 1`, testNow.UnixMilli()); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`UPDATE auth_credentials SET disabled_cause = 'test' WHERE id = 2`); err != nil {
		t.Fatal(err)
	}
	p := withBase{&fakeProvider{id: "anthropic", base: "https://api.example.test", refresh: func(_ context.Context, c oauth.Credentials) (oauth.Credentials, error) {
		if c.Refresh != "sk-ant-ort01-fixture-refresh-token" {
			return oauth.Credentials{}, fmt.Errorf("unexpected refresh token")
		}
		return oauth.Credentials{Access: "rotated-access", Refresh: "rotated-refresh", Expires: testNow.Add(time.Hour).UnixMilli()}, nil
	}}}
	s := newStore(t, Options{Path: filepath.Join(t.TempDir(), DBFile), OMPPath: omp, Providers: providers(p)})
	key, base, src, err := s.Resolve(context.Background(), "anthropic", "")
	if key != "key:rotated-access" || base != "https://api.example.test" || src != SourceOMP || err != nil {
		t.Fatal(key, base, src, err)
	}
	var data, identity string
	if err := raw.QueryRow("SELECT data, identity_key FROM auth_credentials WHERE id = 1").Scan(&data, &identity); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(data, `"refresh":"rotated-refresh"`) || !strings.Contains(data, `"email":"Omp.User@Example.com"`) || identity != "email:omp.user@example.com" {
		t.Fatal(data, identity)
	}
}

func TestMigratesAnOlderOwnSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), DBFile)
	raw := rawDB(t, path)
	for _, s := range []string{
		`CREATE TABLE auth_credentials (id INTEGER PRIMARY KEY AUTOINCREMENT, provider TEXT NOT NULL, credential_type TEXT NOT NULL, data TEXT NOT NULL, disabled INTEGER DEFAULT 0, created_at INTEGER NOT NULL DEFAULT 0, updated_at INTEGER NOT NULL DEFAULT 0)`,
		`INSERT INTO auth_credentials (provider, credential_type, data, disabled) VALUES ('openai', 'api_key', '{"key":"old"}', 1), ('openai', 'api_key', '{"key":"kept"}', 0), ('anthropic', 'oauth', '{"access":"a","refresh":"r","expires":0,"email":"X@Y.Z"}', 0)`,
	} {
		if _, err := raw.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	s := newStore(t, Options{Path: path})
	if k, _, _, err := s.Resolve(context.Background(), "openai", ""); k != "kept" || err != nil {
		t.Fatal(k, err)
	}
	raw = rawDB(t, path)
	var version int
	var cause, identity sql.NullString
	raw.QueryRow("SELECT version FROM auth_schema_version").Scan(&version)
	raw.QueryRow("SELECT disabled_cause FROM auth_credentials WHERE id = 1").Scan(&cause)
	raw.QueryRow("SELECT identity_key FROM auth_credentials WHERE id = 3").Scan(&identity)
	if version != SchemaVersion || cause.String != "disabled" || identity.String != "email:x@y.z" {
		t.Fatal(version, cause, identity)
	}
}

func TestStatusShowsNoSecrets(t *testing.T) {
	s := newStore(t, Options{OMPPath: copyFixture(t)})
	entries, err := s.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, e := range entries {
		lines = append(lines, fmt.Sprintf("%s %s %s %d %s", e.Source, e.Provider, e.Kind, e.Expires.UnixMilli(), e.Fingerprint))
	}
	got := strings.Join(lines, "\n")
	want := strings.Join([]string{
		"omp agent.db anthropic oauth 9999999999999 " + Fingerprint("sk-ant-ort01-fixture-refresh-token"),
		"omp agent.db anthropic oauth 1000000000000 " + Fingerprint("sk-ant-ort01-expired-refresh-token"),
		"omp agent.db openai api_key " + fmt.Sprint(time.Time{}.UnixMilli()) + " " + Fingerprint("sk-fixture-openai-one"),
		"omp agent.db openai api_key " + fmt.Sprint(time.Time{}.UnixMilli()) + " " + Fingerprint("sk-fixture-openai-two"),
	}, "\n")
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if strings.Contains(got, "sk-") || len(Fingerprint("x")) != 8 {
		t.Fatal("a secret shows")
	}
}

func TestSessionKeepsToOneKey(t *testing.T) {
	s := newStore(t, Options{OMPPath: copyFixture(t)})
	ctx := context.Background()
	seen := map[string]string{}
	for _, session := range []string{"s1", "s2", "s3", "s4", "s5", "s6"} {
		first, _, _, _ := s.Resolve(ctx, "openai", session)
		for i := 0; i < 3; i++ {
			if k, _, _, _ := s.Resolve(ctx, "openai", session); k != first {
				t.Fatalf("session %s moved from %s to %s", session, first, k)
			}
		}
		seen[first] = session
	}
	if len(seen) != 2 {
		t.Fatalf("sessions all on one key: %v", seen)
	}
}

// Two stores on one file stand for two gopi processes: they share no
// memory, only agent.db and its lock. The token endpoint rotates refresh
// tokens, so a second refresh with the old one would be refused.
func TestTwoProcessesRefreshOnce(t *testing.T) {
	var mu sync.Mutex
	live, issued := "old-refresh", 0
	endpoint := func(_ context.Context, c oauth.Credentials) (oauth.Credentials, error) {
		mu.Lock()
		defer mu.Unlock()
		if c.Refresh != live {
			return oauth.Credentials{}, errors.New("invalid_grant")
		}
		issued++
		live = fmt.Sprintf("refresh-%d", issued)
		return oauth.Credentials{Access: fmt.Sprintf("access-%d", issued), Refresh: live, Expires: testNow.Add(time.Hour).UnixMilli()}, nil
	}
	path := filepath.Join(t.TempDir(), DBFile)
	a := newStore(t, Options{Path: path, Providers: providers(&fakeProvider{id: "anthropic", refresh: endpoint})})
	b := newStore(t, Options{Path: path, Providers: providers(&fakeProvider{id: "anthropic", refresh: endpoint})})
	expiredSignIn(t, a, "anthropic")
	var wg sync.WaitGroup
	keys := make(chan string, 16)
	for i := 0; i < 16; i++ {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			k, _, _, err := s.Resolve(context.Background(), "anthropic", "")
			if err != nil {
				k = err.Error()
			}
			keys <- k
		}()
	}
	wg.Wait()
	close(keys)
	for k := range keys {
		if k != "key:access-1" {
			t.Fatalf("got %q", k)
		}
	}
	if issued != 1 {
		t.Fatalf("%d refreshes", issued)
	}
}

// omp refreshes without gopi's lock: when its refresh lands first, gopi's
// refusal is answered with omp's new tokens, and nothing is soft-deleted.
func TestRefreshRefusedBecauseOMPRefreshedFirst(t *testing.T) {
	path := filepath.Join(t.TempDir(), DBFile)
	p := &fakeProvider{id: "anthropic", refresh: func(ctx context.Context, c oauth.Credentials) (oauth.Credentials, error) {
		// omp writes its refresh while ours is on the way.
		raw := rawDB(t, path)
		if _, err := raw.Exec(`UPDATE auth_credentials SET data = ? WHERE id = 1`, fmt.Sprintf(`{"access":"omp-access","refresh":"omp-refresh","expires":%d}`, testNow.Add(time.Hour).UnixMilli())); err != nil {
			t.Fatal(err)
		}
		return oauth.Credentials{}, errors.New("invalid_grant")
	}}
	s := newStore(t, Options{Path: path, Providers: providers(p)})
	expiredSignIn(t, s, "anthropic")
	if k, _, _, err := s.Resolve(context.Background(), "anthropic", ""); k != "key:omp-access" || err != nil {
		t.Fatal(k, err)
	}
	if rows := ownRows(t, s, "", true); len(rows) != 1 || rows[0].disabled != "" {
		t.Fatalf("%+v", rows)
	}
}

func TestStoredKeyNamingAVariable(t *testing.T) {
	path := filepath.Join(t.TempDir(), DBFile)
	s := newStore(t, Options{Path: path, Getenv: func(k string) string {
		if k == "MY_OPENAI_KEY" {
			return "sk-from-env"
		}
		return ""
	}})
	ctx := context.Background()
	for key, want := range map[string]string{"MY_OPENAI_KEY": "sk-from-env", "sk-literal": "sk-literal"} {
		if err := s.Save(ctx, "openai", APIKey(key), false); err != nil {
			t.Fatal(err)
		}
		if k, _, _, err := s.Resolve(ctx, "openai", ""); k != want || err != nil {
			t.Fatal(key, k, err)
		}
	}
	if err := s.Save(ctx, "openai", APIKey("!pass show openai"), false); err != nil {
		t.Fatal(err)
	}
	if k, _, _, err := s.Resolve(ctx, "openai", ""); k != "" || err == nil || !strings.Contains(err.Error(), "gopi does not run") {
		t.Fatal(k, err)
	}
}

// Several processes saving into a file none has made yet all succeed: the
// one that creates the schema wins, the others find it made (each store
// here has a connection of its own, as another process would).
func TestConcurrentFirstSaves(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agent", DBFile)
	const n = 6
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		go func() {
			s := New(Options{Path: path})
			errs <- s.Save(context.Background(), "openai", APIKey(fmt.Sprintf("sk-%d", i)), true)
		}()
	}
	for i := 0; i < n; i++ {
		if err := <-errs; err != nil {
			t.Errorf("save %d: %v", i, err)
		}
	}
	var rows int
	if err := rawDB(t, path).QueryRow("SELECT count(*) FROM auth_credentials").Scan(&rows); err != nil || rows != n {
		t.Fatalf("%d rows (%v), want %d", rows, err, n)
	}
}
