package config

import (
	"regexp"
	"strconv"
	"strings"
)

// yamlParserProblems are the messages gopkg.in/yaml.v3 gives for parser
// (as opposed to scanner) errors. For these it reports the 0-based line
// of the construct that failed (a flow sequence that is not closed, a
// mapping that lost its key) where every other message counts from 1.
var yamlParserProblems = []string{
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"did not find expected '-' indicator",
	"did not find expected <document start>",
	"did not find expected <stream-start>",
	"did not find expected key",
	"did not find expected node content",
	"found duplicate %TAG directive",
	"found duplicate %YAML directive",
	"found incompatible YAML document",
	"found undefined tag handle",
}

// yamlLine matches the "line N: " a yaml.v3 message starts with.
var yamlLine = regexp.MustCompile(`^line (\d+): (.*)$`)

// YAMLErrorText is a yaml.v3 decoding error as gopi shows it: without the
// "yaml: " prefix, on one line, and with the line number of a parser
// error counted from 1 like the others (the library's own text is one
// short there). A parser error located on the first line carries no
// number; it gets "line 1".
func YAMLErrorText(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "unmarshal errors:\n"); ok {
		// Decoding errors (a key given twice): their lines are right.
		var parts []string
		for _, l := range strings.Split(rest, "\n") {
			parts = append(parts, strings.TrimSpace(l))
		}
		return strings.Join(parts, "; ")
	}
	m := yamlLine.FindStringSubmatch(msg)
	problem := msg
	if m != nil {
		problem = m[2]
	}
	isParser := false
	for _, p := range yamlParserProblems {
		if problem == p {
			isParser = true
			break
		}
	}
	switch {
	case !isParser:
		return msg
	case m == nil:
		return "line 1: " + problem
	}
	n, _ := strconv.Atoi(m[1])
	return "line " + strconv.Itoa(n+1) + ": " + problem
}
