package plugins

import (
	"strings"
	"testing"
)

func TestValidNameAndParseID(t *testing.T) {
	for _, ok := range []string{"my-plugin", "code-review", "wordpress.com", "ai-v2", "a", strings.Repeat("a", 64)} {
		if !ValidName(ok) {
			t.Errorf("%q refused", ok)
		}
	}
	for _, bad := range []string{"", "-bad", "bad-", ".bad", "Bad", "under_score", "a b", strings.Repeat("a", 65)} {
		if ValidName(bad) {
			t.Errorf("%q accepted", bad)
		}
	}
	id, err := ParseID("code-review@official")
	if err != nil || id.Name != "code-review" || id.Marketplace != "official" || id.String() != "code-review@official" {
		t.Fatalf("%+v %v", id, err)
	}
	for _, bad := range []string{"x", "@m", "x@", "X@m", "x@m_1", strings.Repeat("a", 64) + "@" + strings.Repeat("b", 64)} {
		if _, err := ParseID(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestParseCatalog(t *testing.T) {
	c, err := ParseCatalog([]byte(`{"$schema":"x","name":"acme","owner":{"name":"Acme"},"metadata":{"pluginRoot":"./plugins"},
		"plugins":[{"name":"lint","source":"./lint","tags":["a"]},
		{"name":"deploy","source":{"source":"github","repo":"acme/deploy","ref":"main"}},
		{"name":"mono","source":{"source":"git-subdir","url":"https://x/m.git","path":"p/q"}},
		{"name":"pkg","source":{"source":"npm","package":"@acme/p"}}]}`), "m.json")
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "acme" || len(c.Plugins) != 4 || c.Plugins[0].Source.Kind != SourcePath || c.Plugins[0].Source.Path != "./lint" ||
		c.Plugins[1].Source.Repo != "acme/deploy" || c.Metadata.PluginRoot != "./plugins" {
		t.Fatalf("%+v", c)
	}
	cases := map[string]string{
		`{`:                                   "not valid JSON",
		`{"owner":{"name":"x"},"plugins":[]}`: `"name" is missing`,
		`{"name":"Bad","owner":{"name":"x"},"plugins":[]}`:                                                                       `invalid marketplace name "Bad"`,
		`{"name":"m","plugins":[]}`:                                                                                              `"owner.name" is missing`,
		`{"name":"m","owner":{"name":"x"}}`:                                                                                      `"plugins" is missing`,
		`{"name":"m","owner":{"name":"x"},"plugins":{}}`:                                                                         `field "plugins" has the wrong type (an object where a list is expected)`,
		`{"name":"m","owner":"x","plugins":[]}`:                                                                                  `field "owner" has the wrong type (a string where an object is expected)`,
		`{"name":"m","owner":{"name":"x"},"plugins":[{"name":"p","source":"./a","tags":"t"}]}`:                                   `field "plugins.tags" has the wrong type (a string where a list is expected)`,
		`{"name":7,"owner":{"name":"x"},"plugins":[]}`:                                                                           `field "name" has the wrong type (a number where a string is expected)`,
		`{"name":"m","owner":{"name":"x"},"plugins":[{"name":"p"}]}`:                                                             `"source" is missing`,
		`{"name":"m","owner":{"name":"x"},"plugins":[{"name":"p","source":"../out"}]}`:                                           `leads outside its directory`,
		`{"name":"m","owner":{"name":"x"},"plugins":[{"name":"p","source":"./a/../../out"}]}`:                                    `leads outside its directory`,
		`{"name":"m","owner":{"name":"x"},"plugins":[{"name":"p","source":"/etc"}]}`:                                             `is absolute`,
		`{"name":"m","owner":{"name":"x"},"plugins":[{"name":"p","source":{"source":"ftp"}}]}`:                                   `unknown source kind "ftp"`,
		`{"name":"m","owner":{"name":"x"},"plugins":[{"name":"p","source":{"source":"github","repo":"x"}}]}`:                     `owner/repo`,
		`{"name":"m","owner":{"name":"x"},"plugins":[{"name":"p","source":"./a"},{"name":"p","source":"./b"}]}`:                  `listed twice`,
		`{"name":"m","owner":{"name":"x"},"plugins":[{"name":"p","source":{"source":"url","url":"u","ref":"--upload-pack=x"}}]}`: `may not start with '-'`,
		`{"name":"m","owner":{"name":"x"},"metadata":{"pluginRoot":"../x"},"plugins":[]}`:                                        `metadata.pluginRoot`,
		`{"name":"m","owner":{"name":"x"},"plugins":[]} {}`:                                                                      `text after the JSON object`,
	}
	for in, want := range cases {
		_, err := ParseCatalog([]byte(in), "/m/.claude-plugin/marketplace.json")
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "/m/.claude-plugin/marketplace.json") {
			t.Errorf("%s: %v (want %q and the file)", in, err, want)
		}
	}
}

func TestParseManifest(t *testing.T) {
	m, err := ParseManifest([]byte(`{"name":"p","version":"1","commands":["./cmds","extra"],"skills":"./sk","mcpServers":{"s":{"command":"x"}},"lspServers":"./lsp.json"}`), "plugin.json")
	if err != nil || len(m.Commands) != 2 || m.Commands[0] != "cmds" || m.Skills[0] != "sk" {
		t.Fatalf("%+v %v", m, err)
	}
	for in, want := range map[string]string{
		`{"commands":"../x"}`:     "leads outside",
		`{"skills":["/abs"]}`:     "is absolute",
		`{"mcpServers":"../m"}`:   "leads outside",
		`{"hooks":3}`:             "expected a path",
		`{"name":"Bad Name"}`:     "invalid plugin name",
		`{"commands":[1]}`:        "expected a path",
		`{"lspServers":"./a\\b"}`: "backslash",
	} {
		if _, err := ParseManifest([]byte(in), "/p/plugin.json"); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "/p/plugin.json") {
			t.Errorf("%s: %v (want %q)", in, err, want)
		}
	}
}

// FuzzParseCatalog: the catalog and manifest parsers never panic, and a
// catalog they accept has valid names and sources that stay inside the
// marketplace.
func FuzzParseCatalog(f *testing.F) {
	for _, s := range []string{
		`{"name":"m","owner":{"name":"x"},"plugins":[{"name":"p","source":"./p"}]}`,
		`{"name":"m","owner":{"name":"x"},"plugins":[{"name":"p","source":{"source":"git-subdir","url":"o/r","path":"a/b"}}]}`,
		`{"name":"m","owner":{"name":"x"},"metadata":{"pluginRoot":"./x"},"plugins":[{"name":"p","source":"./a/../b"}]}`,
		`{"name":"m","owner":{"name":"x"},"plugins":[{"name":"p","source":"../escape"}]}`,
		`{"commands":["./c"],"mcpServers":"./m.json","hooks":{"x":1}}`,
		`{"name":"m","owner":{"name":"x"},"plugins":[{"name":"p","source":{"source":"npm","package":"x"}}]}`,
		`[]`, `null`, `{"plugins":null}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ParseManifest(data, "plugin.json")
		c, err := ParseCatalog(data, "marketplace.json")
		if err != nil {
			return
		}
		if !ValidName(c.Name) {
			t.Fatalf("accepted marketplace name %q", c.Name)
		}
		for _, e := range c.Plugins {
			if !ValidName(e.Name) {
				t.Fatalf("accepted plugin name %q", e.Name)
			}
			if e.Source.Kind == SourcePath || e.Source.Kind == SourceGitSubdir {
				p, err := cleanRelative(e.Source.Path)
				if err != nil || p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") {
					t.Fatalf("accepted source path %q", e.Source.Path)
				}
			}
		}
	})
}
