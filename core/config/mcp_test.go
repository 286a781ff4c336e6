package config

import (
	"context"
	"strings"
	"testing"
)

func TestMCPFilesPrecedenceAndValidation(t *testing.T) {
	f := newFixture(t, "MY_TOKEN=from-env", "HOST=example.org")
	f.write("work/proj/.gopi/mcp.json", `{"mcpServers":{"one":{"command":"gopi-one"}}}`)
	f.write("work/proj/.omp/mcp.json", `{"mcpServers":{
		"one":{"command":"omp-one"},
		"two":{"command":"omp-two","args":["a"]},
		"remote":{"url":"https://x.example/mcp"},
		"both":{"command":"x","url":"https://x"},
		"bad name!":{"command":"x"},
		"weird":{"type":"ws","url":"ws://x"},
		"nourl":{"type":"http"},
		"off":{"command":"x","enabled":false}
	}}`)
	f.write("home/.omp/agent/mcp.json", `{"mcpServers":{"three":{"type":"sse","url":"https://s.example/sse"}},"disabledServers":["two"]}`)
	f.write("work/proj/.mcp.json", `{"mcpServers":{"four":{"type":"http","url":"https://${HOST}/mcp","headers":{"Authorization":"Bearer ${MISSING:-none}"}}}}`)
	f.write("work/proj/mcp.json", `{"mcpServers":{"three":{"command":"late"}}}`)
	c := f.loadTrusted()
	mc := c.MCP()
	got := map[string]*MCPServer{}
	var names []string
	for _, s := range mc.Servers {
		got[s.Name] = s
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "one,three,four" {
		t.Fatalf("servers = %v", names)
	}
	if got["one"].Command != "gopi-one" {
		t.Errorf("gopi's project file must win: %+v", got["one"])
	}
	if got["three"].Type != MCPSSE || got["three"].Level != LevelUser {
		t.Errorf("three = %+v", got["three"])
	}
	if got["four"].URL != "https://example.org/mcp" || got["four"].Headers["Authorization"] != "Bearer none" {
		t.Errorf("root file expansion: %+v", got["four"])
	}
	if strings.Join(mc.Disabled, ",") != "two" {
		t.Errorf("disabled = %v", mc.Disabled)
	}
	var errs []string
	for _, e := range mc.Errors {
		errs = append(errs, e.Error())
	}
	all := strings.Join(errs, "\n")
	for _, want := range []string{
		`Server "remote": stdio server requires "command" field`,
		`Server "both": both "command" and "url" are set`,
		`Server "bad name!": invalid server name`,
		`Server "weird": unknown server type "ws"`,
		`Server "nourl": http server requires "url" field`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("missing error %q in:\n%s", want, all)
		}
	}
}

func TestMCPProjectConfigOff(t *testing.T) {
	f := newFixture(t)
	f.write("work/proj/.omp/mcp.json", `{"mcpServers":{"p":{"command":"x"}}}`)
	f.write("home/.gopi/agent/mcp.json", `{"mcpServers":{"u":{"command":"y"}}}`)
	o := f.options()
	o.Overrides = map[string]any{"mcp.enableProjectConfig": false}
	c, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	mc := c.MCP()
	if len(mc.Servers) != 1 || mc.Servers[0].Name != "u" {
		t.Fatalf("servers = %+v", mc.Servers)
	}
}

func TestMCPBadJSONIsReported(t *testing.T) {
	f := newFixture(t)
	f.write("work/proj/.mcp.json", `{"mcpServers":`)
	mc := f.load().MCP()
	if len(mc.Errors) != 1 || !strings.Contains(mc.Errors[0].Error(), ".mcp.json") {
		t.Fatalf("errors = %v", mc.Errors)
	}
}

func TestResolveMCPValue(t *testing.T) {
	f := newFixture(t, "GITHUB_TOKEN=ghp_123")
	c := f.load()
	ctx := context.Background()
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"!echo x", "x", true},
		{"!printf '  padded  '", "padded", true},
		{"!exit 3", "", false},
		{"!printf '   '", "", false},
		{"GITHUB_TOKEN", "ghp_123", true},
		{"UNSET_VAR_NAME", "UNSET_VAR_NAME", true},
		{"Bearer literal", "Bearer literal", true},
	} {
		got, ok := c.ResolveMCPValue(ctx, tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ResolveMCPValue(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestSecretsCollection(t *testing.T) {
	f := newFixture(t, "MY_TOKEN=abcdefgh12", "SHORT_KEY=abc", "PLAIN=abcdefghijk", "db_password=longenough")
	f.write("home/.omp/agent/secrets.yml", "- type: plain\n  content: hunter2hunter2\n- type: regex\n  content: AKIA[0-9A-Z]{16}\n")
	f.write("work/proj/.gopi/secrets.yml", "- type: plain\n  content: hunter2hunter2\n  mode: replace\n  replacement: '***'\n- type: bogus\n  content: x\n")
	if s, _ := f.load().Secrets(); s != nil {
		t.Fatalf("secrets collected while disabled: %v", s)
	}
	f.write("home/.gopi/agent/config.yml", "secrets:\n  enabled: true\n")
	s, errs := f.load().Secrets()
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `type "bogus"`) {
		t.Errorf("errs = %v", errs)
	}
	var got []string
	for _, e := range s {
		got = append(got, e.Type+":"+e.Content+":"+e.Mode)
	}
	want := "plain:abcdefgh12:obfuscate,plain:longenough:obfuscate,plain:hunter2hunter2:replace,regex:AKIA[0-9A-Z]{16}:obfuscate"
	if strings.Join(got, ",") != want {
		t.Errorf("secrets =\n %v\nwant\n %v", strings.Join(got, ","), want)
	}
}
