package main

import (
	"os"
	"regexp"
	"testing"
)

// README's command table has a row for every command gopi dispatches.
func TestREADMECommandTable(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `gopi ([a-z]+)`(?:, `gopi ([a-z]+)`)? \\|").FindAllStringSubmatch(string(b), -1) {
		rows[m[1]], rows[m[2]] = true, true
	}
	for _, name := range sortedCommands() {
		if !rows[name] {
			t.Errorf("README.md's command table (## Commands) has no row for gopi %s", name)
		}
	}
}
