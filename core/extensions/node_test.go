package extensions

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/tool"
)

// loadOne loads one extension from src and fails the test on a load
// error.
func loadOne(t *testing.T, dir, name, src string, opts Options) *Runtime {
	t.Helper()
	path := writeExt(t, dir, name, src)
	r := Load(context.Background(), []Entry{{Path: path, Name: strings.TrimSuffix(name, filepath.Ext(name))}}, opts)
	t.Cleanup(r.Close)
	if errs := r.Errors(); len(errs) > 0 {
		t.Fatal(errs)
	}
	return r
}

// runTool runs the extension's only tool and returns its text.
func runTool(t *testing.T, r *Runtime, args tool.Args) string {
	t.Helper()
	tools := r.Tools()
	if len(tools) != 1 {
		t.Fatalf("%d tools", len(tools))
	}
	res, err := tools[0].Execute(context.Background(), args, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.FirstText()
}

// An extension that imports fs, path, child_process, crypto, os, events,
// util, url, buffer and process runs its tool; its fs write goes through
// the write path (an existing file keeps its mode) and is reported.
func TestNodeBuiltinsRunATool(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "out", "note.txt")
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	var written []string
	r := loadOne(t, dir, "builtins.ts", `
import * as fs from "node:fs";
import { readFile, writeFile } from "fs/promises";
import path from "node:path";
import { execFile, spawn, execSync } from "node:child_process";
import { createHash, randomUUID, randomBytes } from "node:crypto";
import os from "node:os";
import { EventEmitter } from "node:events";
import { promisify, format, inspect } from "node:util";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Buffer } from "node:buffer";
export default function (pi) {
  pi.registerTool({
    name: "builtins", label: "builtins", description: "exercises Node built-ins",
    parameters: { type: "object", properties: { file: { type: "string" } } },
    async execute(id, params) {
      const out = [];
      const p = path.join(process.cwd(), "out", path.basename(params.file));
      await writeFile(p, "hello " + path.extname(p));
      out.push("read=" + (await readFile(p, "utf8")));
      fs.appendFileSync(p, "!");
      out.push("sync=" + fs.readFileSync(p).toString());
      out.push("exists=" + fs.existsSync(p) + "," + fs.existsSync(p + ".nope"));
      try { fs.readFileSync(p + ".nope"); } catch (e) { out.push("err=" + e.code); }
      out.push("dir=" + fs.readdirSync(path.dirname(p)).join(","));
      out.push("isFile=" + fs.statSync(p).isFile());
      out.push("md5=" + createHash("md5").update("abc").digest("hex"));
      out.push("sha256=" + createHash("sha256").update(Buffer.from("abc")).digest("base64"));
      out.push("uuid=" + /^[0-9a-f-]{36}$/.test(randomUUID()) + " bytes=" + randomBytes(8).length);
      const { stdout } = await promisify(execFile)("sh", ["-c", "echo child $PWD"]);
      out.push("execFile=" + stdout.trim());
      const chunks = [];
      const code = await new Promise((resolve) => {
        const cp = spawn("sh", ["-c", "printf 'a\\nb'"]);
        cp.stdout.on("data", (c) => chunks.push(String(c)));
        cp.on("close", resolve);
      });
      out.push("spawn=" + JSON.stringify(chunks.join("")) + " code=" + code);
      out.push("execSync=" + execSync("echo sync").toString().trim());
      const em = new EventEmitter();
      em.once("x", (v) => out.push("event=" + v));
      em.emit("x", 1); em.emit("x", 2);
      out.push(format("fmt=%s:%d", "a", 7) + " " + inspect({ a: [1, "b"] }));
      out.push("url=" + fileURLToPath(pathToFileURL("/tmp/a b")));
      out.push("os=" + (os.platform() === process.platform) + " " + typeof os.homedir());
      out.push("env=" + process.env.GOPI_NODE_TEST);
      return out.join("\n");
    },
  });
}`, Options{Cwd: dir, Env: []string{"GOPI_NODE_TEST=yes", "PATH=" + os.Getenv("PATH")}, Written: func(p string) { written = append(written, p) }})
	got := runTool(t, r, tool.Args{"file": "note.txt"})
	for _, want := range []string{
		"read=hello .txt", "sync=hello .txt!", "exists=true,false", "err=ENOENT", "dir=note.txt", "isFile=true",
		"md5=900150983cd24fb0d6963f7d28e17f72", "sha256=ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=",
		"uuid=true bytes=8", "execFile=child " + dir, `spawn="a\nb" code=0`, "execSync=sync", "event=1",
		"fmt=a:7 { a: [ 1, \"b\" ] }", "url=/tmp/a b", "os=true string", "env=yes",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "event=2") {
		t.Errorf("once fired twice:\n%s", got)
	}
	fi, err := os.Stat(target)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("the written file's mode %v (%v), want 0600 kept", fi.Mode(), err)
	}
	if len(written) != 2 || written[0] != target {
		t.Errorf("writes reported %v", written)
	}
}

