// Command gen rewrites the compact vocabulary files of package vocab from the
// .tiktoken assets of github.com/pkoukk/tiktoken-go-loader, which the Go
// module cache holds offline, and the lookup tables built from them (package
// bpe's index form). Run it with `go generate ./tokens/...`.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gopi-agent/gopi/tokens/internal/bpe"
	"github.com/gopi-agent/gopi/tokens/internal/vocab"
	"github.com/pkoukk/tiktoken-go-loader/assets"
)

func main() {
	for _, name := range []string{"o200k_base", "cl100k_base"} {
		if err := convert(name); err != nil {
			fmt.Fprintln(os.Stderr, "gen:", err)
			os.Exit(1)
		}
	}
}

// convert writes <name>.bin and <name>.idx in the current directory (the
// vocab package, where go generate runs).
func convert(name string) error {
	text, err := assets.Assets.ReadFile(name + ".tiktoken")
	if err != nil {
		return fmt.Errorf("read %s from tiktoken-go-loader: %w", name, err)
	}
	tokens, err := vocab.ParseTiktoken(string(text))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	out, err := vocab.Format(tokens)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	tab, err := vocab.Parse(string(out))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	v, err := bpe.New(tab)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if err := writeFile(name+".bin", out); err != nil {
		return err
	}
	return writeFile(name+".idx", v.AppendIndex(nil))
}

// writeFile replaces path with data atomically (a temporary file beside it,
// renamed over it).
func writeFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(".", filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
