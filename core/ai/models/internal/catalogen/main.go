// Command catalogen turns omp's model catalogue (the models.json that
// @oh-my-pi/pi-ai publishes) into compact Go data for core/ai/models.
//
// The output is one generated file holding a fixed-size array of ai.Model
// values whose fields are all constants, so the Go linker lays the whole
// catalogue out in the binary's data section: a program that starts pays
// nothing for it until a model is looked at, and nothing is parsed at run
// time. The few models with request headers or compat settings (maps, which
// cannot be static data) get them from a generated function the registry
// calls while loading.
//
// Usage (go generate in core/ai/models runs it):
//
//	go run ./internal/catalogen -in internal/catalogen/pi-ai-models.json.gz -out catalog_data.go
//
// The input may be plain or gzip-compressed JSON. Fields of the catalogue
// that gopi does not use (applyPatchToolType, preferWebsockets, priority,
// premiumMultiplier) are accepted and dropped; any other unknown field is
// an error, so a catalogue update with new facts is noticed here.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	in := flag.String("in", "", "models.json (plain or .gz) from @oh-my-pi/pi-ai")
	out := flag.String("out", "", "Go file to write")
	flag.Parse()
	if *in == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: catalogen -in models.json[.gz] -out catalog_data.go")
		os.Exit(2)
	}
	raw, err := readInput(*in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "catalogen:", err)
		os.Exit(1)
	}
	src, err := generate(raw)
	if err != nil {
		fmt.Fprintf(os.Stderr, "catalogen: %s: %v\n", *in, err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "catalogen:", err)
		os.Exit(1)
	}
}
