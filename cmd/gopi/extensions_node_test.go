package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/mockllm"
)

// An extension using Node's fs, path, child_process and crypto, given
// with -e in print mode: the model calls its tool, which writes a file in
// the project, reads it back, hashes it and runs a program; the result
// reaches the model.
func TestExtensionWithNodeBuiltins(t *testing.T) {
	r := newAgentRig(t,
		mockllm.Turn{Blocks: []mockllm.Block{mockllm.ToolCall("stamp", `{"name":"notes.txt"}`)}},
		mockllm.Turn{Blocks: []mockllm.Block{text("stamped")}},
	)
	ext := filepath.Join(r.Project, "stamp.ts")
	if err := os.WriteFile(ext, []byte(`
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
export default function (pi) {
	pi.registerTool({
		name: "stamp",
		description: "Writes a stamped file and reports its hash",
		parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
		async execute(_id, p) {
			const file = path.resolve(p.name);
			writeFileSync(file, "stamped by " + path.basename(file, ".txt"));
			const body = readFileSync(file, "utf8");
			const who = execFileSync("sh", ["-c", "printf child"]).toString();
			return "sha1=" + createHash("sha1").update(body).digest("hex") + " body=" + body + " who=" + who;
		},
	});
}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := r.run("", "-p", "-e", ext, "stamp the notes")
	if code != 0 || !strings.Contains(out, "stamped") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if b, err := os.ReadFile(filepath.Join(r.Project, "notes.txt")); err != nil || string(b) != "stamped by notes" {
		t.Fatalf("notes.txt: %q %v", b, err)
	}
	reqs := r.Srv.Requests()
	if len(reqs) != 2 || !strings.Contains(string(reqs[1].Body), "sha1=d5e6afde680f7f5f99a70b2fe29a39c0b75e046e") || !strings.Contains(string(reqs[1].Body), "body=stamped by notes who=child") {
		t.Fatalf("the tool's result did not reach the model: %d requests", len(reqs))
	}
}
