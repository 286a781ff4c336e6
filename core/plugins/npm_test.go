package plugins

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha1"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// tarEntry is one entry of a test tarball: a file (Body), a directory
// (Dir), a symbolic link (Link) or a hard link (Hard).
type tarEntry struct {
	Name, Body, Link, Hard string
	Dir                    bool
}

// makeTarball returns a gzipped tarball of entries.
func makeTarball(t testing.TB, entries []tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := &tar.Header{Name: e.Name, Mode: 0o644, Typeflag: tar.TypeReg, Size: int64(len(e.Body))}
		switch {
		case e.Dir:
			h.Typeflag, h.Mode, h.Size = tar.TypeDir, 0o755, 0
		case e.Link != "":
			h.Typeflag, h.Linkname, h.Size = tar.TypeSymlink, e.Link, 0
		case e.Hard != "":
			h.Typeflag, h.Linkname, h.Size = tar.TypeLink, e.Hard, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write([]byte(e.Body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pluginTarball is an npm package holding a plugin at version v, with a
// skill and an install script that must never run.
func pluginTarball(t *testing.T, name, v string) []byte {
	return makeTarball(t, []tarEntry{
		{Name: "package/package.json", Body: `{"name":"` + name + `","version":"` + v + `","scripts":{"preinstall":"touch SCRIPT_RAN","prepack":"touch SCRIPT_RAN","postinstall":"touch SCRIPT_RAN"}}`},
		{Name: "package/.claude-plugin/plugin.json", Body: `{"name":"demo","version":"` + v + `"}`},
		{Name: "package/skills/demo-skill/SKILL.md", Body: "---\ndescription: demo " + v + "\n---\nbody\n"},
		{Name: "package/skills/link.md", Link: "demo-skill/SKILL.md"},
	})
}

// fakeRegistry is an npm registry in the test: packages → versions →
// tarballs, with the shasum and integrity npm checks. BadIntegrity makes
// it publish a wrong digest.
type fakeRegistry struct {
	srv          *httptest.Server
	mu           sync.Mutex
	pkgs         map[string]map[string][]byte
	BadIntegrity bool
	tarballHits  atomic.Int32
}

// newFakeRegistry starts a registry server stopped with the test.
func newFakeRegistry(t *testing.T) *fakeRegistry {
	r := &fakeRegistry{pkgs: map[string]map[string][]byte{}}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

// publish adds a version of a package.
func (r *fakeRegistry) publish(name, version string, tgz []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pkgs[name] == nil {
		r.pkgs[name] = map[string][]byte{}
	}
	r.pkgs[name][version] = tgz
}

func (r *fakeRegistry) serve(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p, _ := url.PathUnescape(strings.TrimPrefix(req.URL.EscapedPath(), "/"))
	if name, file, ok := strings.Cut(p, "/-/"); ok { // a tarball: <name>/-/<file>
		v := strings.TrimSuffix(file[strings.LastIndex(file, "-")+1:], ".tgz")
		if tgz, ok := r.pkgs[name][v]; ok {
			r.tarballHits.Add(1)
			w.Header().Set("Content-Type", "application/octet-stream")
			w.Write(tgz)
			return
		}
		http.NotFound(w, req)
		return
	}
	versions, ok := r.pkgs[p]
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":"Not found"}`))
		return
	}
	doc := map[string]any{"name": p}
	vs := map[string]any{}
	latest := ""
	for v, tgz := range versions {
		sum1 := sha1.Sum(tgz)
		sum512 := sha512.Sum512(tgz)
		if r.BadIntegrity {
			sum512 = sha512.Sum512(append(tgz, 'x'))
			sum1 = sha1.Sum(append(tgz, 'x'))
		}
		base := p[strings.LastIndex(p, "/")+1:]
		vs[v] = map[string]any{"name": p, "version": v, "dist": map[string]any{
			"tarball":   r.srv.URL + "/" + p + "/-/" + base + "-" + v + ".tgz",
			"shasum":    hex.EncodeToString(sum1[:]),
			"integrity": "sha512-" + base64.StdEncoding.EncodeToString(sum512[:]),
		}}
		if v > latest {
			latest = v
		}
	}
	doc["versions"] = vs
	doc["dist-tags"] = map[string]string{"latest": latest}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(doc)
}

// npmFor returns how the installer runs npm against the fake registry,
// with a private cache and no user configuration; the test is skipped
// without npm.
func npmFor(t *testing.T, r *fakeRegistry) NPM {
	t.Helper()
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("npm is not on PATH: the npm source tests need it (install Node.js with npm)")
	}
	dir := t.TempDir()
	userconfig := filepath.Join(dir, "npmrc")
	if err := os.WriteFile(userconfig, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(),
		"npm_config_registry="+r.srv.URL+"/",
		"npm_config_cache="+filepath.Join(dir, "cache"),
		"npm_config_userconfig="+userconfig,
		"npm_config_proxy=", "npm_config_https_proxy=", "npm_config_offline=false",
		"npm_config_fetch_retries=0")
	return NPM{Environ: env}
}

// npmMarket writes a local marketplace whose plugins come from npm
// (name → package@version) and returns its directory.
func npmMarket(t *testing.T, dir string, plugins map[string][2]string) string {
	t.Helper()
	var entries []string
	for name, pv := range plugins {
		src, _ := json.Marshal(Source{Kind: SourceNPM, Package: pv[0], Version: pv[1]})
		entries = append(entries, `{"name":"`+name+`","source":`+string(src)+`}`)
	}
	writeFiles(t, dir, map[string]string{CatalogPath: `{"name":"npm-mk","owner":{"name":"t"},"plugins":[` + strings.Join(entries, ",") + `]}`})
	return dir
}

// A plugin from an npm source installs from the registry npm is pointed
// at, records the version fetched, runs no package script, and upgrades
// only when the catalog names another version.
func TestInstallNPMSource(t *testing.T) {
	reg := newFakeRegistry(t)
	reg.publish("@acme/demo", "1.0.0", pluginTarball(t, "@acme/demo", "1.0.0"))
	reg.publish("@acme/demo", "1.1.0", pluginTarball(t, "@acme/demo", "1.1.0"))
	m := newManager(t)
	m.NPM = npmFor(t, reg)
	ctx := context.Background()
	mkDir := npmMarket(t, filepath.Join(t.TempDir(), "npm-mk"), map[string][2]string{"demo": {"@acme/demo", "1.0.0"}})
	if _, err := m.AddMarketplace(ctx, mkDir); err != nil {
		t.Fatal(err)
	}
	var listing strings.Builder
	if err := Run(ctx, m, m.sources(), Invocation{Verb: "discover"}, &listing); err != nil || !strings.Contains(listing.String(), "demo@npm-mk (npm @acme/demo@1.0.0)") {
		t.Fatalf("discover: %q %v", listing.String(), err)
	}
	id := ID{Name: "demo", Marketplace: "npm-mk"}
	inst, err := m.Install(ctx, id, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if inst.Version != "1.0.0" || filepath.Base(inst.InstallPath) != "npm-mk___demo___1.0.0" {
		t.Fatalf("install: %+v", inst)
	}
	skill, err := os.ReadFile(filepath.Join(inst.InstallPath, "skills", "demo-skill", "SKILL.md"))
	if err != nil || !strings.Contains(string(skill), "demo 1.0.0") {
		t.Fatalf("skill: %q %v", skill, err)
	}
	if _, err := os.Stat(filepath.Join(inst.InstallPath, ".claude-plugin", "plugin.json")); err != nil {
		t.Fatal(err)
	}
	filepath.WalkDir(m.Layout.Root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == "SCRIPT_RAN" {
			t.Errorf("a package script ran: %s", p)
		}
		return nil
	})
	roots, errs := Roots(m.sources(), nil)
	if len(errs) != 0 || len(roots) != 1 || roots[0].ID != id {
		t.Fatalf("roots %+v %v", roots, errs)
	}

	// Same version in the catalog: upgrade fetches nothing.
	hits := reg.tarballHits.Load()
	if done, err := m.Upgrade(ctx, ID{}, ""); err != nil || len(done) != 0 {
		t.Fatalf("upgrade at the same version: %v %v", done, err)
	}
	if reg.tarballHits.Load() != hits {
		t.Fatal("upgrade fetched a tarball although the version did not change")
	}

	// The catalog moves to 1.1.0: upgrade fetches it and drops 1.0.0.
	npmMarket(t, mkDir, map[string][2]string{"demo": {"@acme/demo", "1.1.0"}})
	done, err := m.Upgrade(ctx, ID{}, "")
	if err != nil || len(done) != 1 {
		t.Fatalf("upgrade: %v %v", done, err)
	}
	after, err := readInstalled(m.Layout.InstalledFile())
	if err != nil {
		t.Fatal(err)
	}
	now := after.Plugins[id.String()][0]
	if now.Version != "1.1.0" || filepath.Base(now.InstallPath) != "npm-mk___demo___1.1.0" {
		t.Fatalf("after upgrade: %+v", now)
	}
	if skill, _ := os.ReadFile(filepath.Join(now.InstallPath, "skills", "demo-skill", "SKILL.md")); !strings.Contains(string(skill), "demo 1.1.0") {
		t.Fatalf("upgraded skill: %q", skill)
	}
	if _, err := os.Stat(inst.InstallPath); !os.IsNotExist(err) {
		t.Fatalf("old version left: %v", err)
	}
}

// Each way an npm install fails says what was wrong, and leaves nothing
// registered or staged.
func TestNPMSourceErrors(t *testing.T) {
	reg := newFakeRegistry(t)
	reg.publish("plain-lib", "2.0.0", makeTarball(t, []tarEntry{
		{Name: "package/package.json", Body: `{"name":"plain-lib","version":"2.0.0"}`},
		{Name: "package/index.js", Body: "module.exports = 1\n"},
	}))
	reg.publish("good-plugin", "1.0.0", pluginTarball(t, "good-plugin", "1.0.0"))
	reg.publish("evil-plugin", "1.0.0", makeTarball(t, []tarEntry{
		{Name: "package/.claude-plugin/plugin.json", Body: `{"name":"evil"}`},
		{Name: "package/../../evil.txt", Body: "escaped"},
	}))
	npm := npmFor(t, reg)
	ctx := context.Background()
	for _, c := range []struct {
		name, pkg, version, want string
		npm                      NPM
		badIntegrity             bool
	}{
		{"no package", "missing-pkg", "1.0.0", "was not found in the registry", npm, false},
		{"no version", "good-plugin", "9.9.9", `has no version matching "9.9.9"`, npm, false},
		{"not a plugin", "plain-lib", "2.0.0", "is not a plugin: it has no .claude-plugin/plugin.json", npm, false},
		{"hostile", "evil-plugin", "1.0.0", `leads outside the package with ".."`, npm, false},
		{"integrity", "good-plugin", "1.0.0", "does not match the registry's integrity digest", npm, true},
		{"no npm", "good-plugin", "1.0.0", "npm is not installed or not in PATH: install Node.js", NPM{Program: "gopi-test-no-such-npm", Environ: npm.Environ}, false},
		{"flag as name", "--version", "", "is not an npm package name", npm, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			reg.mu.Lock()
			reg.BadIntegrity = c.badIntegrity
			reg.mu.Unlock()
			m := newManager(t)
			m.NPM = c.npm
			mkDir := npmMarket(t, filepath.Join(t.TempDir(), "npm-mk"), map[string][2]string{"p": {c.pkg, c.version}})
			if _, err := m.AddMarketplace(ctx, mkDir); err != nil {
				t.Fatal(err)
			}
			_, err := m.Install(ctx, ID{Name: "p", Marketplace: "npm-mk"}, InstallOptions{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			if c.name == "no npm" && !errors.Is(err, ErrNoNPM) {
				t.Fatalf("not ErrNoNPM: %v", err)
			}
			doc, _ := readInstalled(m.Layout.InstalledFile())
			if doc != nil && len(doc.Plugins) != 0 {
				t.Fatalf("registered after a failure: %+v", doc.Plugins)
			}
			ents, _ := os.ReadDir(m.Layout.PluginCache())
			for _, e := range ents {
				if e.Name() != ".staging" {
					t.Fatalf("left in the plugin cache: %s", e.Name())
				}
			}
		})
	}
	reg.BadIntegrity = false
}

// Hostile tarballs are refused before anything lands outside the
// destination: "..", absolute paths, links out, writes through a link,
// hard links.
func TestUnpackTarballRefusesEscapes(t *testing.T) {
	for _, c := range []struct {
		name    string
		entries []tarEntry
		want    string
	}{
		{"dotdot", []tarEntry{{Name: "package/../x", Body: "x"}}, `".."`},
		{"deep dotdot", []tarEntry{{Name: "package/a/../../../x", Body: "x"}}, `".."`},
		{"absolute", []tarEntry{{Name: "/tmp/x", Body: "x"}}, "absolute path"},
		{"link absolute", []tarEntry{{Name: "package/l", Link: "/etc"}}, "outside the plugin"},
		{"link up", []tarEntry{{Name: "package/a/l", Link: "../../.."}}, "outside the plugin"},
		{"through link", []tarEntry{{Name: "package/l", Link: "."}, {Name: "package/l/x", Body: "x"}}, "passes through or replaces"},
		{"replace link", []tarEntry{{Name: "package/l", Link: "a"}, {Name: "package/l", Body: "x"}}, "passes through or replaces"},
		{"hard link", []tarEntry{{Name: "package/a", Body: "x"}, {Name: "package/h", Hard: "/etc/passwd"}}, "hard link"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			file := filepath.Join(root, "p.tgz")
			if err := os.WriteFile(file, makeTarball(t, c.entries), 0o644); err != nil {
				t.Fatal(err)
			}
			err := unpackTarball(file, filepath.Join(root, "out", "pkg"))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
			onlyInside(t, root)
		})
	}
	// A sparse file (1.5 KB that would unpack to 200 MB of zeros).
	root0 := t.TempDir()
	var sparse bytes.Buffer
	gz := gzip.NewWriter(&sparse)
	gz.Write(sparseTar(t, "package/s", 200_000_000))
	gz.Close()
	os.WriteFile(filepath.Join(root0, "p.tgz"), sparse.Bytes(), 0o644)
	if err := unpackTarball(filepath.Join(root0, "p.tgz"), filepath.Join(root0, "out", "pkg")); err == nil || !strings.Contains(err.Error(), "sparse file") {
		t.Fatalf("sparse: %v", err)
	}
	// A link that stays inside is kept, and copyTree copies it.
	root := t.TempDir()
	file := filepath.Join(root, "p.tgz")
	os.WriteFile(file, makeTarball(t, []tarEntry{{Name: "package/a/f", Body: "x"}, {Name: "package/b/l", Link: "../a/f"}}), 0o644)
	if err := unpackTarball(file, filepath.Join(root, "pkg")); err != nil {
		t.Fatal(err)
	}
	if err := copyTree(filepath.Join(root, "pkg"), filepath.Join(root, "copy")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "copy", "b", "l")); err != nil || string(b) != "x" {
		t.Fatalf("%q %v", b, err)
	}
}

// onlyInside fails when anything but p.tgz and out/ was written in root,
// or anything under out/ is not under out/pkg.
func onlyInside(t testing.TB, root string) {
	t.Helper()
	ents, _ := os.ReadDir(root)
	for _, e := range ents {
		if e.Name() != "p.tgz" && e.Name() != "out" {
			t.Fatalf("written outside the destination: %s", e.Name())
		}
	}
	outs, _ := os.ReadDir(filepath.Join(root, "out"))
	for _, e := range outs {
		if e.Name() != "pkg" {
			t.Fatalf("written outside the destination: out/%s", e.Name())
		}
	}
}

// FuzzUnpackTarball: whatever a tarball holds, unpacking writes nothing
// outside its destination.
func FuzzUnpackTarball(f *testing.F) {
	raw := func(entries []tarEntry) []byte {
		gz := makeTarball(f, entries)
		r, _ := gzip.NewReader(bytes.NewReader(gz))
		var b bytes.Buffer
		b.ReadFrom(r)
		return b.Bytes()
	}
	f.Add(raw([]tarEntry{{Name: "package/a", Body: "x"}}))
	f.Add(raw([]tarEntry{{Name: "package/../x", Body: "x"}}))
	f.Add(raw([]tarEntry{{Name: "package/l", Link: "."}, {Name: "package/l/x", Body: "x"}}))
	f.Add(raw([]tarEntry{{Name: "package/l", Link: "../.."}, {Name: "package/d", Dir: true}}))
	f.Fuzz(func(t *testing.T, tarBytes []byte) {
		root := t.TempDir()
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		gz.Write(tarBytes)
		gz.Close()
		file := filepath.Join(root, "p.tgz")
		if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		_ = unpackTarball(file, filepath.Join(root, "out", "pkg"))
		onlyInside(t, root)
	})
}

// A registry that never answers stops the fetch at the timeout, with a
// message saying so.
func TestNPMHangingRegistry(t *testing.T) {
	reg := newFakeRegistry(t)
	m := newManager(t)
	m.NPM = npmFor(t, reg)
	release := make(chan struct{})
	stall := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer stall.Close()
	defer close(release)
	m.NPM.Environ = append(m.NPM.Environ, "npm_config_registry="+stall.URL+"/")
	m.NPM.Timeout = 2 * time.Second
	mkDir := npmMarket(t, filepath.Join(t.TempDir(), "npm-mk"), map[string][2]string{"p": {"slow-plugin", "1.0.0"}})
	if _, err := m.AddMarketplace(context.Background(), mkDir); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err := m.Install(context.Background(), ID{Name: "p", Marketplace: "npm-mk"}, InstallOptions{})
	if err == nil || !strings.Contains(err.Error(), "did not finish within 2s") {
		t.Fatalf("%v", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("the hanging fetch took %s", d)
	}
}

// sparseTar returns an uncompressed tarball holding one GNU sparse file
// (PAX format 1.0) named name of size bytes, mostly a hole. Go's writer
// drops sparse records, so the extended header is made by hand: a
// regular entry holding the records whose type is changed to 'x'.
func sparseTar(t *testing.T, name string, size int) []byte {
	t.Helper()
	rec := func(k, v string) string {
		s := " " + k + "=" + v + "\n"
		n := len(s) + 1
		for len(strconv.Itoa(n))+len(s) != n {
			n = len(strconv.Itoa(n)) + len(s)
		}
		return strconv.Itoa(n) + s
	}
	pax := rec("GNU.sparse.major", "1") + rec("GNU.sparse.minor", "0") + rec("GNU.sparse.name", name) + rec("GNU.sparse.realsize", strconv.Itoa(size))
	data := make([]byte, 513) // the sparse map (one 1-byte region at 0) in a block, then the region
	copy(data, "1\n0\n1\n")
	data[512] = 'x'
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, e := range []struct {
		name string
		body []byte
	}{{"pax", []byte(pax)}, {name, data}} {
		if err := tw.WriteHeader(&tar.Header{Name: e.name, Mode: 0o644, Typeflag: tar.TypeReg, Size: int64(len(e.body))}); err != nil {
			t.Fatal(err)
		}
		tw.Write(e.body)
	}
	tw.Close()
	raw := b.Bytes()
	raw[156] = tar.TypeXHeader
	copy(raw[148:156], "        ")
	sum := 0
	for _, c := range raw[:512] {
		sum += int(c)
	}
	copy(raw[148:], fmt.Sprintf("%06o\x00 ", sum))
	return raw
}