// A module gopi does not provide fails the extension's load with a
// message naming it and why.
func TestNodeModuleRefusedByName(t *testing.T) {
	dir := t.TempDir()
	path := writeExt(t, dir, "zip.js", `import zlib from "node:zlib"; export default (pi) => { zlib.gzipSync; };`)
	r := Load(context.Background(), []Entry{{Path: path, Name: "zip"}}, Options{})
	defer r.Close()
	errs := r.Errors()
	if len(errs) != 1 || !strings.Contains(errs[0].Err, `"zlib" is not available (no compression)`) || !strings.Contains(errs[0].Err, "child_process") {
		t.Fatalf("errors %v", errs)
	}
}

// Reading a directory fails with Node's EISDIR.
func TestNodeReadDirectoryIsEISDIR(t *testing.T) {
	dir := t.TempDir()
	r := loadOne(t, dir, "dir.js", `import fs from "fs";
export default (pi) => pi.registerTool({ name: "d", description: "d", execute() {
  try { fs.readFileSync("."); return "read"; } catch (e) { return e.code + " " + e.message; }
} });`, Options{Cwd: dir})
	if got := runTool(t, r, nil); got != "EISDIR EISDIR: is a directory, read '"+dir+"'" {
		t.Errorf("got %q", got)
	}
}

// Built-ins imported or required are left to the runtime's require, not
// copied into the bundle as modules esbuild parses and prints for each
// extension; a dynamic import() of one (the engine has none) is bundled.
// A dependency in node_modules that requires one gets the same module.
func TestNodeBuiltinsLeftToTheRuntime(t *testing.T) {
	dir := t.TempDir()
	writeExt(t, dir, "node_modules/dep/package.json", `{"name": "dep", "main": "index.js"}`)
	writeExt(t, dir, "node_modules/dep/index.js", `const p = require("path"); exports.base = (s) => p.basename(s);`)
	src := `import { readFileSync } from "node:fs";
import * as path from "path";
import os from "node:os";
import { base } from "dep";
const { EventEmitter } = require("events");
export default (pi) => pi.registerTool({ name: "b", description: "b", async execute() {
  const fsp = await import("node:fs/promises");
  const same = (await import("node:path")).join === path.join;
  return [typeof readFileSync, path.basename("/a/b.txt"), typeof os.homedir, base("/x/y.md"), typeof new EventEmitter().on, typeof fsp.readFile, same].join(" ");
} });`
	r := loadOne(t, dir, "ext.ts", src, Options{Cwd: dir})
	if got := runTool(t, r, nil); got != "function b.txt function y.md function function true" {
		t.Errorf("got %q", got)
	}
	code, err := bundle(filepath.Join(dir, "ext.ts"), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, static := range []string{"node:fs", "path", "node:os", "events"} {
		if !strings.Contains(code, `__require("`+static+`")`) || strings.Contains(code, `__gopiNodeModule("`+static+`")`) {
			t.Errorf("%s is not left to the runtime's require:\n%s", static, code)
		}
	}
	if !strings.Contains(code, `__gopiNodeModule("node:fs/promises")`) {
		t.Errorf("the dynamic import is not bundled:\n%s", code)
	}
	// A CommonJS extension requires them the same way.
	cjs := loadOne(t, dir, "cjs.js", `const fsp = require("node:fs/promises"); const os = require("os");
module.exports = (pi) => pi.registerTool({ name: "c", description: "c", execute: async () => typeof fsp.readFile + " " + typeof os.homedir });`, Options{Cwd: dir})
	if got := runTool(t, cjs, nil); got != "function function" {
		t.Errorf("CommonJS: %q", got)
	}
}
