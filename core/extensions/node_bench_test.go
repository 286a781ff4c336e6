package extensions

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// nodeExt is an extension that imports the Node built-ins extensions use
// and touches them while loading.
const nodeExt = `
import { readFileSync, existsSync } from "node:fs";
import * as path from "node:path";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import os from "node:os";
import { EventEmitter } from "node:events";
import { promisify } from "node:util";
export default function (pi) {
	const bus = new EventEmitter();
	const home = path.join(os.homedir(), ".config");
	const id = createHash("sha256").update(home).digest("hex").slice(0, 8);
	pi.registerTool({
		name: "node_" + %d, description: "reads a file", parameters: { type: "object", properties: { file: { type: "string" } } },
		async execute(_id, p) { bus.emit("read", p.file); return existsSync(p.file) ? readFileSync(p.file, "utf8") + id : String(typeof promisify(execFile)); },
	});
}`

// nodeEntries writes ten extensions that use Node built-ins.
func nodeEntries(b *testing.B) []Entry {
	dir := b.TempDir()
	var entries []Entry
	for i := range 10 {
		p := writeExt(b, dir, fmt.Sprintf("node%d.ts", i), fmt.Sprintf(nodeExt, i))
		entries = append(entries, Entry{Path: p, Name: fmt.Sprint("node", i)})
	}
	return entries
}

// BenchmarkLoad10Node loads ten extensions that use Node built-ins, cold
// (bundled anew, as at gopi's first start after they were written).
func BenchmarkLoad10Node(b *testing.B) {
	benchStart(b, nodeEntries(b), "")
}

// BenchmarkLoad10NodeNextStart is BenchmarkLoad10Node for a later start:
// nothing in memory, the bundles on disk.
func BenchmarkLoad10NodeNextStart(b *testing.B) {
	benchStart(b, nodeEntries(b), b.TempDir())
}

// readSink holds the string BenchmarkReadFile/go made.
var readSink string

// BenchmarkReadFile reads a 64 KiB file as text: "go" with os.ReadFile,
// "extension" with fs.readFileSync from JavaScript on the engine's
// goroutine (the target: ≤ 2× go).
func BenchmarkReadFile(b *testing.B) {
	p := filepath.Join(b.TempDir(), "data.txt")
	if err := os.WriteFile(p, []byte(strings.Repeat("0123456789abcde\n", 4096)), 0o644); err != nil {
		b.Fatal(err)
	}
	// Go's read produces the same value the extension gets: a string
	// (kept in a package variable, so the conversion and its copy are not
	// optimised away, as len(string(data)) would be).
	b.Run("go", func(b *testing.B) {
		defer reportCPU(b, processCPU())
		for b.Loop() {
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			readSink = string(data)
			if len(readSink) != 65536 {
				b.Fatal(len(readSink))
			}
		}
	})
	b.Run("extension", func(b *testing.B) {
		r := Load(context.Background(), nil, Options{})
		defer r.Close()
		var read goja.Callable
		_ = r.vm.do(loadBudget, func(rt *goja.Runtime) error {
			v, err := rt.RunString(`(() => { const fs = require("fs"); return (p) => fs.readFileSync(p, "utf8").length; })()`)
			read, _ = goja.AssertFunction(v)
			return err
		})
		// The calls run on the engine's goroutine, as an extension's do:
		// one job for the whole loop, so the cost is the read's own.
		_ = r.vm.do(10*loadBudget, func(rt *goja.Runtime) error {
			defer reportCPU(b, processCPU())
			arg := rt.ToValue(p)
			for b.Loop() {
				v, err := read(goja.Undefined(), arg)
				if err != nil || v.ToInteger() != 65536 {
					b.Fatal(err, v)
				}
			}
			return nil
		})
	})
}
