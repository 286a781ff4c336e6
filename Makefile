# gopi build. `make` sets up what is missing, builds the native library and bin/gopi.
GO      ?= go
CARGO   ?= cargo
GOFLAGS ?=
NATIVE_LIB := native/_lib/libgopi_native.a
NATIVE_SRC := $(shell find native/src -name '*.rs') native/Cargo.toml native/Cargo.lock
GO_SRC     := $(shell find . -name '*.go' -not -path './native/_*' -not -path './bench/_*')
FUZZTIME   ?= 10s
# Go's build cache does not hash the native archive, so a change on the Rust
# side alone would leave bin/gopi and cached test results stale. Passing the
# archive's hash as a linker flag (evaluated when the recipe runs) fixes that.
NATIVE_STAMP = $$(sha256sum $(NATIVE_LIB) | cut -c1-16)
GO_LDFLAGS   = -X github.com/gopi-agent/gopi/native/rure.NativeLibStamp=$(NATIVE_STAMP)

.PHONY: all setup native build install test race fuzz fuzz-soak soak bench bench-compare lint clippy demo docs clean release

# Where `make install` puts gopi: PREFIX/bin, by default ~/.local/bin (no
# root needed); `make install PREFIX=/usr/local` for /usr/local/bin.
PREFIX ?= $(HOME)/.local
BINDIR ?= $(PREFIX)/bin

all: build demo
	@echo "make: gopi is built: $(CURDIR)/bin/gopi"
	@echo "make: put it on your PATH with 'make install' (copies it to $(BINDIR)), or: export PATH=\"$(CURDIR)/bin:\$$PATH\""

setup:
	@scripts/setup.sh

# GOPI_LANGUAGES=go,python,rust (gopi's canonical names) links only those
# grammars into the native library: a smaller binary (docs/building.md,
# "Release builds"). Empty: every grammar. The set of the last build is kept in
# LANG_STAMP, so changing it rebuilds the library.
GOPI_LANGUAGES ?=
comma := ,
NATIVE_FEATURES := $(if $(GOPI_LANGUAGES),--no-default-features --features "$(addprefix lang-,$(subst $(comma), ,$(GOPI_LANGUAGES)))")
LANG_STAMP := native/_lib/languages
$(shell mkdir -p native/_lib; [ -f $(LANG_STAMP) ] && [ "$$(cat $(LANG_STAMP))" = "$(GOPI_LANGUAGES)" ] || echo "$(GOPI_LANGUAGES)" > $(LANG_STAMP))

$(NATIVE_LIB): $(NATIVE_SRC) $(LANG_STAMP)
	@scripts/setup.sh
	cd native && $(CARGO) build --release --locked $(NATIVE_FEATURES)
	mkdir -p native/_lib
	scripts/localize-native.sh native/_target/release/libgopi_native.a $(NATIVE_LIB)

native: $(NATIVE_LIB)

bin/gopi: $(NATIVE_LIB) $(GO_SRC) go.mod
	$(GO) build $(GOFLAGS) -ldflags "$(GO_LDFLAGS)" -o bin/gopi ./cmd/gopi

build: bin/gopi

install: bin/gopi
	install -d "$(DESTDIR)$(BINDIR)"
	install -m 0755 bin/gopi "$(DESTDIR)$(BINDIR)/gopi"
	@echo "make: installed $(DESTDIR)$(BINDIR)/gopi"
	@case ":$$PATH:" in *":$(BINDIR):"*) ;; *) echo "make: $(BINDIR) is not on your PATH; add to your shell's profile: export PATH=\"$(BINDIR):\$$PATH\"";; esac

# The demo: gopi's main job (search) over its own sources.
demo: bin/gopi
	@scripts/demo.sh

test: $(NATIVE_LIB)
	$(GO) test $(GOFLAGS) -ldflags "$(GO_LDFLAGS)" ./...
	$(GO) test $(GOFLAGS) -ldflags "$(GO_LDFLAGS)" -race ./internal/atomicfile/... ./core/hindsight/... ./core/prompthistory/... ./core/eval/... ./core/tools/eval/... ./fscache/... ./search/... ./native/astgrep/... ./ast/... ./core/ai/... ./core/auth/... ./core/agent/... ./core/agentsession/... ./core/session/... ./core/compaction/... ./core/modes/... ./core/config/... ./core/shell/... ./core/tools/bash/... ./core/tools/job/... ./core/tools/task/... ./core/extensions/... ./core/mcp/... ./core/secrets/... ./core/dap/... ./core/tools/debug/... ./core/lsp/... ./core/tools/lsp/... ./core/tool/
	CGO_ENABLED=0 $(GO) build ./...
	CGO_ENABLED=0 $(GO) test $(GOFLAGS) ./search/...

race: $(NATIVE_LIB)
	$(GO) test -ldflags "$(GO_LDFLAGS)" -race ./...

# Short runs of every fuzz target (FUZZTIME each); `make fuzz FUZZTIME=1m` for the long runs.
fuzz: $(NATIVE_LIB)
	GOFLAGS="-ldflags=-X=github.com/gopi-agent/gopi/native/rure.NativeLibStamp=$(NATIVE_STAMP)" scripts/fuzz.sh $(FUZZTIME)

# The long runs of the fuzz targets of untrusted input (hours): each until
# FUZZ_EXECS executions (default 10 M) or FUZZ_LIMIT (default 1h); the counts
# go to bench/results/fuzz-soak.md and bench/RESULTS.md.
fuzz-soak: $(NATIVE_LIB)
	GOFLAGS="-ldflags=-X=github.com/gopi-agent/gopi/native/rure.NativeLibStamp=$(NATIVE_STAMP)" scripts/fuzz-soak.sh

# A long RPC session checked for leaks (bench/soak.sh; minutes): 1,000
# prompts with tool calls through the mock LLM, failing when memory, open
# descriptors or goroutines grow. The figures go to bench/RESULTS.md.
soak: bin/gopi
	@SOAK_GOPI=bin/gopi BENCH_AREAS=soak bench/run.sh

bench: bin/gopi
	@bench/run.sh

# Is the working tree slower than REV (default HEAD) where it changed? Builds
# REV in a temporary worktree, times the cases of the touched areas with both
# builds alternated, exits 1 on a slowdown beyond the noise (bench/compare.sh).
REV ?= HEAD
bench-compare: $(NATIVE_LIB)
	@bench/compare.sh $(REV)

# The generated tables in docs/ (flags, settings, slash and RPC commands;
# internal/docgen): rewritten from the code. go test fails while they differ.
docs: $(NATIVE_LIB)
	GOPI_UPDATE_DOCS=1 $(GO) test $(GOFLAGS) -ldflags "$(GO_LDFLAGS)" -count=1 -run '^TestDocsUpToDate$$' ./cmd/gopi

lint: $(NATIVE_LIB)
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	cd native && $(CARGO) fmt --check

# Rust lints; slow on a cold cache (it type-checks every grammar crate), so not part of lint.
clippy:
	cd native && $(CARGO) clippy --release --locked -- -D warnings

release:
	./build.sh

clean:
	rm -rf bin dist native/_lib native/_target
