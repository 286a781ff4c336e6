package gfm

import (
	"bytes"

	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// linkParser turns bare links into links: `http://`, `https://` and
// `ftp://` URLs, `www.` host names (linked with http) and e-mail
// addresses, where a word starts (goldmark calls it at the start of a
// line, after white space and after `*`, `_`, `~` or `(`).
type linkParser struct{}

func (linkParser) Trigger() []byte { return []byte{' ', '*', '_', '~', '('} }

func (linkParser) Parse(parent gast.Node, block text.Reader, pc parser.Context) gast.Node {
	if pc.IsInLinkLabel() {
		return nil
	}
	line, segment := block.PeekLine()
	consumed := 0
	start := segment.Start
	switch line[0] {
	case ' ', '*', '_', '~', '(':
		consumed++
		start++
		line = line[1:]
	}
	kind := gast.AutoLinkURL
	var protocol []byte
	end := -1
	if bytes.HasPrefix(line, []byte("http:")) || bytes.HasPrefix(line, []byte("https:")) || bytes.HasPrefix(line, []byte("ftp:")) {
		end = scanURL(line)
	}
	if end < 0 && bytes.HasPrefix(line, []byte("www.")) {
		end = scanWWW(line)
		protocol = []byte("http")
	}
	if end < 0 {
		if len(line) > 0 && util.IsPunct(line[0]) {
			return nil
		}
		kind = gast.AutoLinkEmail
		end = scanEmail(line)
		if end < 0 {
			return nil
		}
	}
	if consumed != 0 {
		gast.MergeOrAppendTextSegment(parent, segment.WithStop(segment.Start+1))
	}
	end = trimLinkEnd(line, end)
	block.Advance(consumed + end)
	link := gast.NewAutoLink(kind, gast.NewTextSegment(text.NewSegment(start, start+end)))
	link.Protocol = protocol
	return link
}

func (linkParser) CloseBlock(parent gast.Node, pc parser.Context) {}

// maxHost is the most characters a host name may have before its last
// dot.
const maxHost = 256

// scanURL measures a link starting with http://, https:// or ftp://: the
// host, an optional port, an optional path; -1 when there is none.
func scanURL(line []byte) int {
	var from int
	switch {
	case bytes.HasPrefix(line, []byte("http://")):
		from = len("http://")
	case bytes.HasPrefix(line, []byte("https://")):
		from = len("https://")
	case bytes.HasPrefix(line, []byte("ftp://")):
		from = len("ftp://")
	default:
		return -1
	}
	end := scanHost(line, from)
	if end < 0 {
		return -1
	}
	if end+1 < len(line) && line[end] == ':' && isDigit(line[end+1]) {
		end++
		for end < len(line) && isDigit(line[end]) {
			end++
		}
	}
	return scanPath(line, end, true)
}

// scanWWW measures a link starting with "www.": host and optional path.
func scanWWW(line []byte) int {
	end := scanHost(line, len("www."))
	if end < 0 {
		return -1
	}
	return scanPath(line, end, false)
}

// scanHost measures the host name starting at from: host characters
// ending with a dot and lower-case letters, the last such dot at most
// maxHost characters in (the host characters include dots and letters, so
// the longest such host is taken); the end of the host, or -1.
func scanHost(line []byte, from int) int {
	// Only a dot within maxHost of the start counts, and a letter must
	// follow it: the run of host characters is looked at no further (a
	// line of `_www.` repeated is a trigger every five bytes).
	limit := min(len(line), from+maxHost+2)
	run := from
	for run < limit && isHostByte(line[run]) {
		run++
	}
	for dot := min(from+maxHost, run-2); dot >= from+1; dot-- {
		if line[dot] == '.' && isLower(line[dot+1]) {
			end := dot + 1
			for end < len(line) && isLower(line[end]) {
				end++
			}
			return end
		}
	}
	return -1
}

// scanPath extends a link over a path, query or fragment after its host:
// one of / # ? and then path characters ('$' only in links with a scheme,
// as goldmark has it).
func scanPath(line []byte, end int, dollar bool) int {
	if end >= len(line) || (line[end] != '/' && line[end] != '#' && line[end] != '?') {
		return end
	}
	end++
	for end < len(line) && (isPathByte(line[end]) || dollar && line[end] == '$') {
		end++
	}
	return end
}

// scanEmail measures an e-mail address at the start of line: goldmark's
// address scanner, a dot after the @, a final dot left out, and not
// followed by '-' or '_'; -1 when there is none.
func scanEmail(line []byte) int {
	stop := util.FindEmailIndex(line)
	if stop < 0 {
		return -1
	}
	at := bytes.IndexByte(line, '@')
	if at < 0 || at > stop-1 || bytes.IndexByte(line[at:stop-1], '.') < 0 {
		return -1
	}
	if line[stop-1] == '.' {
		stop--
	}
	if stop < len(line) && (line[stop] == '-' || line[stop] == '_') {
		return -1
	}
	return stop
}

// trimLinkEnd leaves trailing punctuation out of a link of line[:end]:
// ? ! . , : * _ ~, a ')' without its '(' in the link, and an entity-like
// `&name;`.
func trimLinkEnd(line []byte, end int) int {
	opening := bytes.Count(line[:end], []byte{'('})
	closing := bytes.Count(line[:end], []byte{')'})
	i := end
	for i > 1 {
		switch line[i-1] {
		case '?', '!', '.', ',', ':', '*', '_', '~':
			i--
		case ')':
			if closing <= opening {
				return i
			}
			closing--
			i--
		case ';':
			j := i - 2
			for j > 0 && util.IsAlphaNumeric(line[j]) {
				j--
			}
			if j == i-2 || line[j] != '&' {
				return i
			}
			i = j
		default:
			return i
		}
	}
	return i
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }

func isAlnum(c byte) bool { return isDigit(c) || isLower(c) || 'A' <= c && c <= 'Z' }

// isHostByte: letters, digits and - @ : % . _ + ~ # =.
func isHostByte(c byte) bool {
	return isAlnum(c) || bytes.IndexByte([]byte("-@:%._+~#="), c) >= 0
}

// isPathByte: letters, digits and - @ : % _ + . ~ # ! ? & / = ( ) ; , ' " > ^ { } [ ] `.
func isPathByte(c byte) bool {
	return isAlnum(c) || bytes.IndexByte([]byte("-@:%_+.~#!?&/=();,'\">^{}[]`"), c) >= 0
}
