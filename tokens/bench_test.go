package tokens

import (
	"context"
	"fmt"
	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gopi-agent/gopi/tokens/internal/bpe"
	"github.com/gopi-agent/gopi/tokens/internal/vocab"
)

// sourceMixSize is the size of the benchmark text.
const sourceMixSize = 10 << 20

var (
	mixOnce sync.Once
	mixText string
	mixErr  error
)

// sourceMix returns the benchmark text: the file named by
// $TOKENS_BENCH_FILE (bench/tokens.sh shares its input with the other
// tokenizers this way), or else about 10 MB of Go sources from GOROOT/src:
// every k-th file in sorted path order, so the mix is the same on every run
// of the same Go version and spreads over the whole tree.
func sourceMix(b *testing.B) string {
	mixOnce.Do(func() {
		if path := os.Getenv("TOKENS_BENCH_FILE"); path != "" {
			data, err := os.ReadFile(path)
			mixText, mixErr = string(data), err
			return
		}
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			mixErr = err
			return
		}
		mixText, mixErr = SourceMix(filepath.Join(strings.TrimSpace(string(out)), "src"), sourceMixSize)
	})
	if mixErr != nil {
		b.Skip("no source mix:", mixErr)
	}
	return mixText
}

// SourceMix concatenates every k-th .go file under root in sorted order, with
// k chosen so the result is about size bytes.
func SourceMix(root string, size int) (string, error) {
	type file struct {
		path string
		size int64
	}
	var files []file
	var total int64
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		files = append(files, file{path, info.Size()})
		total += info.Size()
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	k := max(1, int(total/int64(size)))
	var b strings.Builder
	for i := 0; i < len(files) && b.Len() < size; i += k {
		data, err := os.ReadFile(files[i].path)
		if err != nil {
			return "", err
		}
		b.Write(data)
	}
	return b.String(), nil
}

func BenchmarkCount(b *testing.B) {
	text := sourceMix(b)
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			e := mustGet(b, name)
			// Cold: every pass starts with empty piece caches (emptying
			// them is a few microseconds of the pass).
			measureCPU(b, len(text), func() { e.resetCaches(); e.Count(text) })
		})
	}
}

// BenchmarkCountParallel counts the text as `gopi tokens` counts one
// large file, in segments on one worker (streamed) and on GOMAXPROCS
// workers, with cold caches (a fresh Workers each time); cpu-MB/s is over the whole process's CPU time,
// so the two compare the work the segments repeat (each worker's cache
// learning the same pieces) besides the wall time.
func BenchmarkCountParallel(b *testing.B) {
	text := sourceMix(b)
	e := mustGet(b, O200kBase)
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			measureProcessCPU(b, len(text), func() {
				e.resetCaches()
				if _, _, err := e.CountParallel(context.Background(), strings.NewReader(text), NewWorkers(workers)); err != nil {
					b.Fatal(err)
				}
			})
		})
	}
}

// BenchmarkCountTables counts with the lookup tables read in place from
// the binary (what Get does) and with the same tables built into fresh
// memory (what loading did before they were generated): file-backed pages
// of the binary must not make lookups slower.
func BenchmarkCountTables(b *testing.B) {
	text := sourceMix(b)
	embedded := mustGet(b, O200kBase)
	data, _ := vocab.Embedded(O200kBase)
	tab, err := vocab.Parse(data)
	if err != nil {
		b.Fatal(err)
	}
	v, err := bpe.New(tab)
	if err != nil {
		b.Fatal(err)
	}
	heap := &Encoding{name: O200kBase, vocab: v, batch: embedded.batch, idle: make(chan *bpe.Cache, maxIdleCaches)}
	for _, c := range []struct {
		name string
		e    *Encoding
	}{{"embedded", embedded}, {"built", heap}} {
		b.Run(c.name, func(b *testing.B) {
			measureCPU(b, len(text), func() { c.e.resetCaches(); c.e.Count(text) })
		})
	}
}

func BenchmarkEncode(b *testing.B) {
	text := sourceMix(b)
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			e := mustGet(b, name)
			measureCPU(b, len(text), func() { e.resetCaches(); e.Encode(text) })
		})
	}
}

// BenchmarkCountSmall counts 2 KB messages, the size of a chat turn, each
// a different slice of the source mix, with the caches warm from the
// previous ones: the agent's common case.
func BenchmarkCountSmall(b *testing.B) {
	text := sourceMix(b)
	const size = 2048
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			e := mustGet(b, name)
			at := 0
			measureCPU(b, size, func() {
				if at+size > len(text) {
					at = 0
				}
				e.Count(text[at : at+size])
				at += size
			})
		})
	}
}

// BenchmarkLoad builds an encoding from its embedded vocabulary.
func BenchmarkLoad(b *testing.B) {
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := load(name); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkReferenceCount is tiktoken-go on the same text (slow: run it with
// -benchtime 1x).
func BenchmarkReferenceCount(b *testing.B) {
	text := sourceMix(b)
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			tk := reference(b, name)
			measureCPU(b, len(text), func() { _ = len(tk.EncodeOrdinary(text)) })
		})
	}
}

// BenchmarkReferenceLoad times tiktoken-go's GetEncoding. It caches the
// parsed vocabulary per process, so only the first iteration in a fresh
// process is a real load: run it alone with -benchtime 1x.
func BenchmarkReferenceLoad(b *testing.B) {
	tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := tiktoken.GetEncoding(name); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
