package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gopi-agent/gopi/internal/atomicfile"
	"gopkg.in/yaml.v3"
)

// Set stores a setting in gopi's global file (config.yml in the agent
// directory) and in the global layer; project files, environment and
// overrides are not touched, so a higher layer may still decide the value.
// A nil value removes the key. A known key must get a value of its kind.
//
// The file is re-read and edited in place: other keys, their order and
// comments stay as they were. The write is atomic (internal/atomicfile); a
// new file is created with mode 0600 in a directory created with 0700.
func (s *Settings) Set(key string, v any) error {
	v = normalize(v)
	if err := checkKey(key, v); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l := s.layer(LayerGlobal, SourceGopi)
	if s.globalPath == "" {
		setPath(l.Data, splitKey(key), deepCopy(v))
		s.rebuild()
		return nil
	}
	out, err := editYAMLFile(s.globalPath, key, v, l.Data)
	if err != nil {
		return fmt.Errorf("set %s in %s: %w", key, s.globalPath, err)
	}
	data, err := ParseSettings(out, FormatYAML)
	if err != nil {
		return &FileError{Path: s.globalPath, Err: err}
	}
	l.Path = s.globalPath
	l.Data = migrate(expandDotted(data), s.isLight)
	s.rebuild()
	return nil
}

// editYAMLFile sets key to v in a YAML settings file and returns the new
// content. A missing file starts from seed: the values the global layer
// holds (read from a legacy file that could not be converted).
//
// The read, the change and the write happen under the file's lock
// (atomicfile.Lock), so two gopi processes setting keys at once both
// keep their key: the second reads what the first wrote.
func editYAMLFile(path, key string, v any, seed map[string]any) ([]byte, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	unlock, err := atomicfile.Lock(path)
	if err != nil {
		return nil, err
	}
	defer unlock()
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && len(seed) > 0 {
		data, err = marshalYAML(seed)
	} else if errors.Is(err, fs.ErrNotExist) {
		err = nil
	}
	if err != nil {
		return nil, err
	}
	out, err := setYAML(data, key, v)
	if err != nil {
		return nil, err
	}
	if err := atomicfile.WriteFile(path, out, 0o600); err != nil {
		return nil, err
	}
	return out, nil
}

// setYAML sets key to v (nil: removes it) in a YAML document and returns
// the document re-encoded. A top-level flat key spelled exactly as key
// ("edit.mode": …) is updated where it is; otherwise the value goes to its
// nested place, with maps created (or non-map values replaced) on the way.
func setYAML(doc []byte, key string, v any) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(doc, &root); err != nil {
		return nil, errors.New(YAMLErrorText(err))
	}
	if root.Kind == 0 {
		root = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	top := root.Content[0]
	if top.Kind == yaml.ScalarNode && top.Tag == "!!null" {
		*top = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	}
	if top.Kind != yaml.MappingNode {
		return nil, errors.New("expected a map of settings at the top level")
	}
	var val *yaml.Node
	if v != nil {
		val = &yaml.Node{}
		if err := val.Encode(v); err != nil {
			return nil, err
		}
	}
	if i := mappingIndex(top, key); i >= 0 {
		setMapping(top, i, key, val)
	} else {
		path := splitKey(key)
		m := top
		for _, seg := range path[:len(path)-1] {
			i := mappingIndex(m, seg)
			if i >= 0 && m.Content[i+1].Kind == yaml.MappingNode {
				m = m.Content[i+1]
				continue
			}
			if val == nil {
				m = nil // nothing to remove below a missing map
				break
			}
			child := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			setMapping(m, i, seg, child)
			m = child
		}
		if m != nil {
			setMapping(m, mappingIndex(m, path[len(path)-1]), path[len(path)-1], val)
		}
	}
	out, err := marshalYAML(&root)
	if err != nil {
		return nil, err
	}
	if len(top.Content) == 0 && len(top.HeadComment+top.FootComment+root.HeadComment+root.FootComment) == 0 {
		return []byte{}, nil
	}
	return out, nil
}

// marshalYAML encodes v as YAML with two-space indentation.
func marshalYAML(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// mappingIndex returns the index of key's key node in a mapping's
// Content, or -1.
func mappingIndex(m *yaml.Node, key string) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := m.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
			return i
		}
	}
	return -1
}

// setMapping replaces the value at key index i (appending key when i is
// -1), or removes the pair when val is nil.
func setMapping(m *yaml.Node, i int, key string, val *yaml.Node) {
	switch {
	case val == nil && i >= 0:
		m.Content = append(m.Content[:i], m.Content[i+2:]...)
	case val == nil:
	case i >= 0:
		val.HeadComment, val.LineComment = m.Content[i+1].HeadComment, m.Content[i+1].LineComment
		m.Content[i+1] = val
	default:
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, val)
	}
}
