package launch

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/modes/printmode"
)

// The bounds of what the command line puts into prompts.
const (
	// MaxPipedInput bounds what is read from a pipe into the first prompt.
	MaxPipedInput = 10 << 20
	// MaxFileArg bounds an @file's text; larger files are named, not
	// inlined.
	MaxFileArg = 5 << 20
	// MaxImageArg bounds an @image.
	MaxImageArg = 25 << 20
)

// PromptInput is the command line's share of the first prompts: the
// message arguments (those starting with @ attach files) and piped input.
type PromptInput struct {
	// Args are the messages and @file arguments; those from index Dash
	// on (the position of "--", or -1) are messages even when they start
	// with @.
	Args []string
	Dash int
	// Stdin is read into the first prompt unless StdinTerminal (nil: no
	// piped input).
	Stdin         io.Reader
	StdinTerminal bool
	// MaxFileBytes bounds an @file's text (0 for MaxFileArg).
	MaxFileBytes int64
	// Report receives warnings as Request.Report does.
	Report func(line string)
}

// Prompts runs BuildPrompts until it is done or ctx ends (Ctrl-C): piped
// input that never ends ("sleep 1000 | gopi -p hi") or an @file whose
// read blocks must not make the first Ctrl-C do nothing. On cancellation
// the read is left blocked; the process is expected to exit right after.
func Prompts(ctx context.Context, cfg *config.Config, in PromptInput) ([]printmode.Prompt, error) {
	type result struct {
		prompts []printmode.Prompt
		err     error
	}
	done := make(chan result, 1)
	go func() {
		p, err := BuildPrompts(cfg, in)
		done <- result{p, err}
	}()
	select {
	case r := <-done:
		return r.prompts, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// BuildPrompts turns the messages, @file arguments and piped input into
// prompts: the first prompt holds the piped input, then the files, then
// the first message; each further message is a prompt of its own.
func BuildPrompts(cfg *config.Config, in PromptInput) ([]printmode.Prompt, error) {
	if in.MaxFileBytes <= 0 {
		in.MaxFileBytes = MaxFileArg
	}
	var files []string
	var msgs []string
	for i, a := range in.Args {
		if strings.HasPrefix(a, "@") && len(a) > 1 && (in.Dash < 0 || i < in.Dash) {
			files = append(files, a[1:])
			continue
		}
		msgs = append(msgs, a)
	}
	var text strings.Builder
	var images []*ai.ImageContent
	for _, name := range files {
		if err := in.addFile(&text, &images, cfg, name); err != nil {
			return nil, err
		}
	}
	piped, err := in.readPiped()
	if err != nil {
		return nil, err
	}
	body := text.String()
	if len(msgs) > 0 {
		body += msgs[0]
		msgs = msgs[1:]
	}
	var prompts []printmode.Prompt
	switch {
	case piped != "" && body != "":
		prompts = append(prompts, printmode.Prompt{Text: piped + "\n" + body, Images: images})
	case piped != "":
		prompts = append(prompts, printmode.Prompt{Text: piped, Images: images})
	case body != "" || len(images) > 0:
		prompts = append(prompts, printmode.Prompt{Text: body, Images: images})
	}
	for _, m := range msgs {
		prompts = append(prompts, printmode.Prompt{Text: m})
	}
	return prompts, nil
}

// readPiped reads standard input when it is not a terminal; "" when there
// is none or it is blank.
func (in *PromptInput) readPiped() (string, error) {
	if in.StdinTerminal || in.Stdin == nil {
		return "", nil
	}
	data, err := io.ReadAll(io.LimitReader(in.Stdin, MaxPipedInput+1))
	if err != nil {
		return "", fmt.Errorf("read piped input: %w", err)
	}
	if len(data) > MaxPipedInput {
		return "", fmt.Errorf("piped input is larger than %d MB: pipe less, or save it to a file and ask the agent to read it (an @FILE is inlined only up to %d MB)", MaxPipedInput>>20, in.MaxFileBytes>>20)
	}
	if strings.TrimSpace(string(data)) == "" {
		return "", nil
	}
	return string(data), nil
}

// addFile inlines a text file or attaches an image, as omp does: text as
// <file name="ABS">…</file>, an image as a block plus an empty <file> tag
// naming it.
func (in *PromptInput) addFile(text *strings.Builder, images *[]*ai.ImageContent, cfg *config.Config, name string) error {
	path := name
	if strings.HasPrefix(path, "~/") {
		path = filepath.Join(cfg.Home, path[2:])
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(cfg.Cwd, path)
	}
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("@%s: file not found (%s)", name, path)
	}
	if !info.Mode().IsRegular() {
		if info.IsDir() {
			return fmt.Errorf("@%s: is a directory; attach files (the agent can list directories with its read tool)", name)
		}
		return fmt.Errorf("@%s: not a regular file", name)
	}
	fh, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("@%s: %w", name, err)
	}
	defer fh.Close()
	head := make([]byte, 512)
	n, err := io.ReadFull(fh, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("@%s: %w", name, err)
	}
	head = head[:n]
	mime := imageMIME(http.DetectContentType(head))
	limit := in.MaxFileBytes
	if mime != "" {
		limit = MaxImageArg
	}
	if info.Size() > limit {
		fmt.Fprintf(text, "<file name=\"%s\">(skipped: too large, %d bytes)</file>\n", path, info.Size())
		in.warnTooLarge(name, limit)
		return nil
	}
	// The size from stat is not a bound: files under /proc report 0 and
	// a log can grow while it is read.
	rest, err := io.ReadAll(io.LimitReader(fh, limit+1-int64(n)))
	if err != nil {
		return fmt.Errorf("@%s: %w", name, err)
	}
	data := append(head, rest...)
	if int64(len(data)) > limit {
		fmt.Fprintf(text, "<file name=\"%s\">(skipped: too large, more than %d bytes)</file>\n", path, limit)
		in.warnTooLarge(name, limit)
		return nil
	}
	if len(data) == 0 {
		return nil
	}
	if mime != "" {
		*images = append(*images, &ai.ImageContent{Data: base64.StdEncoding.EncodeToString(data), MIMEType: mime})
		fmt.Fprintf(text, "<file name=\"%s\"></file>\n", path)
		return nil
	}
	fmt.Fprintf(text, "<file name=\"%s\">\n%s\n</file>\n", path, data)
	return nil
}

// warnTooLarge tells the user that only an @file's name is sent: the
// model would otherwise answer about a file it never saw.
func (in *PromptInput) warnTooLarge(name string, limit int64) {
	if in.Report != nil {
		in.Report(fmt.Sprintf("warning: @%s is larger than %s; only its name is sent (attach a smaller part, or let the agent read it with its tools)", name, sizeText(limit)))
	}
}

// sizeText renders a byte count as "5 MB" or "100 bytes".
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// imageMIME keeps the image types models accept.
func imageMIME(detected string) string {
	switch detected {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		return detected
	}
	return ""
}
