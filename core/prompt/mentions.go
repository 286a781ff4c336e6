package prompt

import (
	"bytes"
	"encoding/base64"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
)

// Limits of files attached with @path in the interactive mode.
const (
	MentionTextLimit  = 5 << 20  // a text file's bytes
	MentionImageLimit = 25 << 20 // an image's bytes
)

// mentionRe finds @path words: an @ at the start or after white space,
// then a path without spaces.
var mentionRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|\s)@([^\s@]+)`) })

// Mentions reads the files a message names with @path (relative to cwd,
// or ~/…): existing regular files only, each once, in order; words that
// name no file are left alone. Text files over MentionTextLimit and
// images over MentionImageLimit are named with a skip reason; binary
// files that are not images are skipped too.
func Mentions(text, cwd, home string) []message.MentionedFile {
	var out []message.MentionedFile
	seen := map[string]bool{}
	for _, m := range mentionRe().FindAllStringSubmatch(text, -1) {
		name := strings.TrimRight(m[1], ".,;:!?)")
		path := name
		if strings.HasPrefix(path, "~/") && home != "" {
			path = filepath.Join(home, path[2:])
		} else if !filepath.IsAbs(path) {
			path = filepath.Join(cwd, path)
		}
		fi, err := os.Stat(path)
		if err != nil || !fi.Mode().IsRegular() || seen[path] {
			continue
		}
		seen[path] = true
		out = append(out, readMention(name, path, fi.Size()))
	}
	return out
}

func readMention(name, path string, size int64) message.MentionedFile {
	f := message.MentionedFile{Path: name, ByteSize: &size}
	fh, err := os.Open(path)
	if err != nil {
		f.SkippedReason = "unreadable: " + err.Error()
		return f
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, MentionImageLimit+1))
	if err != nil {
		f.SkippedReason = "unreadable: " + err.Error()
		return f
	}
	switch mime := http.DetectContentType(data); mime {
	case "image/png", "image/jpeg", "image/gif", "image/webp":
		if len(data) > MentionImageLimit {
			f.SkippedReason = "tooLarge"
			return f
		}
		f.Image = &ai.ImageContent{Data: base64.StdEncoding.EncodeToString(data), MIMEType: mime}
		return f
	}
	if len(data) > MentionTextLimit {
		f.SkippedReason = "tooLarge"
		return f
	}
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		f.SkippedReason = "binary"
		return f
	}
	f.Content = string(data)
	lines := strings.Count(f.Content, "\n")
	if f.Content != "" && !strings.HasSuffix(f.Content, "\n") {
		lines++
	}
	f.LineCount = &lines
	return f
}
